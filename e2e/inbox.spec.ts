import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { permissionDialog, startTask } from './support/ui';

// Issue 29, item 5 (the inbox): a waiting request's row says what it is at 1024×700 as at 1440×900,
// light and dark. A command that fits two lines is shown whole; a longer one shows its first two
// lines and holds the whole in its title.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const SHORT = 'echo hi > /tmp/inbox-e2e/notes/out.txt';
const LONG = `echo ${'x'.repeat(40)} > /tmp/inbox-e2e/${'deeply/'.repeat(8)}nested/out.txt && cat /tmp/inbox-e2e/${'deeply/'.repeat(8)}nested/out.txt`;
const shots = path.resolve('test-results/screens');

/** How the summary is drawn: the lines it takes, and whether any of its text is cut off. */
async function drawn(summary: Locator) {
  return summary.evaluate((element) => {
    const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
    return {
      lines: Math.round(element.clientHeight / lineHeight),
      cut: element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1,
      text: element.textContent,
      title: element.getAttribute('title'),
    };
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

test('an inbox row shows what the request is, whole or on two lines with the whole in its title, at 1024 and 1440', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: SHORT } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: LONG } }] },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Write a note');
  await permissionDialog(page);
  await startTask(page, 'Write a long note');
  await expect(page.getByTestId('inbox-item')).toHaveCount(2);
  const rows = page.getByTestId('inbox-item');
  const short = rows.filter({ hasText: 'inbox-e2e/notes' });
  const long = rows.filter({ hasText: 'nested' });

  for (const size of [
    { width: 1024, height: 700 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const whole = await drawn(short.locator('.inbox-summary'));
      expect(whole, `${size.width}: the short command is cut`).toMatchObject({ cut: false, text: SHORT });
      expect(whole.lines).toBeLessThanOrEqual(2);
      const clamped = await drawn(long.locator('.inbox-summary'));
      expect(clamped, `${size.width}: the long command`).toMatchObject({ lines: 2, title: LONG });
      // The rest of the row: how risky, which tool, which session, since when.
      for (const row of [short, long]) {
        await expect(row).toContainText('run_command');
        await expect(row).toContainText('Write a');
        await expect(row).toContainText(/just now|\d+ ?(s|m)/);
      }
      await shoot(page, `inbox-${size.width}x${size.height}-${scheme}`);
    }
  }
});

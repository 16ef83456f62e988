import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { permissionDialog, sessionStatus, startTask } from './support/ui';

// Issue #21, item 4: the UI's permission history lists every decision with who made it, and its
// exports are what `tether audit --json` and `--csv` print for the same data folder.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOSTILE = 'echo "<b>a, b</b>" > out.txt\nrm -rf x';

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

function tetherAudit(dataDir: string, args: string[]): string {
  return execFileSync(process.execPath, [path.join(root, 'bin/tether.js'), 'audit', ...args, '--data-dir', dataDir], { encoding: 'utf8' });
}

async function exported(page: Page, button: 'history-export-json' | 'history-export-csv'): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(button).click()]);
  return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
}

/** The history at a width, light and dark, kept with the results (and in $TETHER_SHOTS, for a person to look at). */
async function shots(page: Page, testInfo: TestInfo, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const name = `permission-history-${width}-${scheme}`;
    const file = testInfo.outputPath(`${name}.png`);
    await page.screenshot({ path: file });
    await testInfo.attach(name, { path: file, contentType: 'image/png' });
    if (process.env.TETHER_SHOTS) {
      mkdirSync(process.env.TETHER_SHOTS, { recursive: true });
      copyFileSync(file, path.join(process.env.TETHER_SHOTS, `${name}.png`));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the permission history lists what the person and the rules decided, and exports what tether audit prints', async ({
  page,
}, testInfo) => {
  const npmTest = { toolCalls: [{ name: 'run_command', arguments: { command: 'npm test -- --test-reporter=dot' } }] };
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch ONCE' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: HOSTILE } }] },
      npmTest,
      npmTest,
      { text: 'Done.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Make some decisions');

  // Allow once, deny with a message, allow always for the project; the rule then allows the same command unasked.
  let dialog = await permissionDialog(page);
  await expect(dialog).toContainText('touch ONCE');
  await dialog.getByTestId('permission-allow-once').click();
  dialog = await permissionDialog(page);
  await expect(dialog).toContainText('rm -rf x');
  await dialog.getByTestId('permission-deny-message').fill('not "that", please');
  await dialog.getByTestId('permission-deny').click();
  dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-rule-input')).toHaveValue('run_command(npm test *)');
  await dialog.getByTestId('permission-scope-project').click();
  await dialog.getByTestId('permission-allow-always').click();
  await sessionStatus(page, 'done');
  const sessionId = (await page.getByTestId('session-view').getAttribute('data-session-id'))!;
  expect(sessionId).toBeTruthy();

  // From the session's header: that session's decisions, newest first.
  await page.getByTestId('session-history').click();
  await expect(page.getByTestId('history')).toBeVisible();
  await expect(page.getByTestId('history-session')).toHaveValue(sessionId);
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(4);
  await expect(page.getByTestId('history-count')).toHaveText('4 decisions, newest first');
  const byAction = async () =>
    Promise.all(
      (await rows.all()).map(async (row) => [
        await row.getAttribute('data-action'),
        await row.getByTestId('history-by').textContent(),
        (await row.getByTestId('history-what').textContent())?.trim(),
      ]),
    );
  expect(await byAction()).toEqual([
    // A call that ran unasked is named by its card's title (the fixture's tests fail: "Failed (exit 1): …").
    ['allow', 'rules', expect.stringContaining('npm test -- --test-reporter=dot')],
    ['allow', 'person', 'npm test -- --test-reporter=dot'],
    ['deny', 'person', 'echo "<b>a, b</b>" > out.txt ⏎ rm -rf x'],
    ['allow', 'person', 'touch ONCE'],
  ]);
  // The rule the person made, and where it holds; the denial's message as the reason; the model's markup as text.
  await expect(rows.nth(1)).toContainText('rule run_command(npm test *)');
  await expect(rows.nth(1).getByTestId('history-scope')).toHaveText('project');
  await expect(rows.nth(0)).toContainText('rule run_command(npm test *)');
  await expect(rows.nth(2)).toContainText('not "that", please');
  await expect(page.locator('[data-testid="history-row"] b')).toHaveCount(0);

  // Exports: byte for byte what the command prints for the same data folder and session.
  const json = await exported(page, 'history-export-json');
  expect(json.name).toMatch(/^tether-audit-\d{4}-\d\d-\d\dT\d{6}\.json$/);
  expect(json.text).toBe(tetherAudit(app.dataDir, ['--session', sessionId, '--json']));
  const csv = await exported(page, 'history-export-csv');
  expect(csv.name).toMatch(/\.csv$/);
  expect(csv.text).toBe(tetherAudit(app.dataDir, ['--session', sessionId, '--csv']));
  expect(csv.text.split('\r\n')[0]).toBe('time,session,project,seq,call,tool,what,action,decided_by,rule,rule_source,scope,reason,runner');

  // Every session, from the sidebar: the same as tether audit with no filter.
  await page.getByTestId('history-session').selectOption('');
  await expect(page.getByTestId('history-export-json')).toBeEnabled();
  expect((await exported(page, 'history-export-json')).text).toBe(tetherAudit(app.dataDir, ['--json']));
  expect((await exported(page, 'history-export-csv')).text).toBe(tetherAudit(app.dataDir, ['--csv']));
  await shots(page, testInfo, 1440);
  await shots(page, testInfo, 1024);

  // A day after today holds nothing yet: the empty state says so.
  await page.getByTestId('history-since').selectOption('day');
  await page.getByTestId('history-day').fill('2999-01-01');
  await expect(page.getByTestId('history-empty')).toBeVisible();
  await expect(page.getByTestId('history-empty')).toContainText('No decisions recorded');
  expect((await exported(page, 'history-export-json')).text).toBe('[]\n');

  // Esc goes back; the sidebar's button opens it again, for every session.
  await page.getByTestId('history-refresh').press('Escape');
  await expect(page.getByTestId('history')).toHaveCount(0);
  await page.getByTestId('history-button').click();
  await expect(page.getByTestId('history-session')).toHaveValue('');
});

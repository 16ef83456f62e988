import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, permissionDialog, sessionStatus, startTask } from './support/ui';

// The person's edit of a command (issue 29, items 2 and 3): the request judges their version as they
// type it (its parts, its risk, why it asks, what Allow always would create), and once it ran, the
// permission history and both exports name what ran, mark it edited, and keep the model's proposal.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const proposal = [{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hello > out.txt' } }] }, { text: 'Done.' }];

async function editCommand(page: Page, version: string) {
  const dialog = await permissionDialog(page);
  await dialog.getByTestId('permission-edit').click();
  const box = dialog.getByTestId('permission-edit-input');
  await box.fill(version);
  return dialog;
}

test('an edited command is judged again as it is typed: its parts, risk, why it asks and the rule Allow always would create', async ({
  page,
}) => {
  app = await startServedApp({ turns: proposal });
  await page.goto(app.url);
  await startTask(page, 'Write a greeting');
  let dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-risk')).toHaveAttribute('data-part-risk', 'writes');
  await expect(dialog.getByTestId('permission-rule-input')).toHaveValue('run_command(echo hello > out.txt)');

  // Typed in steps, as a person does; only the last version is judged and shown.
  dialog = await editCommand(page, 'rm -rf s');
  await dialog.getByTestId('permission-edit-input').fill('rm -rf src && echo edited > out.txt');
  await expect(dialog.getByTestId('permission-edited-note')).toHaveAttribute('data-analysis', 'ready');
  const parts = dialog.getByTestId('permission-part');
  await expect(parts).toHaveCount(2);
  await expect(parts.nth(0)).toHaveAttribute('data-risk', 'deletes');
  await expect(parts.nth(0)).toContainText('rm deletes src');
  await expect(parts.nth(1)).toContainText('echo writes out.txt');
  await expect(parts.nth(1)).not.toContainText('only reads');
  await expect(dialog.getByTestId('permission-risk')).toHaveAttribute('data-part-risk', 'deletes');
  await expect(dialog.getByTestId('permission-why-parts')).toContainText('rm deletes src');
  await expect(dialog.getByTestId('permission-reason')).toContainText('rm -rf src');
  await expect(dialog.getByTestId('permission-allow-always-options')).toContainText('for your version');
  await expect(dialog.getByTestId('permission-rule-input')).toHaveValue('run_command(rm -rf src && echo edited > out.txt)');

  // A version the rules already allow says so, and offers no rule.
  await dialog.getByTestId('permission-edit-input').fill('cat README.md');
  await expect(dialog.getByTestId('permission-always-refused')).toContainText('the rules already allow your version');
  await expect(dialog.getByTestId('permission-allow-always')).toHaveCount(0);
  await expect(dialog.getByTestId('permission-risk')).toHaveAttribute('data-part-risk', 'reads');

  // Undone: the model's call, its analysis and its rule again.
  await dialog.getByTestId('permission-edit-reset').click();
  await expect(dialog.getByTestId('permission-risk')).toHaveAttribute('data-part-risk', 'writes');
  await expect(dialog.getByTestId('permission-rule-input')).toHaveValue('run_command(echo hello > out.txt)');
  await dialog.getByTestId('permission-deny').click();
  await dialogGone(page);
  await sessionStatus(page, 'done');
  expect(existsSync(path.join(app.workspace, 'src'))).toBe(true);
});

test('a deny rule that refuses the edited version says so before the person answers, and Allow does nothing for it', async ({ page }) => {
  app = await startServedApp({ turns: proposal, settings: { permissions: { deny: ['run_command(rm *)'] } } });
  await page.goto(app.url);
  await startTask(page, 'Write a greeting');
  const dialog = await editCommand(page, 'rm README.md');
  await expect(dialog.getByTestId('permission-edited-note')).toHaveAttribute('data-analysis', 'ready');
  await expect(dialog.locator('[data-verdict="deny"]')).toContainText('A rule refuses your version');
  await expect(dialog.getByTestId('permission-reason')).toContainText('run_command(rm *)');
  await expect(dialog.getByTestId('permission-allow-once')).toBeDisabled();
  await dialog.getByTestId('permission-deny').click();
  await sessionStatus(page, 'done');
  expect(existsSync(path.join(app.workspace, 'README.md'))).toBe(true);
});

test('the history and both exports name the command that ran, marked edited, with what the model proposed', async ({ page }) => {
  app = await startServedApp({ turns: proposal });
  await page.goto(app.url);
  await startTask(page, 'Write a greeting');
  const dialog = await editCommand(page, 'echo edited > out.txt');
  await expect(dialog.getByTestId('permission-edited-note')).toHaveAttribute('data-analysis', 'ready');
  await dialog.getByTestId('permission-allow-once').click();
  await sessionStatus(page, 'done');
  expect(readFileSync(path.join(app.workspace, 'out.txt'), 'utf8')).toBe('edited\n');
  const sessionId = (await page.getByTestId('session-view').getAttribute('data-session-id'))!;

  await page.getByTestId('session-history').click();
  const row = page.getByTestId('history-row').first();
  await expect(row.getByTestId('history-what')).toHaveText('echo edited > out.txt');
  await expect(row.getByTestId('history-edited')).toBeVisible();
  await expect(row.getByTestId('history-proposed')).toContainText('echo hello > out.txt');
  await expect(row.getByTestId('history-by')).toHaveText('person');

  const audit = (format: string) =>
    execFileSync(
      process.execPath,
      [path.join(root, 'bin/tether.js'), 'audit', '--session', sessionId, format, '--data-dir', app!.dataDir],
      {
        encoding: 'utf8',
      },
    );
  for (const [button, format] of [
    ['history-export-json', '--json'],
    ['history-export-csv', '--csv'],
  ] as const) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(button).click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text).toBe(audit(format));
    expect(text).toContain('echo edited > out.txt');
    expect(text).toContain('echo hello > out.txt');
  }
  expect(JSON.parse(audit('--json'))[0]).toMatchObject({ what: 'echo edited > out.txt', edited: true, proposed: 'echo hello > out.txt' });
});

test('npm test shows the script it runs, marked when this session changed it (issue 29, item 7)', async ({ page }) => {
  app = await startServedApp({
    turns: [
      {
        toolCalls: [
          {
            name: 'edit_file',
            arguments: {
              path: 'package.json',
              old_string: '"test": "node --test test/"',
              new_string: '"test": "node --test test/ && echo agent-was-here"',
            },
          },
        ],
      },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'npm test' } }] },
      { text: 'Ran the tests.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Run the tests');
  await (await permissionDialog(page)).getByTestId('permission-allow-once').click();
  const dialog = page.getByTestId('permission-dialog');
  await expect(dialog.getByTestId('permission-command')).toHaveText('npm test');
  const run = dialog.getByTestId('permission-run');
  await expect(run).toContainText('npm test runs, from package.json');
  const step = run.getByTestId('permission-run-step');
  await expect(step).toHaveCount(1);
  await expect(step).toContainText('node --test test/ && echo agent-was-here');
  await expect(step).toHaveAttribute('data-changed', 'true');
  await expect(step.getByTestId('permission-run-changed')).toHaveText('changed in this session');
  await dialog.getByTestId('permission-deny').click();
  await sessionStatus(page, 'done');
});

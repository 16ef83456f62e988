import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, keepScreenshot, permissionDialog, sessionStatus, startTask } from './support/ui';

// The app as a person uses it, through `tether serve` in Chromium, the scripted model standing in for
// the model. Each test starts from a fresh data folder.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

const fixPlan = (status: 'in_progress' | 'done') => ({
  name: 'update_plan',
  arguments: {
    steps: [
      { step: 'Fix the discount', status },
      { step: 'Run the tests', status: status === 'done' ? 'done' : 'pending' },
    ],
  },
});

test('a task that edits a file and runs the tests, approved once each', async ({ page }, testInfo) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [fixPlan('in_progress')] },
      {
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'cents * percent;', new_string: 'cents * percent / 100;' } },
        ],
      },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'npm test', description: 'Check the fix' } }] },
      { toolCalls: [fixPlan('done')] },
      { text: 'Fixed **the discount**: the tests pass.' },
    ],
  });
  await page.goto(app.url);
  await keepScreenshot(page, testInfo, '1-welcome');
  await startTask(page, 'Fix the failing test');

  let dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-edit-diff')).toContainText('percent / 100');
  await keepScreenshot(page, testInfo, '2-permission-edit');
  await dialog.getByTestId('permission-allow-once').click();

  dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-command')).toHaveText('npm test');
  await expect(dialog.getByTestId('permission-commands')).toContainText(/npm\s*test/);
  await expect(dialog.getByTestId('permission-model-reason')).toContainText('Check the fix');
  await keepScreenshot(page, testInfo, '3-permission-command');
  await dialog.getByTestId('permission-allow-once').click();
  await dialogGone(page);

  await sessionStatus(page, 'done');
  await expect(page.getByTestId('terminal')).toContainText('pass 1');
  await expect(page.getByTestId('plan-step')).toHaveCount(2);
  for (const step of await page.getByTestId('plan-step').all()) await expect(step).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('message-assistant').last()).toContainText('the discount');
  const file = page.locator('[data-testid="diff-file"][data-path="src/price.js"]');
  await expect(file).toBeVisible();
  await file.click();
  await expect(page.getByTestId('diff-viewer')).toHaveAttribute('data-path', 'src/price.js');
  await expect(page.getByTestId('diff-viewer')).toContainText('percent / 100');
  expect(readFileSync(path.join(app.workspace, 'src/price.js'), 'utf8')).toContain('percent / 100');
  await keepScreenshot(page, testInfo, '4-session-done');
});

test('Deny with a message: the model is told and tries another way', async ({ page }) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'rm -rf node_modules && npm install' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'package.json' } }] },
      { text: 'I looked at package.json instead.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Reinstall');
  const dialog = await permissionDialog(page);
  await dialog.getByTestId('permission-deny-message').fill('Do not touch node_modules; read package.json.');
  await dialog.getByTestId('permission-deny').click();
  await sessionStatus(page, 'done');
  await expect(page.locator('[data-testid="tool-card"][data-status="denied"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="tool-card"][data-tool="read_file"]')).toHaveAttribute('data-status', 'ok');
  const told = JSON.stringify(app.model.requests[1]);
  expect(told).toContain('Do not touch node_modules; read package.json.');
});

test('Allow always at project scope: no dialog later, also after a restart; revoking brings it back', async ({ page }, testInfo) => {
  const command = { toolCalls: [{ name: 'run_command', arguments: { command: 'npm test -- --test-reporter=dot' } }] };
  app = await startServedApp({ turns: [command, { text: 'ran once' }, command, { text: 'ran twice' }, command, { text: 'ran thrice' }] });
  await page.goto(app.url);
  await startTask(page, 'Run the tests');
  const dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-rule-input')).toHaveValue('run_command(npm test *)');
  await dialog.getByTestId('permission-scope-project').click();
  await keepScreenshot(page, testInfo, '5-allow-always');
  await dialog.getByTestId('permission-allow-always').click();
  await sessionStatus(page, 'done');

  await app.restart();
  await page.goto(app.url);
  await startTask(page, 'Run the tests again');
  await sessionStatus(page, 'done');
  await expect(page.getByTestId('permission-dialog')).toHaveCount(0);

  await page.getByTestId('settings-button').click();
  const rule = page.getByTestId('rule-item').filter({ hasText: 'run_command(npm test *)' });
  await expect(rule).toBeVisible();
  await keepScreenshot(page, testInfo, '6-settings');
  await rule.getByTestId('rule-revoke').click();
  await expect(page.getByTestId('rules-empty')).toBeVisible();
  await page.getByTestId('settings-close').click();

  await startTask(page, 'Run the tests a third time');
  await permissionDialog(page);
});

test('a pending approval survives a server restart and can still be answered', async ({ page }) => {
  app = await startServedApp({
    turns: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'NOTES.md', content: '# Notes\n' } }] }, { text: 'Wrote the notes.' }],
  });
  await page.goto(app.url);
  await startTask(page, 'Write notes');
  await permissionDialog(page);
  await app.restart();
  await page.goto(app.url);
  await expect(page.getByTestId('inbox-item')).toHaveCount(1);
  // The inbox opens it in its session.
  await page.getByTestId('inbox-item').click();
  const dialog = await permissionDialog(page);
  await dialog.getByTestId('permission-allow-once').click();
  await expect(page.getByTestId('inbox-item')).toHaveCount(0);
  await sessionStatus(page, 'done');
  expect(readFileSync(path.join(app.workspace, 'NOTES.md'), 'utf8')).toBe('# Notes\n');
});

test('the diff of a 2,000-line file renders', async ({ page }, testInfo) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: "sed -i 's/^line 1000$/line one thousand/' big.txt" } }] },
      { text: 'Changed one line.' },
    ],
  });
  writeFileSync(path.join(app.workspace, 'big.txt'), Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  await page.goto(app.url);
  await startTask(page, 'Change line 1000');
  await (await permissionDialog(page)).getByTestId('permission-allow-once').click();
  await sessionStatus(page, 'done');
  const file = page.locator('[data-testid="diff-file"][data-path="big.txt"]');
  await expect(file.getByTestId('diff-additions')).toContainText('1');
  await expect(file.getByTestId('diff-deletions')).toContainText('1');
  await file.click();
  const viewer = page.getByTestId('diff-viewer');
  await expect(viewer).toHaveAttribute('data-path', 'big.txt');
  // Monaco draws only the lines in view: the 2,000-line file opens at its change (line 1,000), the
  // removed line shown inline above the added one, the unchanged lines around folded away.
  await expect(viewer).toHaveAttribute('data-layout', 'inline');
  await expect(viewer).toHaveAttribute('data-changes', '1', { timeout: 30_000 });
  await expect(viewer.locator('.editor.modified')).toContainText('line one thousand');
  await expect(viewer.locator('.editor.modified')).toContainText('line 1000');
  const drawn = await viewer.locator('.editor.modified .view-line').allInnerTexts();
  expect(drawn.map((line) => line.replace(/\u00a0/g, ' '))).not.toContain('line 1');
  await expect(viewer.locator('.diff-hidden-lines').first()).toBeAttached();
  await keepScreenshot(page, testInfo, '7-diff-2000-lines');
});

test('the first screen loads neither the terminal (xterm) nor the diff viewer (Monaco): the terminal comes with the first command', async ({
  page,
}) => {
  app = await startServedApp({
    turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo from-the-command' } }] }, { text: 'Done.' }],
  });
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const loaded = (chunk: string) => scripts.some((script) => script.includes(chunk));
  await page.goto(app.url);
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(loaded('terminalView')).toBe(false);
  expect(loaded('editor.api')).toBe(false);
  expect(loaded('DiffViewer')).toBe(false);

  await startTask(page, 'Say hello');
  await sessionStatus(page, 'done');
  await expect(page.getByTestId('terminal')).toContainText('from-the-command');
  expect(loaded('terminalView')).toBe(true);
});

test('a page whose sidebar lists a session that has run loads the diff viewer (Monaco) once idle, before a diff is opened', async ({
  page,
}) => {
  app = await startServedApp({
    turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo changed > notes.txt' } }] }, { text: 'Done.' }],
  });
  await page.goto(app.url);
  await startTask(page, 'Write a note');
  await (await permissionDialog(page)).getByTestId('permission-allow-once').click();
  await sessionStatus(page, 'done');
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  // A fresh document with nothing selected: only the sidebar lists the session.
  await page.goto('about:blank');
  await page.goto(app.url);
  await expect(page.getByTestId('session-item')).toHaveCount(1);
  await expect(page.getByTestId('session-view')).toHaveCount(0);
  await expect.poll(() => scripts.some((script) => script.includes('editor.api'))).toBe(true);
  await expect.poll(() => scripts.some((script) => script.includes('DiffViewer'))).toBe(true);
  await expect(page.getByTestId('diff-viewer')).toHaveCount(0);
});

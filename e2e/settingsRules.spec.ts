import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, permissionDialog, sessionStatus, startTask } from './support/ui';

// Issue 29 (low): Settings adds deny, ask and allow rules to the person's settings.json, read as the
// file is read for every session (a rule that cannot be read is refused, saying why), without
// touching the rest of the file; a run that is under way follows at once; the managed policy still
// wins over the person's allow. And "Revoke" keeps to one line.

let app: ServedApp | undefined;
const folders: string[] = [];
test.afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const settingsPath = () => path.join(app!.dataDir, 'settings.json');

async function addRule(page: Page, action: 'allow' | 'ask' | 'deny', rule: string): Promise<void> {
  await page.getByTestId('settings-rule-action').selectOption(action);
  await page.getByTestId('settings-rule-input').fill(rule);
  await page.getByTestId('settings-rule-add').click();
}

test('rules added in Settings go into settings.json as written there, and hold at once, in a run under way too', async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000);
  app = await startServedApp({
    settings: { someFutureSetting: { keep: ['this', 1.5] } },
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo one > one.txt' } }] },
      // After the person's deny rule: refused without a question, in the same run.
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch two.txt' } }] },
      // After the person's ask rule: a read that runs on its own now asks.
      { toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] },
      { text: 'Done.' },
    ],
  });
  const before = readFileSync(settingsPath(), 'utf8');
  await page.goto(app.url);
  await startTask(page, 'Write two files');
  await permissionDialog(page);

  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-rules-empty')).toBeVisible();

  // A rule the file's reader cannot read: refused, with why; the file is as it was.
  await addRule(page, 'deny', 'run_command(touch *');
  await expect(page.getByTestId('settings-rule-error')).toContainText('cannot be read');
  await expect(page.getByTestId('settings-rule-input')).toHaveAttribute('aria-invalid', 'true');
  expect(readFileSync(settingsPath(), 'utf8')).toBe(before);
  await addRule(page, 'deny', 'Bash(touch *)');
  await expect(page.getByTestId('settings-rule-error')).toContainText('run_command');

  await addRule(page, 'deny', 'run_command(touch *)');
  await addRule(page, 'ask', 'read_file(README.md)');
  await expect(page.getByTestId('settings-rule')).toHaveCount(2);
  await expect(page.getByTestId('settings-rule-error')).toHaveCount(0);
  await expect(page.getByTestId('settings-rule').first()).toHaveAttribute('data-action', 'deny');
  await keepScreenshot(page, testInfo, 'settings-rules');

  // The rest of the file is as it was written (one line, the model, a setting Tether does not know).
  const after = readFileSync(settingsPath(), 'utf8');
  expect(after).not.toContain('\n');
  expect(JSON.parse(after)).toEqual({
    ...JSON.parse(before),
    permissions: { deny: ['run_command(touch *)'], ask: ['read_file(README.md)'] },
  });

  await page.getByTestId('settings-close').click();
  await (await permissionDialog(page)).getByTestId('permission-allow-once').click();
  // touch two.txt: denied by the person's rule without a question; then the read asks, because of the ask rule.
  const read = await permissionDialog(page);
  await expect(read.getByTestId('permission-tool')).toHaveText('read_file');
  await expect(page.locator('[data-testid="tool-card"][data-tool="run_command"][data-status="denied"]')).toHaveCount(1);
  await read.getByTestId('permission-allow-once').click();
  await sessionStatus(page, 'done');
  expect(JSON.stringify(app.model.requests[2])).toContain('run_command(touch *)');

  await page.getByTestId('history-button').click();
  const denied = page.locator('[data-testid="history-row"][data-action="deny"]');
  await expect(denied).toHaveCount(1);
  await expect(denied.getByTestId('history-by')).toHaveText('rules');
  await expect(denied).toContainText('run_command(touch *)');

  // Taken out again: the file holds no rule, and the rest is still as it was.
  await page.getByTestId('settings-button').click();
  const removes = page.getByTestId('settings-rule-remove');
  for (const left of [1, 0]) {
    await removes.first().click();
    await expect(removes).toHaveCount(left);
  }
  await expect(page.getByTestId('settings-rules-empty')).toBeVisible();
  expect(JSON.parse(readFileSync(settingsPath(), 'utf8'))).toEqual({ ...JSON.parse(before), permissions: { deny: [], ask: [] } });
});

test('the managed policy still wins over an allow rule added in Settings', async ({ page }) => {
  test.setTimeout(120_000);
  const folder = mkdtempSync(path.join(tmpdir(), 'tether-policy-'));
  folders.push(folder);
  const policy = path.join(folder, 'managed-settings.json');
  writeFileSync(policy, JSON.stringify({ permissions: { deny: ['run_command(touch *)'] } }));
  app = await startServedApp({
    env: { TETHER_MANAGED_SETTINGS: policy },
    turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch forbidden.txt' } }] }, { text: 'Refused.' }],
  });
  await page.goto(app.url);
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-rules')).toContainText('The managed policy’s rules hold whatever these say.');
  await addRule(page, 'allow', 'run_command(touch *)');
  await expect(page.getByTestId('settings-rule')).toHaveCount(1);
  await page.getByTestId('settings-close').click();

  await startTask(page, 'Make a file');
  await sessionStatus(page, 'done');
  await expect(page.getByTestId('permission-dialog')).toHaveCount(0);
  await expect(page.locator('[data-testid="tool-card"][data-status="denied"]')).toHaveCount(1);
  await page.getByTestId('history-button').click();
  await expect(page.getByTestId('history-row').getByTestId('history-by')).toHaveText('managed policy');
});

test('"Revoke" stays on one line at 1440 and 1024, with a long rule beside it', async ({ page }) => {
  // A compound command is offered as its exact text: a long rule, with no spaces to spare in places.
  const command = `npm test -- --test-name-pattern=${'a-very-long-pattern-'.repeat(3)} && echo finished-${'x'.repeat(30)}`;
  app = await startServedApp({ turns: [{ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { text: 'Done.' }] });
  await page.goto(app.url);
  await startTask(page, 'Run the tests');
  const dialog = await permissionDialog(page);
  await expect(dialog.getByTestId('permission-rule-input')).toHaveValue(`run_command(${command})`);
  await dialog.getByTestId('permission-scope-project').click();
  await dialog.getByTestId('permission-allow-always').click();
  await sessionStatus(page, 'done');
  await page.getByTestId('settings-button').click();
  const revoke = page.getByTestId('rule-revoke');
  await expect(revoke).toBeVisible();
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    const lines = await revoke.evaluate((button) => {
      const range = document.createRange();
      range.selectNodeContents(button);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines, `Revoke at ${width}`).toBe(1);
  }
});

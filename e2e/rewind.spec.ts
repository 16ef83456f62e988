import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, keepScreenshot, permissionDialog, sessionStatus, startTask } from './support/ui';

// Rewind from the conversation, as a person does it in `tether serve`: pick a step, read what will
// change and what cannot be undone, rewind with the keyboard, see the marker, undo it.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

test('rewind a session to a step from the conversation, then undo the rewind', async ({ page }, testInfo) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ id: 'call_notes', name: 'write_file', arguments: { path: 'notes.txt', content: 'first notes\n' } }] },
      { toolCalls: [{ id: 'call_shuffle', name: 'run_command', arguments: { command: 'rm README.md && printf made > made.txt' } }] },
      {
        toolCalls: [
          {
            id: 'call_fix',
            name: 'edit_file',
            arguments: { path: 'src/price.js', old_string: 'cents * percent;', new_string: 'cents * percent / 100;' },
          },
        ],
      },
      { toolCalls: [{ id: 'call_push', name: 'run_command', arguments: { command: 'git push origin main || true' } }] },
      { text: 'Done: notes written, files shuffled, discount fixed.' },
    ],
  });
  const workspace = app.workspace;
  const priceBefore = readFileSync(path.join(workspace, 'src/price.js'), 'utf8');
  await page.goto(app.url);
  await startTask(page, 'Write notes, shuffle files, fix the discount');
  for (let answered = 0; answered < 4; answered++) {
    const dialog = await permissionDialog(page);
    await dialog.getByTestId('permission-allow-once').click();
  }
  await dialogGone(page);
  await sessionStatus(page, 'done');
  expect(existsSync(path.join(workspace, 'README.md'))).toBe(false);
  const conversation = page.getByTestId('conversation');
  const mainCards = conversation.locator('.conversation-content > .rewindable [data-testid="tool-card"]');
  await expect(mainCards).toHaveCount(4);

  // The step after write_file, reached by keyboard: the button shows when focused.
  const step = conversation.locator('.rewindable:has([data-call-id="call_notes"]) [data-testid="rewind-here"]');
  await step.focus();
  await expect(step).toHaveCSS('opacity', '1');
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('rewind-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Rewind to after write_file');
  const files = dialog.getByTestId('rewind-files');
  await expect(files).toContainText('README.md');
  await expect(files.locator('li', { hasText: 'README.md' })).toContainText('restored');
  await expect(files.locator('li', { hasText: 'made.txt' })).toContainText('removed');
  await expect(files.locator('li', { hasText: 'src/price.js' })).toContainText('reverted');
  await expect(dialog.getByTestId('rewind-warnings')).toContainText('git push origin main');
  await expect(dialog.getByTestId('rewind-conversation')).toContainText('no longer be sent to the model');
  await keepScreenshot(page, testInfo, '1-rewind-dialog');

  // Files and conversation (the default): Enter rewinds.
  await expect(dialog.getByTestId('rewind-choice-both')).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  const marker = conversation.getByTestId('rewind-marker');
  await expect(marker).toHaveCount(1);
  await expect(marker).toContainText('Rewound to after write_file');
  await expect(marker).toContainText('git push origin main');
  expect(readFileSync(path.join(workspace, 'README.md'), 'utf8').length).toBeGreaterThan(0);
  expect(existsSync(path.join(workspace, 'made.txt'))).toBe(false);
  expect(readFileSync(path.join(workspace, 'src/price.js'), 'utf8')).toBe(priceBefore);
  expect(readFileSync(path.join(workspace, 'notes.txt'), 'utf8')).toBe('first notes\n');
  await expect(mainCards).toHaveCount(1);
  await marker.getByTestId('rewind-show-dropped').click();
  await expect(marker.getByTestId('rewind-dropped').getByTestId('tool-card')).toHaveCount(3);
  await keepScreenshot(page, testInfo, '2-rewound');

  await marker.getByTestId('rewind-undo').click();
  await expect(conversation.locator('[data-testid="rewind-marker"][data-kind="undo"]')).toHaveCount(1);
  await expect(mainCards).toHaveCount(4);
  await expect.poll(() => existsSync(path.join(workspace, 'made.txt'))).toBe(true);
  expect(existsSync(path.join(workspace, 'README.md'))).toBe(false);
  expect(readFileSync(path.join(workspace, 'src/price.js'), 'utf8')).toContain('percent / 100');
  await keepScreenshot(page, testInfo, '3-undone');
});

test('a rewind while the agent works is refused until it stops', async ({ page }, testInfo) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ id: 'call_sleep', name: 'run_command', arguments: { command: 'sleep 600 && touch slept.txt' } }] },
      { text: 'stopped anyway' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Wait a while');
  const permission = await permissionDialog(page);
  await permission.getByTestId('permission-allow-once').click();
  await dialogGone(page);
  await expect(page.locator('[data-testid="tool-card"][data-call-id="call_sleep"]')).toHaveAttribute('data-status', 'running');

  const step = page.getByTestId('conversation').getByTestId('rewind-here').first();
  await step.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('rewind-dialog');
  await expect(dialog.getByTestId('rewind-working')).toContainText('Stop it');
  await expect(dialog.getByTestId('rewind-confirm')).toBeDisabled();
  await keepScreenshot(page, testInfo, '1-refused-while-working');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.getByTestId('session-stop').click();
  await sessionStatus(page, 'aborted');
  await step.focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('rewind-confirm')).toBeEnabled();
  await page.keyboard.press('c');
  await expect(dialog.getByTestId('rewind-choice-conversation')).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rewind-marker')).toContainText('conversation only');
});

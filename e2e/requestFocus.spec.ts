import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { permissionDialog, reachRequest, startTask } from './support/ui';

// Esc goes back where the person was (issue 29): after N took them from one session's request to
// another session's, Esc takes them back to the session they were in, to its task box, not into the
// other session's task box.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

test('Esc after N goes back to the session the person was in, to its task box', async ({ page }) => {
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch FIRST' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'touch SECOND' } }] },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'First task');
  const firstSession = (await (await permissionDialog(page)).getAttribute('data-session-id'))!;
  await page.getByTestId('project-item').first().locator('.project-header').hover();
  await page.getByTestId('project-new-session').first().click();
  await page.getByTestId('task-box').fill('Second task');
  await page.getByTestId('task-box').press('Enter');
  await expect(page.getByTestId('permission-dialog')).toContainText('touch SECOND');
  const secondSession = (await page.getByTestId('session-view').getAttribute('data-session-id'))!;
  expect(secondSession).not.toBe(firstSession);

  // The person is in the second session's task box, reaches its request, and presses N.
  const box = page.getByTestId('task-box');
  await box.focus();
  await reachRequest(page);
  await page.keyboard.press('n');
  await expect(page.getByTestId('session-view')).toHaveAttribute('data-session-id', firstSession);
  await expect(page.getByTestId('permission-dialog')).toHaveAttribute('data-focused', 'true');

  // Esc: back in the second session, in its task box; both requests still wait.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('session-view')).toHaveAttribute('data-session-id', secondSession);
  await expect(page.getByTestId('task-box')).toBeFocused();
  await expect(page.getByTestId('inbox-item')).toHaveCount(2);
});

import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, sessionStatus, startTask } from './support/ui';

// Hooks on the tool card (issue 21, item 1), through `tether serve` in Chromium: a hook that fails is
// listed on the card of the call it ran for (which went on without it), and a call a guard blocked
// shows as blocked, with the guard's reason, and no request for the person.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

test('a failing hook is shown on its call; a blocked call says a hook blocked it', async ({ page }, testInfo) => {
  app = await startServedApp({
    turns: [
      {
        toolCalls: [
          { id: 'call_read', name: 'read_file', arguments: { path: 'package.json' } },
          { id: 'call_rm', name: 'run_command', arguments: { command: 'rm -rf src' } },
        ],
      },
      { text: 'Done.' },
    ],
    settings: {
      hooks: {
        PreToolUse: [
          { matcher: 'Read', hooks: [{ type: 'command', command: 'echo "<b>boom</b>" >&2; exit 1' }] },
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `grep -q 'rm -rf' && { echo 'Blocked: rm -rf is not allowed' >&2; exit 2; }; exit 0` }],
          },
        ],
      },
    },
  });
  await page.goto(app.url);
  await startTask(page, 'look around');
  await sessionStatus(page, 'done');

  const read = page.locator('[data-testid="tool-card"][data-call-id="call_read"]');
  await expect(read).toHaveAttribute('data-status', 'ok');
  const problems = read.getByTestId('tool-card-hook-problems');
  // The hook's words are text, never markup.
  await expect(problems).toContainText('The PreToolUse hook `echo "<b>boom</b>" >&2; exit 1` failed (exit code 1): <b>boom</b>');
  await expect(problems.locator('b')).toHaveCount(0);

  const rm = page.locator('[data-testid="tool-card"][data-call-id="call_rm"]');
  await expect(rm).toHaveAttribute('data-status', 'denied');
  await expect(rm.getByTestId('tool-card-title')).toHaveText('Blocked by a hook: rm -rf src');
  await expect(page.getByTestId('permission-dialog')).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'hooks-on-tool-cards');
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, permissionDialog, sessionStatus, startTask } from './support/ui';

// System notifications say what waits (issue #21, item 3): a request waiting names the session, the
// tool and the command; a finished session and a failed one are told apart; clicking the waiting one
// opens that request. The page's Notification is a recorder, and the window says it is not in front.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

interface Recorded {
  title: string;
  body: string;
  tag: string;
}

/** Before the app loads: a Notification that records what it is given, permission granted, and a window not in front. */
async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shown: { title: string; body: string; tag: string; onclick: (() => void) | null; closed: boolean }[] = [];
    class RecordingNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      closed = false;
      constructor(
        public title: string,
        options: { body?: string; tag?: string } = {},
      ) {
        this.body = options.body ?? '';
        this.tag = options.tag ?? '';
        shown.push(this);
      }
      body: string;
      tag: string;
      close() {
        this.closed = true;
      }
    }
    Object.assign(window, { Notification: RecordingNotification, shownNotifications: shown });
    document.hasFocus = () => false;
  });
}

async function shown(page: Page): Promise<Recorded[]> {
  return page.evaluate(() =>
    (window as unknown as { shownNotifications: Recorded[] }).shownNotifications.map(({ title, body, tag }) => ({ title, body, tag })),
  );
}

const hostile = 'rm -rf build\n\nFinished: Tidy the release\u202e' + 'x'.repeat(400);

test('a waiting request names the session, tool and command; clicking it opens that request; none for it after a reload', async ({
  page,
}) => {
  app = await startServedApp({ turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: hostile } }] }] });
  await recordNotifications(page);
  await page.goto(app.url);
  await startTask(page, 'Tidy the release');
  await permissionDialog(page);
  await expect.poll(async () => (await shown(page)).length).toBe(1);
  const [waiting] = await shown(page);
  expect(waiting!.title).toMatch(/^Waiting for you: .*Tidy the release/);
  expect(waiting!.body.startsWith('run_command: rm -rf build Finished: Tidy the release x')).toBe(true);
  expect(waiting!.body).not.toMatch(/[\n\r\u202e]/);
  expect(waiting!.body.length).toBeLessThan(220);

  // Away from the request, the notification's click brings it back and gives it focus.
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings')).toBeVisible();
  await page.evaluate(() => (window as unknown as { shownNotifications: { onclick: () => void }[] }).shownNotifications[0]!.onclick());
  const dialog = await permissionDialog(page);
  await expect(dialog).toHaveAttribute('data-focused', 'true');
  expect(
    await page.evaluate(() => (window as unknown as { shownNotifications: { closed: boolean }[] }).shownNotifications[0]!.closed),
  ).toBe(true);

  // Waiting when the window opened: on screen, not notified again.
  await page.reload();
  await expect(page.getByTestId('inbox-item')).toHaveCount(1);
  await page.waitForTimeout(500);
  expect(await shown(page)).toEqual([]);
});

test('a finished session and a failed one are distinct notifications, each opening its session, and each can be turned off', async ({
  page,
}, testInfo) => {
  app = await startServedApp({
    turns: [
      { text: 'All tidy.' },
      { error: { status: 401, body: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } } } },
      { text: 'Tidy again.' },
    ],
  });
  await recordNotifications(page);
  await page.goto(app.url);
  await startTask(page, 'Tidy the release');
  await sessionStatus(page, 'done');
  await startTask(page, 'Break the build');
  await sessionStatus(page, 'failed');
  await expect.poll(async () => (await shown(page)).length).toBe(2);
  const [finished, failed] = await shown(page);
  expect(finished!.title).toMatch(/^Finished: .*Tidy the release/);
  expect(failed!.title).toMatch(/^Failed: .*Break the build/);
  expect(finished!.tag).not.toBe(failed!.tag);

  // Clicking the finished one opens its session.
  await page.evaluate(() => (window as unknown as { shownNotifications: { onclick: () => void }[] }).shownNotifications[0]!.onclick());
  await expect(page.getByTestId('session-header-status')).toHaveAttribute('data-status', 'done');

  // Turned off in Settings: no "finished" notification for the next run.
  await page.getByTestId('settings-button').click();
  const finishedToggle = page.getByTestId('notify-finished');
  await expect(finishedToggle).toBeChecked();
  await finishedToggle.uncheck();
  // Kept with the pane sizes in the data folder, so the next window (or `tether serve` port) keeps it.
  const layoutFile = path.join(app.dataDir, 'layout.json');
  await expect
    .poll(() =>
      existsSync(layoutFile) ? (JSON.parse(readFileSync(layoutFile, 'utf8')) as { notifications?: unknown }).notifications : null,
    )
    .toEqual({ finished: false });
  await expect(page.getByTestId('notify-waiting')).toBeChecked();
  await expect(page.getByTestId('notify-failed')).toBeChecked();
  await page.getByTestId('notification-settings').scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, 'notification-settings');
  await page.getByTestId('settings-close').click();
  await startTask(page, 'Tidy once more');
  await sessionStatus(page, 'done');
  await page.waitForTimeout(500);
  expect(await shown(page)).toHaveLength(2);
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/accessibility';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, permissionDialog, sessionStatus, startTask } from './support/ui';

// Issue 29, item 9: a tab left open while `tether serve` restarts. It says the server restarted
// (its token no longer holds) instead of retrying for ever, takes the new address pasted into it
// without a reload, and the address keeps the open session, so a reload comes back to it too.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

test('a restarted server: the tab says so, takes the new address without a reload, and keeps its session and request', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  app = await startServedApp({
    turns: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'NOTES.md', content: '# Notes\n' } }] }, { text: 'Wrote the notes.' }],
  });
  await page.goto(app.url);
  await startTask(page, 'Write notes');
  await permissionDialog(page);
  const sessionId = (await page.getByTestId('session-view').getAttribute('data-session-id'))!;
  // The address names the open session, and never the token.
  await expect.poll(() => page.evaluate(() => location.hash)).toContain(`session=${sessionId}`);
  expect(await page.evaluate(() => location.href)).not.toContain('token=');
  const firstUrl = app.url;
  await page.evaluate(() => ((window as unknown as { tabMark: string }).tabMark = 'the same page'));

  await app.restart();
  expect(new URL(app.url).origin).toBe(new URL(firstUrl).origin);
  expect(app.url).not.toBe(firstUrl);
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toHaveAttribute('data-state', 'tokenRefused', { timeout: 30_000 });
  await expect(banner).toContainText('tether serve restarted');
  await expect(banner).toContainText('Paste the new address');

  // The person pastes the printed address into this tab: only the fragment changes, nothing reloads.
  await page.goto(app.url);
  await expect(banner).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { tabMark?: string }).tabMark)).toBe('the same page');
  await expect(page.getByTestId('session-view')).toHaveAttribute('data-session-id', sessionId);
  await expect(page.getByTestId('inbox-item')).toHaveCount(1);
  await permissionDialog(page);
  // The token is in no address the tab keeps: not the current one, nor the one going back leads to.
  await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#session=${sessionId}`);
  await page.goBack();
  expect(await page.evaluate(() => location.href)).not.toContain('token=');
  await page.goForward();

  // A reload comes back to the same session, with the token the tab kept.
  await page.reload();
  await expect(page.getByTestId('session-view')).toHaveAttribute('data-session-id', sessionId);
  const dialog = await permissionDialog(page);
  await dialog.getByTestId('permission-allow-once').click();
  await sessionStatus(page, 'done');
  expect(readFileSync(path.join(app.workspace, 'NOTES.md'), 'utf8')).toBe('# Notes\n');

  // A page of another origin, even holding the token, gets nothing: neither the socket nor the token check.
  const token = new URL(app.url).hash.slice('#token='.length);
  const other = await context.newPage();
  await other.goto(app.model.baseUrl).catch(() => {});
  const attempts = await other.evaluate(
    async ({ origin, token }) => {
      const socket = await new Promise<string>((resolve) => {
        const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, ['tether.v1', `tether.token.${token}`]);
        ws.onopen = () => resolve('opened');
        ws.onerror = () => resolve('refused');
      });
      const check = await fetch(`${origin}/token-check`, { headers: { Authorization: `Bearer ${token}` } }).then(
        (response) => `read ${response.status}`,
        () => 'blocked',
      );
      return { socket, check };
    },
    { origin: new URL(app.url).origin, token },
  );
  expect(attempts).toEqual({ socket: 'refused', check: 'blocked' });
});

test('a page reloaded after the restart (its kept token is stale) loads nothing, says why, and comes back where it was once given the address', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  app = await startServedApp({
    turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch made-by-the-agent' } }] }, { text: 'Done.' }],
  });
  await page.goto(app.url);
  await startTask(page, 'Make a file');
  await permissionDialog(page);
  const sessionId = (await page.getByTestId('session-view').getAttribute('data-session-id'))!;
  await page.getByTestId('settings-button').click();
  await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#view=settings&session=${sessionId}`);

  await app.restart();
  await page.reload();
  await expect(page.getByTestId('connection-banner')).toHaveAttribute('data-state', 'tokenRefused', { timeout: 30_000 });
  // Until then the address still names the place.
  expect(await page.evaluate(() => location.hash)).toBe(`#view=settings&session=${sessionId}`);
  await expectAccessible(page, 'a page whose token no longer holds');
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 700 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await keepScreenshot(page, testInfo, `token-refused-${size.width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await page.goto(app.url);
  await expect(page.getByTestId('settings')).toBeVisible();
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  await page.getByTestId('settings-close').click();
  await expect(page.getByTestId('session-view')).toHaveAttribute('data-session-id', sessionId);
  await permissionDialog(page);
});

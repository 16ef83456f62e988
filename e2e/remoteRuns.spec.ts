import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startRunner, writeTurn } from '../test/support/runner';
import { closeCliModels } from '../test/support/cli';
import { removeTempDirs } from '../test/support/tempDirs';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, keepScreenshot, permissionDialog } from './support/ui';

// Issue 33: a run on another machine (here: another process with its own data folder) reports to the
// desk; its request comes into the same Inbox, named by its runner, and is answered there.

let app: ServedApp | undefined;
const shots = process.env.TETHER_SHOTS_DIR;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
  await closeCliModels();
  removeTempDirs();
});

async function shoot(page: Page, name: string) {
  if (!shots) return;
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: path.join(shots, `${name}-${width}x${height}-${colorScheme}.png`) });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a remote run’s request comes into the Inbox under its runner and is answered there', async ({ page }, testInfo) => {
  const deskPort = await freePort();
  app = await startServedApp({ serveArgs: ['--remote-runs', '--desk-port', String(deskPort)] });
  const token = execFileSync(process.execPath, ['bin/tether.js', 'desk', 'tokens', 'create', 'ci-linux-1', '--data-dir', app.dataDir], {
    encoding: 'utf8',
  }).trim();
  const run = await startRunner({
    desk: `ws://127.0.0.1:${deskPort}`,
    token,
    turns: [writeTurn('REMOTE.txt'), { text: 'Made REMOTE.txt on the runner.' }],
  });

  await page.goto(app.url);
  const item = page.getByTestId('inbox-item');
  await expect(item).toHaveCount(1, { timeout: 30_000 });
  await expect(item.getByTestId('inbox-runner')).toHaveText('ci-linux-1');
  await expect(page.getByTestId('runner-group')).toHaveAttribute('data-runner', 'ci-linux-1');
  await item.getByRole('button').click();

  const dialog = await permissionDialog(page);
  await expect(dialog).toContainText('echo REMOTE.txt > REMOTE.txt');
  // Allow always reaches this run, or this repository on this runner; never everywhere.
  const scopes = dialog.getByTestId('permission-allow-always-options');
  await expect(scopes.getByText('this run')).toBeVisible();
  await expect(scopes.getByText('this repository on ci-linux-1')).toBeVisible();
  await expect(dialog.getByTestId('permission-scope-everywhere')).toHaveCount(0);
  await expect(page.getByTestId('remote-run-notice')).toContainText('Runs on ci-linux-1');
  await shoot(page, 'remote-request');
  await keepScreenshot(page, testInfo, 'remote-request');

  await dialog.getByTestId('permission-allow-once').click();
  await dialogGone(page);
  expect(await run.exited).toBe(0);
  expect(existsSync(path.join(run.repo, 'REMOTE.txt'))).toBe(true);
  await expect(page.getByTestId('conversation')).toContainText('Made REMOTE.txt on the runner.', { timeout: 15_000 });
  await expect(page.getByTestId('runner-state')).toHaveText('offline', { timeout: 15_000 });
  await shoot(page, 'remote-done');

  await page.getByTestId('settings-button').click();
  await page.getByTestId('remote-runs-settings').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('remote-runs-url')).toHaveText(`ws://127.0.0.1:${deskPort}`);
  await expect(page.getByTestId('remote-token')).toHaveAttribute('data-runner', 'ci-linux-1');
  await page.getByTestId('remote-token-name').fill('k8s-job');
  await page.getByTestId('remote-token-create').click();
  await expect(page.getByTestId('remote-token-value')).toHaveText(/^tether-runner\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{43}$/);
  await page.getByTestId('remote-runs-settings').scrollIntoViewIfNeeded();
  await shoot(page, 'remote-settings');
});

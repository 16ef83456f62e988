import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { dialogGone, keepScreenshot, permissionDialog, sessionStatus, startTask } from './support/ui';

// The command sandbox as a person meets it through `tether serve`: a command that hits the fence and
// the second question (run it again outside the sandbox?), and the settings section that shows the
// fence and lets the person widen it for a project.

let app: ServedApp | undefined;
test.afterEach(async () => {
  await app?.close();
  app = undefined;
});

test('a command that hits the fence asks to run again outside the sandbox, once', async ({ page }, testInfo) => {
  // Outside /tmp: inside the sandbox /tmp is the session's own.
  const elsewhere = mkdtempSync('/var/tmp/tether-e2e-outside-');
  const outside = path.join(elsewhere, 'escaped.txt');
  app = await startServedApp({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: `touch ${outside}`, description: 'leave a mark' } }] },
      { text: 'Touched it.' },
    ],
  });
  await page.goto(app.url);
  await startTask(page, 'Touch a file outside the project');

  const first = await permissionDialog(page);
  await expect(first.getByTestId('permission-sandbox')).toHaveCount(0);
  await first.getByTestId('permission-allow-once').click();

  const second = await permissionDialog(page);
  const notice = second.getByTestId('permission-sandbox');
  await expect(notice).toHaveAttribute('data-kind', 'fence_hit');
  await expect(notice).toContainText('Blocked by the sandbox fence');
  await expect(second.getByTestId('permission-sandbox-reason')).toContainText(`the write fence: ${outside} is outside the workspace`);
  await expect(notice).toContainText('Run it again outside the sandbox?');
  await expect(second.getByTestId('permission-allow-always')).toHaveCount(0);
  await expect(second.getByTestId('permission-always-refused')).toContainText('never always');
  await expect(second.getByTestId('permission-edit')).toHaveCount(0);
  expect(existsSync(outside)).toBe(false);
  await keepScreenshot(page, testInfo, '1-sandbox-retry-dialog');

  await second.getByTestId('permission-allow-once').click();
  await dialogGone(page);
  await sessionStatus(page, 'done');
  expect(existsSync(outside)).toBe(true);
  rmSync(elsewhere, { recursive: true, force: true });
});

test('settings show the fence, with /tmp and the caches, and switch the package registries preset on for the project', async ({
  page,
}, testInfo) => {
  app = await startServedApp();
  await page.goto(app.url);
  await page.getByTestId('settings-button').click();
  const section = page.getByTestId('sandbox-settings');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByTestId('sandbox-status')).toHaveAttribute('data-available', 'true');
  await expect(section.getByTestId('sandbox-builtin-write')).toContainText(app.workspace);
  await expect(section.getByTestId('sandbox-builtin-deny-write')).toContainText(`${app.workspace}/.tether`);
  await expect(section.getByTestId('sandbox-builtin-deny-read')).toContainText('.ssh');
  await expect(section.getByTestId('sandbox-builtin-deny-read')).toContainText(app.dataDir);

  await expect(section.getByTestId('sandbox-builtin-places')).toContainText('/tmp');
  await expect(section.getByTestId('sandbox-builtin-places')).toContainText(`${app.dataDir}/sandbox/caches/`);
  await expect(section.getByTestId('sandbox-registries-hosts')).toContainText('PyPI');
  await section.getByTestId('sandbox-registries').check();
  await section.getByTestId('sandbox-allowedDomains').fill('api.github.com');
  await section.getByTestId('sandbox-denyRead').fill('~/.kube');
  await section.getByTestId('sandbox-save').click();
  // Disabled while it saves and once saved: the label says which.
  await expect(section.getByTestId('sandbox-save')).toHaveText('Save fence');
  await expect(section.getByTestId('sandbox-save')).toBeDisabled();
  await section.getByTestId('sandbox-unavailable').selectOption('refuse');
  await expect(section.getByTestId('sandbox-unavailable')).toHaveValue('refuse');

  // The home folder is dark but for the toolchains; a secret store is refused when lit, with the reason.
  await expect(section.getByTestId('sandbox-builtin-lit-home')).toContainText('Home folder: dark');
  await section.getByTestId('sandbox-builtin-lit-home').locator('summary').click();
  await expect(section.getByTestId('sandbox-builtin-lit-home')).toContainText('~/.nvm');
  await section.getByTestId('sandbox-litHome').fill('~/.ssh');
  await section.getByTestId('sandbox-save').click();
  await expect(section).toContainText('~/.ssh, which holds credentials');
  await section.getByTestId('sandbox-litHome').fill('~/.config/mytool');
  await section.getByTestId('sandbox-save').click();
  // Disabled while it saves and once saved: the label says which.
  await expect(section.getByTestId('sandbox-save')).toHaveText('Save fence');
  await expect(section.getByTestId('sandbox-save')).toBeDisabled();

  // A reload comes back to Settings (the address keeps the view, issue 29), with what was saved.
  await page.reload();
  await expect(page.getByTestId('settings')).toBeVisible();
  await expect(page.getByTestId('sandbox-litHome')).toHaveValue('~/.config/mytool');
  await expect(page.getByTestId('sandbox-registries')).toBeChecked();
  await expect(page.getByTestId('sandbox-allowedDomains')).toHaveValue('api.github.com');
  await expect(page.getByTestId('sandbox-denyRead')).toHaveValue('~/.kube');
  await page.getByTestId('sandbox-settings').scrollIntoViewIfNeeded();
  await keepScreenshot(page, testInfo, '2-sandbox-settings');
});

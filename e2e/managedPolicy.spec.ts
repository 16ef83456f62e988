import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServedApp, type ServedApp } from './support/servedApp';
import { keepScreenshot, startTask } from './support/ui';

// Settings under a managed policy (issue 21, item 2), through `tether serve` in Chromium: the policy
// named by TETHER_MANAGED_SETTINGS is listed with what it fixes, the outside-content choices below
// its floor are turned off with why, and a policy that cannot be read says so.

let app: ServedApp | undefined;
const folders: string[] = [];
test.afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function policyFile(text: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'tether-policy-'));
  folders.push(folder);
  const file = path.join(folder, 'managed-settings.json');
  writeFileSync(file, text);
  return file;
}

test('Settings shows what the managed policy fixes and why a choice is turned off', async ({ page }, testInfo) => {
  const file = policyFile(
    JSON.stringify({ permissions: { deny: ['run_command(rm *)'] }, disableUnleashed: true, outsideContent: 'block' }),
  );
  app = await startServedApp({ env: { TETHER_MANAGED_SETTINGS: file }, turns: [{ text: 'Nothing to do.' }] });
  await page.goto(app.url);
  await page.getByTestId('settings-button').click();

  const notice = page.getByTestId('settings-managed-policy');
  await expect(notice).toContainText(file);
  await expect(notice).toContainText('deny rules that always apply: run_command(rm *)');
  await expect(notice).toContainText('unleashed runs (--unleashed) are turned off');
  const outside = page.getByTestId('settings-outside-content');
  // The person's own choice (ask, the default) is below the floor: what applies is shown.
  await expect(outside).toHaveValue('block');
  await expect(outside.locator('option[value="off"]')).toBeDisabled();
  await expect(outside.locator('option[value="ask"]')).toBeDisabled();
  await expect(outside.locator('option[value="block"]')).toBeEnabled();
  await expect(page.getByTestId('settings-outside-content-fixed')).toContainText(`The managed policy (${file}) sets at least “block”`);
  await keepScreenshot(page, testInfo, 'managed-policy');

  // A session's mode control does not offer what the policy turned off, and says why.
  await page.getByTestId('settings-button').click();
  await startTask(page, 'Look around');
  const unleashed = page.getByTestId('mode-select').locator('option[value="unleashed"]');
  await expect(unleashed).toBeDisabled();
  await expect(unleashed).toHaveText('unleashed (off: managed policy)');
  await expect(unleashed).toHaveAttribute('title', `Turned off by the managed policy (${file})`);
});

test('a managed policy that cannot be read is shown as the reason nothing runs', async ({ page }) => {
  const file = policyFile('{"disableUnleashed": ');
  app = await startServedApp({ env: { TETHER_MANAGED_SETTINGS: file } });
  await page.goto(app.url);
  await page.getByTestId('settings-button').click();
  const notice = page.getByTestId('settings-managed-policy');
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toContainText(`The managed policy ${file} is not valid JSON`);
});

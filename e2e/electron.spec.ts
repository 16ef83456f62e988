import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';

// The real desktop app, where Electron's binary is installed. Machines that cannot download it
// (CI here) report this spec as skipped, never as passed.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Read where the electron package put its binary rather than require('electron'), which would try
// to download it on a machine that has none.
const electronBinary = (() => {
  const pathFile = path.join(root, 'node_modules/electron/path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = path.join(root, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
})();

test.skip(!electronBinary, "Electron's binary is not installed on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD); the browser host covers the UI.");

test('the desktop app opens its window with the bridge and no Node in the page', async () => {
  const app = await electron.launch({ executablePath: electronBinary!, args: [path.join(root, 'out/main/index.js')] });
  try {
    const window = await app.firstWindow();
    await expect(window).toHaveTitle(/Tether/);
    expect(await window.evaluate(() => typeof (window as unknown as { tether?: unknown }).tether)).toBe('object');
    expect(await window.evaluate(() => typeof (globalThis as unknown as { require?: unknown }).require)).toBe('undefined');
  } finally {
    await app.close();
  }
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
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

test.skip(
  !electronBinary,
  "Electron's binary is not installed on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD); the browser host covers the UI.",
);

let dataDir = '';
test.beforeAll(() => {
  // What `npm start` does first: better-sqlite3 for Electron's ABI, beside Node's build. Its one-line
  // failure (no network, no compiler) fails this spec with what to do.
  execFileSync(process.execPath, [path.join(root, 'scripts/prepareElectron.mjs')], { cwd: root, stdio: 'inherit' });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tether-electron-'));
});
test.afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test('the desktop app opens its window with the bridge and no Node in the page, on its own store', async () => {
  const app = await electron.launch({
    executablePath: electronBinary!,
    args: [path.join(root, 'out/main/index.js')],
    env: { ...process.env, TETHER_HOME: dataDir },
  });
  try {
    const window = await app.firstWindow();
    await expect(window).toHaveTitle(/Tether/);
    // The services (and so the store, on Electron's build of better-sqlite3) answered the window.
    await expect(window.getByTestId('app')).toBeVisible();
    expect(existsSync(path.join(dataDir, 'tether.db'))).toBe(true);
    expect(await window.evaluate(() => typeof (window as unknown as { tether?: unknown }).tether)).toBe('object');
    expect(await window.evaluate(() => typeof (globalThis as unknown as { require?: unknown }).require)).toBe('undefined');
  } finally {
    await app.close();
  }
});

test('the app binary runs the command line in Node mode, with the same native build', () => {
  // As resources/bin/tether does in an installed app.
  const help = execFileSync(electronBinary!, [path.join(root, 'out/main/cli.js'), '--help'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', TETHER_HOME: dataDir },
    encoding: 'utf8',
  });
  expect(help).toContain('tether run');
  const sessions = execFileSync(electronBinary!, [path.join(root, 'out/main/cli.js'), 'sessions'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', TETHER_HOME: dataDir },
    encoding: 'utf8',
  });
  expect(sessions).not.toContain('better-sqlite3 has no build');
});

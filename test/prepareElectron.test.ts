import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from './support/testData';

/**
 * `npm start`'s first step (scripts/prepareElectron.mjs), run the way a machine with no network
 * meets it: in a network namespace of its own, with no interface but loopback (user namespaces
 * work on these machines). It must fail in one line that says what to do, and leave the Node build
 * of better-sqlite3, which the CLI and the tests load, exactly as it was.
 */

const script = path.join(repoRoot, 'scripts/prepareElectron.mjs');
const nodeBuild = path.join(repoRoot, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const electronVersion = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;
const sqliteVersion = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string }
).version;
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-prepare-'));
  dirs.push(dir);
  return dir;
}

function withoutNetwork(env: Record<string, string>) {
  const result = spawnSync('unshare', ['--user', '--map-root-user', '--net', process.execPath, script], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  if (result.error) throw new Error(`unshare could not run (${result.error.message}); this test needs user namespaces`);
  if (/unshare failed/.test(result.stderr)) throw new Error(`no network namespace could be made: ${result.stderr.trim()}`);
  return result;
}

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe("npm start's preparation of the Electron build", () => {
  it('fails without network in one line naming the command, and leaves the Node build working', () => {
    const nativeDir = tempDir();
    const before = sha256(nodeBuild);
    const result = withoutNetwork({ TETHER_NATIVE_DIR: nativeDir });

    expect(result.status).toBe(1);
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^tether: cannot start the desktop app yet: no prebuilt better-sqlite3 [\d.]+ for Electron [\d.]+ could be downloaded \(.+\); and building it from source failed \(.+\)\./,
    );
    expect(lines[0]).toContain('run `npm run prepare:electron`');
    expect(lines[0]).toContain('The CLI, `tether serve` and the tests are unaffected.');
    expect(lines[0]).toContain(path.join(nativeDir, 'prepare-electron.log'));

    // Nothing half-made looks ready, and the Node build is byte for byte what it was, and loads.
    expect(fs.readdirSync(nativeDir)).toEqual(['prepare-electron.log']);
    expect(sha256(nodeBuild)).toBe(before);
    const opened = execFileSync(
      process.execPath,
      ['-e', "const D = require('better-sqlite3'); console.log(new D(':memory:').prepare('select 41 + 1 as n').get().n)"],
      {
        cwd: repoRoot,
        encoding: 'utf8',
      },
    );
    expect(opened.trim()).toBe('42');
  });

  it('returns at once, touching nothing, when the Electron build and binary are in place', () => {
    const nativeDir = tempDir();
    const build = path.join(nativeDir, `electron-${electronVersion}-${process.platform}-${process.arch}`);
    fs.mkdirSync(build, { recursive: true });
    fs.writeFileSync(path.join(build, 'better_sqlite3.node'), 'prepared earlier');
    fs.writeFileSync(path.join(build, 'stamp.json'), JSON.stringify({ betterSqlite3: sqliteVersion, electron: electronVersion }));
    const dist = tempDir();
    fs.writeFileSync(path.join(dist, 'electron'), '');

    const result = withoutNetwork({ TETHER_NATIVE_DIR: nativeDir, ELECTRON_OVERRIDE_DIST_PATH: dist });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
    expect(fs.readFileSync(path.join(build, 'better_sqlite3.node'), 'utf8')).toBe('prepared earlier');
  });

  it('prepares again when better-sqlite3 was upgraded since the build was made', () => {
    const nativeDir = tempDir();
    const build = path.join(nativeDir, `electron-${electronVersion}-${process.platform}-${process.arch}`);
    fs.mkdirSync(build, { recursive: true });
    fs.writeFileSync(path.join(build, 'better_sqlite3.node'), 'an older build');
    fs.writeFileSync(path.join(build, 'stamp.json'), JSON.stringify({ betterSqlite3: '11.0.0', electron: electronVersion }));

    const result = withoutNetwork({ TETHER_NATIVE_DIR: nativeDir });
    expect(result.stdout).toContain(`preparing better-sqlite3 for Electron ${electronVersion}`);
    expect(result.status).toBe(1);
    // The stale build is gone, so the app falls back to a clear message rather than loading it.
    expect(fs.existsSync(build)).toBe(false);
  });
});

describe('node-pty needs no Electron build', () => {
  it('is a Node-API module (one binary for every ABI); if that changes, prepareElectron.mjs must build it too', () => {
    const gyp = fs.readFileSync(path.join(repoRoot, 'node_modules/node-pty/binding.gyp'), 'utf8');
    expect(gyp).toContain("require('node-addon-api')");
    expect(gyp).not.toMatch(/NAPI_VERSION['"]?\s*[:=]\s*['"]?0/);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../storeError';
import { openDatabase } from './openDatabase';
import {
  chooseSqliteBinding,
  electronBuildDir,
  explainBindingFailure,
  nativeBindingOption,
  packageRoot,
  type Runtime,
} from './sqliteBinding';

const node: Runtime = { modules: '115', platform: 'linux', arch: 'x64' };
const electron: Runtime = { electron: '45.5.0', modules: '140', platform: 'linux', arch: 'x64' };
const root = '/opt/tether';
const electronBuild = '/opt/tether/native/electron-45.5.0-linux-x64/better_sqlite3.node';

// What Node's loader says when a module was built for another ABI (node/src/node_binding.cc).
const wrongAbi = new Error(
  "The module '/opt/tether/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
    'was compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\n' +
    'NODE_MODULE_VERSION 140. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).',
);

describe('choosing the better-sqlite3 build by runtime', () => {
  it('loads the default (Node) build under Node, even when an Electron build sits beside it', () => {
    expect(chooseSqliteBinding(node, root, () => true)).toEqual({ kind: 'default' });
  });

  it('loads the Electron build kept beside the Node build inside Electron', () => {
    const seen: string[] = [];
    const binding = chooseSqliteBinding(electron, root, (file) => (seen.push(file), true));
    expect(binding).toEqual({ kind: 'electron-build', file: electronBuild });
    expect(seen).toEqual([electronBuild]);
    expect(nativeBindingOption(binding)).toBe(electronBuild);
  });

  it('names the build folder by Electron version, platform and architecture', () => {
    expect(electronBuildDir(root, { electron: '46.0.1', platform: 'darwin', arch: 'arm64' })).toBe(
      '/opt/tether/native/electron-46.0.1-darwin-arm64',
    );
  });

  it('falls back to the default build inside Electron when none was prepared (a packaged app rebuilt it in place)', () => {
    const binding = chooseSqliteBinding(electron, root, () => false);
    expect(binding).toEqual({ kind: 'default' });
    expect(nativeBindingOption(binding)).toBeUndefined();
  });

  it('finds the package root that holds node_modules/better-sqlite3', () => {
    expect(fs.existsSync(path.join(packageRoot(), 'node_modules', 'better-sqlite3', 'package.json'))).toBe(true);
  });
});

describe('a missing build for this runtime', () => {
  it('inside Electron, names the command that prepares the Electron build and the ABIs', () => {
    const explained = explainBindingFailure(wrongAbi, electron);
    expect(explained).toBeInstanceOf(StoreError);
    const message = (explained as StoreError).message;
    expect(message).toContain('better-sqlite3 has no build for Electron 45.5.0 (ABI 140) (it was built for ABI 115).');
    expect(message).toContain('Run `npm run prepare:electron` in the Tether folder');
    expect(message).toContain('leaves as it is');
    expect((explained as StoreError).cause).toBe(wrongAbi);
  });

  it('under Node, names the rebuild of the Node build', () => {
    const message = (explainBindingFailure(wrongAbi, node) as Error).message;
    expect(message).toMatch(/^better-sqlite3 has no build for Node [\d.]+ \(ABI 115\)/);
    expect(message).toContain('`npm rebuild better-sqlite3`');
  });

  it('explains a binary for another platform too', () => {
    const elf = new Error('/opt/tether/native/x/better_sqlite3.node: invalid ELF header');
    expect((explainBindingFailure(elf, electron) as Error).message).toContain('npm run prepare:electron');
  });

  it('leaves every other error as it was', () => {
    const other = new Error('SQLITE_CANTOPEN: unable to open database file');
    expect(explainBindingFailure(other, electron)).toBe(other);
  });
});

describe('opening the store', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens with the build this runtime chose (the Node build here)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-binding-'));
    dirs.push(dir);
    const db = openDatabase(path.join(dir, 'tether.db'));
    try {
      expect(db.prepare<[], { one: number }>('select 1 as one').get()).toEqual({ one: 1 });
    } finally {
      db.close();
    }
  });
});

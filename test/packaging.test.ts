import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './support/testData';

/**
 * The packaged app, as far as it can be checked without Electron's binary: electron-builder's own
 * loader and schema accept electron-builder.yml and it names every target; the resources it points at
 * exist; and the `tether` launcher the app carries finds the app's binary and runs the CLI with it in
 * Node mode, from a fake install laid out as the real ones are (the "binary" here is Node itself).
 */

const require = createRequire(import.meta.url);
interface LoadedConfig {
  [key: string]: unknown;
  mac: {
    target: Array<{ target: string; arch: string[] }>;
    hardenedRuntime: boolean;
    entitlements: string;
    entitlementsInherit: string;
    notarize: boolean;
    icon: string;
  };
  linux: { target: string[]; executableName: string; icon: string };
  deb: { afterInstall: string; afterRemove: string };
  win: { target: string[]; icon: string };
  publish: Array<{ provider: string; owner: string; repo: string }>;
  extraResources: Array<{ from: string; to: string }>;
  asarUnpack: string[];
  npmRebuild: boolean;
  electronFuses: { runAsNode: boolean };
}
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<LoadedConfig>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

describe('electron-builder.yml', () => {
  let config: LoadedConfig;

  it('loads and passes electron-builder\u2019s own schema', async () => {
    config = await getConfig(repoRoot, null, null);
    await validateConfiguration(config, new DebugLogger(false));
  });

  it('is checked for real: a misspelt option fails the same validation', async () => {
    const misspelt = { ...config, mac: { ...config.mac, hardenedRuntim: true } };
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/Invalid configuration object[\s\S]*mac/);
  });

  it('names every target: dmg and zip for macOS (both architectures), AppImage and deb, an NSIS installer', () => {
    expect(config.mac.target.map((entry) => entry.target)).toEqual(['dmg', 'zip']);
    for (const entry of config.mac.target) expect(entry.arch).toEqual(['arm64', 'x64']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('signs macOS builds with the hardened runtime and the entitlements it needs, ready to notarise', () => {
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.notarize).toBe(true);
    for (const file of [config.mac.entitlements, config.mac.entitlementsInherit]) {
      const plist = fs.readFileSync(path.join(repoRoot, file), 'utf8');
      for (const key of ['com.apple.security.cs.allow-jit', 'com.apple.security.cs.allow-unsigned-executable-memory'])
        expect(plist).toContain(`<key>${key}</key>`);
      // The app runs the person's tools in its own sandbox; it must not opt into Apple's App Sandbox.
      expect(plist).not.toContain('com.apple.security.app-sandbox');
    }
  });

  it("points at an icon of the project's own, 1024 px square, for every platform", () => {
    for (const icon of [config.mac.icon, config.linux.icon, config.win.icon]) {
      const png = fs.readFileSync(path.join(repoRoot, icon));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
    }
    expect(fs.readFileSync(path.join(repoRoot, 'resources/icon.svg'), 'utf8')).toContain('Drawn for this project');
  });

  it('rebuilds native modules for the packaged Electron and keeps what the OS must load out of the archive', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining(['**/*.node', 'node_modules/node-pty/**', 'node_modules/@anthropic-ai/sandbox-runtime/**']),
    );
  });

  it('carries the CLI launchers, and keeps Node mode on for them', () => {
    expect(config.extraResources).toContainEqual({ from: 'resources/bin', to: 'bin' });
    expect(fs.statSync(path.join(repoRoot, 'resources/bin/tether')).mode & 0o111).not.toBe(0);
    expect(fs.readFileSync(path.join(repoRoot, 'resources/bin/tether.cmd'), 'utf8')).toContain('ELECTRON_RUN_AS_NODE=1');
    expect(config.electronFuses.runAsNode).toBe(true);
    // deb links /usr/bin/tether to the launcher, not to the window's binary.
    expect(config.linux.executableName).not.toBe('tether');
    const afterInstall = fs.readFileSync(path.join(repoRoot, config.deb.afterInstall), 'utf8');
    expect(afterInstall).toContain('ln -sf "$app/resources/bin/tether" /usr/bin/tether');
    for (const script of [config.deb.afterInstall, config.deb.afterRemove]) execFileSync('bash', ['-n', path.join(repoRoot, script)]);
  });

  it('names the release feed electron-updater reads', () => {
    expect(config.publish).toEqual([expect.objectContaining({ provider: 'github', owner: expect.any(String), repo: expect.any(String) })]);
  });
});

describe('the packaged `tether` command', () => {
  const installs: string[] = [];
  afterAll(() => {
    for (const dir of installs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** An install laid out as Linux's (/opt/Tether) or macOS's (Tether.app/Contents), with Node as the app's binary. */
  function fakeInstall(kind: 'linux' | 'mac'): { launcher: string; top: string } {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-install-'));
    installs.push(top);
    const contents = kind === 'mac' ? path.join(top, 'Tether.app', 'Contents') : path.join(top, 'Tether');
    const resources = path.join(contents, kind === 'mac' ? 'Resources' : 'resources');
    const binary = kind === 'mac' ? path.join(contents, 'MacOS', 'Tether') : path.join(contents, 'tether-app');
    fs.mkdirSync(path.dirname(binary), { recursive: true });
    // Refuses to run unless started in Node mode, as the real binary would open a window instead.
    fs.writeFileSync(
      binary,
      `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo "not in Node mode" >&2; exit 9; }\nexec "${process.execPath}" "$@"\n`,
      { mode: 0o755 },
    );
    fs.mkdirSync(path.join(resources, 'bin'), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'resources/bin/tether'), path.join(resources, 'bin', 'tether'));
    fs.chmodSync(path.join(resources, 'bin', 'tether'), 0o755);
    // The app's files, as in app.asar (a folder of that name stands in for the archive).
    fs.mkdirSync(path.join(resources, 'app.asar'));
    fs.symlinkSync(path.join(repoRoot, 'out'), path.join(resources, 'app.asar', 'out'));
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(resources, 'app.asar', 'node_modules'));
    fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(resources, 'app.asar', 'package.json'));
    return { launcher: path.join(resources, 'bin', 'tether'), top };
  }

  for (const kind of ['linux', 'mac'] as const) {
    it(`runs the CLI through the app's binary in Node mode (${kind} layout), also through a link on the PATH`, () => {
      if (!fs.existsSync(path.join(repoRoot, 'out/main/cli.js')))
        throw new Error('out/main/cli.js is missing: run `npm run build` first (npm test does).');
      const { launcher, top } = fakeInstall(kind);
      const onPath = path.join(top, 'usr-bin');
      fs.mkdirSync(onPath);
      fs.symlinkSync(launcher, path.join(onPath, 'tether'));
      for (const command of [launcher, path.join(onPath, 'tether')]) {
        const result = spawnSync(command, ['--help'], { encoding: 'utf8', env: { ...process.env, ELECTRON_RUN_AS_NODE: '' } });
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(/tether run/);
      }
    });
  }

  it('says so when the app is not beside it', () => {
    const lonely = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-lonely-'));
    installs.push(lonely);
    fs.mkdirSync(path.join(lonely, 'resources', 'bin'), { recursive: true });
    const launcher = path.join(lonely, 'resources', 'bin', 'tether');
    fs.copyFileSync(path.join(repoRoot, 'resources/bin/tether'), launcher);
    fs.chmodSync(launcher, 0o755);
    const result = spawnSync(launcher, ['--help'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^tether: the Tether app was not found beside this command \(looked for .*tether-app\)/);
  });
});

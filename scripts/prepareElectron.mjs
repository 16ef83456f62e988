#!/usr/bin/env node
// Prepares what the Electron window needs on top of what `npm ci` installed for Node:
//   1. better-sqlite3 built for Electron's ABI, kept beside the Node build in
//      native/electron-<version>-<platform>-<arch>/ (the store loads it when process.versions.electron
//      is set). A prebuilt binary is downloaded where better-sqlite3 publishes one; otherwise it is
//      built with node-gyp against Electron's headers. The work happens in a temporary copy of the
//      package, so the Node build the CLI and the tests use is never touched, whatever fails.
//   2. Electron's own binary (skipped by `npm ci` with ELECTRON_SKIP_BINARY_DOWNLOAD).
// node-pty needs nothing: it is a Node-API module, one binary for every runtime's ABI.
// `npm start` and `npm run dev` run this first; it returns at once when everything is in place.
// When it cannot (no network, no compiler) it says so in one line, with what to do, and exits 1.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'package.json'));
const COMMAND = 'npm run prepare:electron';

const electronVersion = process.env.TETHER_ELECTRON_VERSION ?? require('electron/package.json').version;
const platform = process.env.npm_config_platform ?? process.platform;
const arch = process.env.npm_config_arch ?? process.arch;
const nativeDir = process.env.TETHER_NATIVE_DIR ?? path.join(root, 'native');
const target = path.join(nativeDir, `electron-${electronVersion}-${platform}-${arch}`);
const sqlitePackage = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = JSON.parse(fs.readFileSync(path.join(sqlitePackage, 'package.json'), 'utf8')).version;
const logFile = path.join(nativeDir, 'prepare-electron.log');

function fail(reason) {
  process.stderr.write(
    `tether: cannot start the desktop app yet: ${reason}. Connect to the network (or install a C++ toolchain), then run \`${COMMAND}\`; ` +
      `details in ${shown(logFile)}. The CLI, \`tether serve\` and the tests are unaffected.\n`,
  );
  process.exit(1);
}

function shown(file) {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function log(text) {
  fs.mkdirSync(nativeDir, { recursive: true });
  fs.appendFileSync(logFile, text.endsWith('\n') ? text : `${text}\n`);
}

/** Runs a step, logging all it prints; returns the last line that says what went wrong. */
function run(label, command, args, options) {
  log(`\n== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  log(`${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}\n(exit ${result.status ?? result.signal})`);
  if (result.status === 0) return undefined;
  const lines = `${result.stderr ?? ''}\n${result.stdout ?? ''}`.split('\n').map((line) => line.trim());
  // The first stated error says why (node-gyp ends with a bare "not ok"); else the last warning.
  const stated = lines.find((line) => /\bError: /.test(line));
  const telling = lines.filter((line) => /error|ERR!|warn|fail|not found|ENOENT|EAI_AGAIN|ENETUNREACH|ECONNREFUSED/i.test(line));
  return (stated ?? telling.at(-1) ?? lines.filter(Boolean).at(-1) ?? result.error?.message ?? `exit ${result.status}`).replace(/\s+/g, ' ');
}

function sqliteReady() {
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(target, 'stamp.json'), 'utf8'));
    return stamp.betterSqlite3 === sqliteVersion && fs.existsSync(path.join(target, 'better_sqlite3.node'));
  } catch {
    return false;
  }
}

/** Node's nodedir would make node-gyp build against Node's headers instead of Electron's. */
function electronBuildEnv() {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(name)) delete env[name];
  return env;
}

function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  try {
    candidates.push(require.resolve('node-gyp/bin/node-gyp.js'));
  } catch {}
  return candidates.find((file) => file && fs.existsSync(file));
}

function prepareSqlite() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-electron-sqlite-'));
  try {
    const copy = path.join(work, 'better-sqlite3');
    fs.cpSync(sqlitePackage, copy, { recursive: true, filter: (source) => !source.startsWith(path.join(sqlitePackage, 'build')) });
    const built = path.join(copy, 'build', 'Release', 'better_sqlite3.node');
    const env = electronBuildEnv();
    const reasons = [];

    const prebuilt = run('prebuilt binary', process.execPath, [require.resolve('prebuild-install/bin.js'), '--runtime=electron', `--target=${electronVersion}`, `--arch=${arch}`, `--platform=${platform}`], {
      cwd: copy,
      env,
      timeout: 120_000,
    });
    if (prebuilt !== undefined || !fs.existsSync(built)) {
      reasons.push(`no prebuilt better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} could be downloaded (${prebuilt ?? 'none published'})`);
      const gyp = nodeGyp();
      const compiled = gyp
        ? run('build from source', process.execPath, [gyp, 'rebuild', '--release', `--target=${electronVersion}`, `--arch=${arch}`, '--dist-url=https://electronjs.org/headers'], {
            cwd: copy,
            env,
            timeout: 20 * 60_000,
          })
        : 'node-gyp was not found';
      if (compiled !== undefined || !fs.existsSync(built)) {
        reasons.push(`building it from source failed (${compiled ?? 'no binary came out'})`);
        return reasons.join('; and ');
      }
    }

    // Into place whole or not at all: a half-copied binary must never look ready.
    fs.mkdirSync(target, { recursive: true });
    const partial = path.join(target, `better_sqlite3.node.partial-${process.pid}`);
    fs.copyFileSync(built, partial);
    fs.renameSync(partial, path.join(target, 'better_sqlite3.node'));
    fs.writeFileSync(path.join(target, 'stamp.json'), `${JSON.stringify({ betterSqlite3: sqliteVersion, electron: electronVersion })}\n`);
    return undefined;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const ELECTRON_EXECUTABLE = { win32: 'electron.exe', darwin: 'Electron.app/Contents/MacOS/Electron' }[platform] ?? 'electron';

function electronBinaryReady() {
  // Electron's own override for a binary kept elsewhere (electron/index.js honours it too).
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) return fs.existsSync(path.join(override, ELECTRON_EXECUTABLE));
  const electronDir = path.dirname(require.resolve('electron/package.json'));
  try {
    const relative = fs.readFileSync(path.join(electronDir, 'path.txt'), 'utf8').trim();
    return fs.existsSync(path.join(electronDir, 'dist', relative));
  } catch {
    return false;
  }
}

function prepareElectronBinary() {
  const electronDir = path.dirname(require.resolve('electron/package.json'));
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const failed = run('Electron binary', process.execPath, [path.join(electronDir, 'install.js')], { cwd: electronDir, env, timeout: 10 * 60_000 });
  if (failed !== undefined || !electronBinaryReady()) return `Electron ${electronVersion}'s binary could not be downloaded (${failed ?? 'it is still missing'})`;
  return undefined;
}

if (!sqliteReady()) {
  fs.rmSync(logFile, { force: true });
  // A build for an older better-sqlite3 must not be loaded by a newer one if this attempt fails.
  fs.rmSync(target, { recursive: true, force: true });
  process.stdout.write(`tether: preparing better-sqlite3 for Electron ${electronVersion} (${platform}-${arch}), beside the Node build...\n`);
  const failed = prepareSqlite();
  if (failed) fail(failed);
}
if (!electronBinaryReady()) {
  process.stdout.write(`tether: downloading Electron ${electronVersion}'s binary...\n`);
  const failed = prepareElectronBinary();
  if (failed) fail(failed);
}

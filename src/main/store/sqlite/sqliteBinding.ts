import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { StoreError } from '../storeError';

/**
 * Which compiled better-sqlite3 this process loads. better-sqlite3 is built against one runtime's
 * ABI: `npm ci` builds it for Node (the CLI, `tether serve`, the tests), and Electron's main process
 * runs another ABI. So the Electron build lives beside Node's, never instead of it, in
 * `native/electron-<version>-<platform>-<arch>/` (made by `npm run prepare:electron`, which
 * `npm start` runs first). A packaged app has no such folder: electron-builder rebuilt the module in
 * place for the Electron it ships, so there the default binding is the right one.
 */

/** The runtime facts the choice depends on: `process.versions` and the platform. */
export interface Runtime {
  /** Electron's version when running inside Electron (its window or its Node mode), else undefined. */
  electron?: string | undefined;
  /** The ABI (NODE_MODULE_VERSION) of the running runtime. */
  modules: string;
  platform: string;
  arch: string;
}

export type SqliteBinding =
  /** better-sqlite3's own lookup (node_modules/better-sqlite3/build/Release). */
  | { kind: 'default' }
  /** The Electron build kept beside Node's. */
  | { kind: 'electron-build'; file: string };

export const PREPARE_COMMAND = 'npm run prepare:electron';

export function currentRuntime(): Runtime {
  return { electron: process.versions.electron, modules: process.versions.modules, platform: process.platform, arch: process.arch };
}

/** The folder, under the package root, that holds the Electron build for this runtime. */
export function electronBuildDir(packageRoot: string, runtime: Pick<Runtime, 'platform' | 'arch'> & { electron: string }): string {
  return path.join(packageRoot, 'native', `electron-${runtime.electron}-${runtime.platform}-${runtime.arch}`);
}

export function chooseSqliteBinding(
  runtime: Runtime,
  packageRoot: string,
  exists: (file: string) => boolean = fs.existsSync,
): SqliteBinding {
  if (runtime.electron === undefined) return { kind: 'default' };
  const file = path.join(electronBuildDir(packageRoot, { ...runtime, electron: runtime.electron }), 'better_sqlite3.node');
  return exists(file) ? { kind: 'electron-build', file } : { kind: 'default' };
}

/** The value for better-sqlite3's `nativeBinding` option (undefined: its own lookup). */
export function nativeBindingOption(binding: SqliteBinding): string | undefined {
  return binding.kind === 'electron-build' ? binding.file : undefined;
}

/** The root of the installed Tether package (where node_modules and native/ sit). */
export function packageRoot(): string {
  const manifest = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  return path.resolve(path.dirname(manifest), '..', '..');
}

/** The binding this process should load, decided once. */
let chosen: SqliteBinding | undefined;
export function sqliteBinding(): SqliteBinding {
  chosen ??= chooseSqliteBinding(currentRuntime(), packageRoot());
  return chosen;
}

const WRONG_ABI = /NODE_MODULE_VERSION (\d+)[\s\S]*?NODE_MODULE_VERSION (\d+)/;

/**
 * Turns the loader's "compiled against a different Node.js version" into what to do about it, naming
 * the command; any other error is returned as it was.
 */
export function explainBindingFailure(error: unknown, runtime: Runtime): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const abi = WRONG_ABI.exec(message);
  if (
    !abi &&
    !/was compiled against a different Node\.js version|invalid ELF header|not a valid Win32 application|incompatible architecture/i.test(
      message,
    )
  ) {
    return error;
  }
  const builtFor = abi ? ` (it was built for ABI ${abi[1]})` : '';
  const what =
    runtime.electron === undefined
      ? `Node ${process.versions.node} (ABI ${runtime.modules})`
      : `Electron ${runtime.electron} (ABI ${runtime.modules})`;
  const fix =
    runtime.electron === undefined
      ? 'Run `npm rebuild better-sqlite3` in the Tether folder (it rebuilds the Node build the CLI and the tests use).'
      : `Run \`${PREPARE_COMMAND}\` in the Tether folder; it builds better-sqlite3 for Electron beside the Node build, which it leaves as it is.`;
  return new StoreError('cannot_open', `better-sqlite3 has no build for ${what}${builtFor}. ${fix}`, { cause: error });
}

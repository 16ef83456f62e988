import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where a sandboxed command's toolchains keep what they cache: folders of Tether's, one set per
 * project, wired through each tool's own setting. The person's caches (~/.npm, ~/.cache/pip,
 * ~/.cargo/registry, ~/.m2, …) are read-only inside the fence, so without these `npm install` failed
 * on `~/.npm/_cacache`; and they stay the person's: no fenced command writes them, whatever the
 * person's own settings say (Tether's value replaces theirs for sandboxed commands).
 *
 * Per project, not shared: what a command writes into a cache, every later build that uses the cache
 * compiles or unpacks (cargo's unpacked sources, go's build cache, maven's jars, ccache's objects are
 * not checked again when used). A cache shared by every project would carry whatever one project's
 * session put there (a prompt-injected one, say) into the builds of all the others; one per project
 * carries it only into the project whose files that session could change anyway. The price is a
 * download per project. A worktree session uses its project's set.
 *
 * CARGO_HOME moves whole: it also holds `bin/` (what `cargo install` installs) and `config.toml`.
 * Installing into the person's ~/.cargo/bin, which is on their PATH, would be planting a program
 * outside the fence, so `cargo install` lands in the project's set instead; cargo still reads the
 * person's `~/.cargo/config.toml` through its walk up from the project (when the project is under
 * the home folder), though not `$CARGO_HOME/config.toml` for a project elsewhere. GRADLE_USER_HOME
 * and GOPATH move whole for the same reason (their `init.d`, `bin`).
 */

export interface ToolchainCache {
  /** The tool, as the person knows it. */
  tool: string;
  /** The folder's name in the project's set. */
  folder: string;
  /** The variables that point the tool at it (a value of `{}` is the folder's path). */
  variables: Readonly<Record<string, string>>;
  /** Where the tool documents the setting. */
  source: string;
}

const FOLDER = '{}';

export const TOOLCHAIN_CACHES: readonly ToolchainCache[] = [
  { tool: 'npm', folder: 'npm', variables: { npm_config_cache: FOLDER }, source: 'https://docs.npmjs.com/cli/v11/using-npm/config#cache' },
  {
    tool: 'yarn',
    folder: 'yarn',
    variables: { YARN_CACHE_FOLDER: path.join(FOLDER, 'cache'), YARN_GLOBAL_FOLDER: path.join(FOLDER, 'global') },
    source: 'https://yarnpkg.com/configuration/yarnrc#cacheFolder (and classic: https://classic.yarnpkg.com/en/docs/cli/cache)',
  },
  {
    tool: 'pnpm',
    folder: 'pnpm-store',
    variables: { pnpm_config_store_dir: FOLDER },
    source: 'https://pnpm.io/settings#storedir (pnpm reads pnpm_config_* from the environment)',
  },
  { tool: 'bun', folder: 'bun', variables: { BUN_INSTALL_CACHE_DIR: FOLDER }, source: 'https://bun.sh/docs/install/cache' },
  { tool: 'pip', folder: 'pip', variables: { PIP_CACHE_DIR: FOLDER }, source: 'https://pip.pypa.io/en/stable/topics/caching/' },
  {
    tool: 'uv',
    folder: 'uv',
    variables: { UV_CACHE_DIR: FOLDER },
    source: 'https://docs.astral.sh/uv/reference/environment/#uv_cache_dir',
  },
  {
    tool: 'Poetry',
    folder: 'poetry',
    variables: { POETRY_CACHE_DIR: FOLDER },
    source: 'https://python-poetry.org/docs/configuration/#cache-dir',
  },
  {
    tool: 'Pipenv',
    folder: 'pipenv',
    variables: { PIPENV_CACHE_DIR: FOLDER },
    source: 'https://pipenv.pypa.io/en/latest/configuration.html',
  },
  {
    tool: 'Go',
    folder: 'go',
    variables: { GOPATH: FOLDER, GOMODCACHE: path.join(FOLDER, 'pkg', 'mod'), GOCACHE: path.join(FOLDER, 'build') },
    source: 'https://go.dev/ref/mod#environment-variables and `go help environment`',
  },
  { tool: 'cargo', folder: 'cargo', variables: { CARGO_HOME: FOLDER }, source: 'https://doc.rust-lang.org/cargo/guide/cargo-home.html' },
  {
    tool: 'Gradle',
    folder: 'gradle',
    variables: { GRADLE_USER_HOME: FOLDER },
    source: 'https://docs.gradle.org/current/userguide/directory_layout.html#dir:gradle_user_home',
  },
  { tool: 'ccache', folder: 'ccache', variables: { CCACHE_DIR: FOLDER }, source: 'https://ccache.dev/manual/latest.html#config_cache_dir' },
  {
    tool: 'pre-commit',
    folder: 'pre-commit',
    variables: { PRE_COMMIT_HOME: FOLDER },
    source: 'https://pre-commit.com/#managing-ci-caches',
  },
  {
    tool: 'Deno',
    folder: 'deno',
    variables: { DENO_DIR: FOLDER },
    source: 'https://docs.deno.com/runtime/fundamentals/modules/#deno_dir',
  },
  {
    // node-gyp's headers too: its only own setting (npm_config_devdir) makes npm 10 and later warn on every run.
    tool: 'everything that follows the XDG base directories (linters, test runners, node-gyp, pnpm’s metadata)',
    folder: 'xdg-cache',
    variables: { XDG_CACHE_HOME: FOLDER },
    source: 'https://specifications.freedesktop.org/basedir-spec/latest/',
  },
];

/**
 * Maven has no variable of its own for its local repository: the system property maven.repo.local,
 * given in MAVEN_OPTS (read by every Maven version's launcher; MAVEN_ARGS only from 3.9), after
 * whatever the person put there, so it is the last word.
 * https://maven.apache.org/configure.html, https://maven.apache.org/settings.html (localRepository)
 */
const MAVEN = { tool: 'Maven', folder: 'm2', source: 'https://maven.apache.org/configure.html' } as const;

/**
 * Programs some tools install into the XDG cache (browsers for Playwright, Cypress and Puppeteer):
 * with XDG_CACHE_HOME moved they would look for them in the project's empty set, so they are pointed
 * back at the person's, read-only, where the person has them and has not set the variable themselves.
 */
const INSTALLED_IN_CACHE: ReadonlyArray<{ variable: string; folder: string }> = [
  { variable: 'PLAYWRIGHT_BROWSERS_PATH', folder: 'ms-playwright' },
  { variable: 'CYPRESS_CACHE_FOLDER', folder: 'Cypress' },
  { variable: 'PUPPETEER_CACHE_DIR', folder: 'puppeteer' },
];

/** The folder of a project's caches in Tether's data folder. */
export function projectCachesDir(dataDir: string, projectPath: string): string {
  const name = path.basename(projectPath).replace(/[^A-Za-z0-9._-]/g, '_') || 'project';
  const key = createHash('sha256').update(projectPath).digest('hex').slice(0, 12);
  return path.join(dataDir, 'sandbox', 'caches', `${name}-${key}`);
}

/** Each tool's folder in a project's set, by tool. */
export function cacheFolders(root: string): Array<{ tool: string; folder: string }> {
  return [...TOOLCHAIN_CACHES, MAVEN].map(({ tool, folder }) => ({ tool, folder: path.join(root, folder) }));
}

/**
 * The variables a sandboxed command gets so its toolchains cache in `root`. `env` is the command's
 * environment otherwise (the person's MAVEN_OPTS is kept in front of Tether's property).
 */
export function cacheEnvironment(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  home = os.homedir(),
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const cache of TOOLCHAIN_CACHES) {
    for (const [name, value] of Object.entries(cache.variables)) out[name] = value.replace(FOLDER, path.join(root, cache.folder));
  }
  const repository = `-Dmaven.repo.local=${path.join(root, MAVEN.folder, 'repository')}`;
  out.MAVEN_OPTS = env.MAVEN_OPTS ? `${env.MAVEN_OPTS} ${repository}` : repository;
  const personsCache = env.XDG_CACHE_HOME || path.join(home, '.cache');
  for (const { variable, folder } of INSTALLED_IN_CACHE) {
    if (env[variable]) continue;
    const installed = path.join(personsCache, folder);
    if (fs.existsSync(installed)) out[variable] = installed;
  }
  return out;
}

/**
 * Makes each tool's folder that is missing (the first command of a project, or one deleted since):
 * a command never finds a cache folder gone. Returns the folders as they were found, for the check
 * after the command.
 */
export function ensureCacheFolders(root: string): string[] {
  const folders = cacheFolders(root).map(({ folder }) => folder);
  // One stat for a folder that is there (every command but the first), not mkdir's failed try and then a stat.
  for (const folder of folders) if (!isDirectory(folder)) fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folders;
}

/**
 * What went wrong with the caches while a command ran, for the person and the model: a folder that
 * was deleted meanwhile (it is made again before the next command), or a disk that filled up (the
 * error names the folder the tool was writing, when its output says it).
 */
export function cacheTrouble(root: string, output: string): string[] {
  const notes: string[] = [];
  for (const { tool, folder } of cacheFolders(root)) {
    if (!isDirectory(folder)) {
      notes.push(
        `Tether's ${tool} cache folder ${folder} was deleted while the command ran; whatever failed on it will work again, since the folder is made again before the next command.`,
      );
    }
  }
  if (NO_SPACE.test(output)) {
    const named = cacheFolders(root).find(({ folder }) => output.includes(folder));
    const free = freeBytes(root);
    // A full disk elsewhere (the workspace's) is the command's own business; the caches' is Tether's to name.
    if (named || (free !== undefined && free < LOW_SPACE_BYTES)) {
      const where = named
        ? `Tether's ${named.tool} cache folder ${named.folder}`
        : `the disk that holds Tether's caches for this project (${root})`;
      notes.push(
        `The command ran out of disk space writing to ${where}${free === undefined ? '' : ` (${readableSize(free)} free now)`}. Free some space on that disk, or delete ${root} (Tether makes the folders again, empty, before the next command), then run the command again.`,
      );
    }
  }
  return notes;
}

const NO_SPACE = /\bENOSPC\b|No space left on device|\[Errno 28\]|Disk quota exceeded|\bEDQUOT\b/i;
const LOW_SPACE_BYTES = 64 * 1024 ** 2;

function freeBytes(folder: string): number | undefined {
  try {
    const stats = fs.statfsSync(folder);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

function readableSize(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
}

function isDirectory(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

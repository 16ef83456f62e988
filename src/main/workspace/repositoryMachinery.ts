import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitEnv, runGit } from './git';
import { isInclude, parseConfigList, runsProgram, showSetting, type ConfigEntry } from './gitPrograms';
import { gitStatePrograms, gitStateWatched } from './gitState';
import { removeOrphanedFolders } from './orphanedFolders';

/**
 * What a repository inside the workspace can make git run, read from its files without running git
 * in it: its config files (parsed by `git config --file`, which reads that one file and nothing it
 * includes), its hooks folder, and the repositories its index links (read through an empty git
 * folder of Tether's, with GIT_INDEX_FILE). Also which files to watch to know when to look again.
 */

/** Where a repository's machinery is: its `.git` entry, the git folder it leads to, and the common folder. */
export interface RepositoryLayout {
  /** The worktree's `.git`: a folder, a file naming the git folder (`gitdir: …`), or a link. */
  dotGit: string;
  /** The git folder, real path; null when `.git` leads nowhere git would accept. */
  gitDir: string | null;
  /** Where config and hooks are read: the folder `commondir` names, else the git folder. */
  commonDir: string | null;
}

/** Something the repository can make git run, and how to take it away. */
export interface Program {
  /** Identity: the same setting with the same value in the same file (or the same hook bytes) is the same program. */
  id: string;
  /** For the person and the model: `core.fsmonitor = touch /tmp/m (in sub/.git/config)`. */
  shown: string;
  fix: Fix;
}

/** Unset one setting in a config file, or move a file (a hook, a hooks link, unreadable config) aside. */
export type Fix =
  | { kind: 'unset'; file: string; entry: ConfigEntry }
  | { kind: 'move'; file: string }
  /** An operation in progress (gitState.ts): its todo rewritten without exec lines, or a state file moved aside. */
  | { kind: 'todo' | 'state'; file: string };

export interface Examination {
  layout: RepositoryLayout;
  programs: Program[];
  /** Files whose change means something above may have changed. */
  watched: string[];
  /** Paths, relative to the worktree, that its index records as gitlinks (other repositories). */
  gitlinks: string[];
}

/**
 * Looks at the repository whose worktree is `worktree` (its `.git` is `worktree/.git`), or, for a bare
 * one, at the git folder `worktree` itself (git enters it when the person stands in it). The person's
 * own repository (`person`) is theirs to configure and is never changed: only the repositories its
 * index links are listed (with its own git when the probe cannot read the index), and only what
 * changes them is watched.
 */
export async function examineRepository(
  worktree: string,
  show: (absolute: string) => string,
  options: { person?: boolean; bare?: boolean } = {},
): Promise<Examination> {
  const dotGit = options.bare ? worktree : path.join(worktree, '.git');
  const layout = repositoryLayout(dotGit);
  const watched = [dotGit];
  const programs: Program[] = [];
  const gitlinks: string[] = [];
  const { gitDir, commonDir } = layout;
  if (!gitDir || !commonDir) {
    // A `.git` file naming a folder that is not there (yet): watch where it points.
    const named = gitfileTarget(dotGit);
    if (named) watched.push(named);
    // Outside the workspace, nothing here will tell when it appears: whoever makes it there (in the
    // real /tmp, any user; a command wrote this naming its sandbox's private /tmp) decides what the
    // person's git runs in this repository.
    if (named && !options.person && path.isAbsolute(show(named))) {
      programs.push({
        id: `dangling:${dotGit}:${named}`,
        shown: `a .git file naming a git folder that is not there, outside the workspace (${named}): whoever makes that folder decides what git runs here`,
        fix: { kind: 'move', file: dotGit },
      });
    }
    return { layout, programs, watched, gitlinks };
  }
  watched.push(gitDir, path.join(gitDir, 'commondir'), path.join(gitDir, 'index'), ...gitStateWatched(gitDir));
  // An operation in progress is looked at in every repository, the person's own too: a command may have left it.
  for (const state of gitStatePrograms(gitDir, show))
    programs.push({ id: state.id, shown: state.shown, fix: { kind: state.fix, file: state.file } });
  if (options.person) {
    gitlinks.push(...(await listGitlinks(path.join(gitDir, 'index'), 'sha1', worktree)));
    return { layout, programs, watched, gitlinks };
  }
  // git reads the common folder's config, and config.worktree; a config in a linked worktree's own
  // folder is not read today, but would be if its commondir went: all are looked at.
  const configFiles = unique([
    path.join(commonDir, 'config'),
    path.join(gitDir, 'config'),
    path.join(gitDir, 'config.worktree'),
    path.join(commonDir, 'config.worktree'),
  ]);
  let objectFormat = 'sha1';
  for (const file of configFiles) {
    watched.push(file);
    if (!fs.existsSync(file)) continue;
    const read = isRegularFile(file) ? await readConfig(file) : null;
    if (read === null) {
      programs.push({
        id: `unreadable:${file}:${hashFile(file)}`,
        shown: `a config git cannot read (${show(file)})`,
        fix: { kind: 'move', file },
      });
      continue;
    }
    for (const entry of read) {
      if (entry.key.toLowerCase() === 'extensions.objectformat' && entry.value) objectFormat = entry.value.trim().toLowerCase();
      if (!runsProgram(entry)) continue;
      let extra = '';
      if (isInclude(entry.key) && entry.value) {
        const target = resolveConfigPath(entry.value, path.dirname(file));
        watched.push(target);
        extra = `:${hashFile(target)}`;
      } else if (entry.key.toLowerCase() === 'core.hookspath' && entry.value) {
        // Relative to where hooks run: the worktree, or a bare repository's own folder.
        const target = resolveConfigPath(entry.value, options.bare ? dotGit : path.dirname(dotGit));
        watched.push(target, ...hookEntries(target));
        extra = `:${hookEntries(target)
          .map((hook) => `${path.basename(hook)}=${hashFile(hook)}`)
          .join(',')}`;
      }
      programs.push({
        id: `setting:${file}:${entry.key}=${entry.value ?? ''}${extra}`,
        shown: `${showSetting(entry)} (in ${show(file)})`,
        fix: { kind: 'unset', file, entry },
      });
    }
  }
  const hooks = path.join(commonDir, 'hooks');
  watched.push(hooks);
  let hooksStat: fs.Stats | undefined;
  try {
    hooksStat = fs.lstatSync(hooks);
  } catch {
    hooksStat = undefined;
  }
  if (hooksStat?.isSymbolicLink()) {
    programs.push({
      id: `hooks-link:${hooks}:${safeReadlink(hooks)}`,
      shown: `a hooks folder that is a link to ${safeReadlink(hooks)} (${show(hooks)})`,
      fix: { kind: 'move', file: hooks },
    });
  } else if (hooksStat?.isDirectory()) {
    for (const hook of hookEntries(hooks)) {
      watched.push(hook);
      if (!canRun(hook)) continue;
      programs.push({
        id: `hook:${hook}:${hashFile(hook)}`,
        shown: `the hook ${path.basename(hook)} (${show(hook)})`,
        fix: { kind: 'move', file: hook },
      });
    }
  }
  gitlinks.push(...(await listGitlinks(path.join(gitDir, 'index'), objectFormat)));
  return { layout, programs, watched: unique(watched), gitlinks };
}

/**
 * Whether a folder's entries make it a git folder as git's discovery tests one (a HEAD, and an
 * objects and a refs folder, or a `commondir` naming the folder that holds them, as a linked
 * worktree's git folder does): standing in it, the person's git uses it as a bare repository.
 */
export function looksLikeGitFolder(entries: readonly fs.Dirent[]): boolean {
  // git asks only that `objects` and `refs` can be entered (access X_OK), which an executable file
  // passes too: any kind of entry counts.
  const has = (name: string) => entries.some((entry) => entry.name === name);
  const hasFile = (name: string) => entries.some((entry) => entry.name === name && !entry.isDirectory());
  return hasFile('HEAD') && ((has('objects') && has('refs')) || hasFile('commondir'));
}

/** A `.git` as git reads it: a folder is the git folder; a file says `gitdir: <path>`; a link is followed. */
export function repositoryLayout(dotGit: string): RepositoryLayout {
  let gitDir: string | null = null;
  try {
    const stat = fs.statSync(dotGit);
    if (stat.isDirectory()) gitDir = fs.realpathSync.native(dotGit);
    else if (stat.isFile()) {
      const named = gitfileTarget(dotGit);
      if (named && fs.statSync(named).isDirectory()) gitDir = fs.realpathSync.native(named);
    }
  } catch {
    gitDir = null;
  }
  if (!gitDir) return { dotGit, gitDir: null, commonDir: null };
  let commonDir = gitDir;
  try {
    const named = fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    if (named) commonDir = fs.realpathSync.native(path.resolve(gitDir, named));
  } catch {
    commonDir = gitDir;
  }
  return { dotGit, gitDir, commonDir };
}

/** Where a `.git` file points (`gitdir: …`, relative to the file's folder), or null. */
function gitfileTarget(dotGit: string): string | null {
  try {
    if (!fs.statSync(dotGit).isFile()) return null;
    const text = readStart(dotGit, 4096);
    const named = /^gitdir: (.+?)\s*$/m.exec(text.split('\n')[0] ?? '')?.[1];
    return named ? path.resolve(path.dirname(fs.realpathSync.native(dotGit)), named) : null;
  } catch {
    return null;
  }
}

function readStart(file: string, bytes: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = fs.readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** A path in a config value: `~/` is the home folder, a relative one counts from `base`. */
function resolveConfigPath(value: string, base: string): string {
  const trimmed = value.trim();
  if (trimmed === '~' || trimmed.startsWith('~/')) return path.join(os.homedir(), trimmed.slice(1));
  return path.resolve(base, trimmed);
}

/** The entries of a hooks folder git could run: not the `.sample` files, not what Tether already moved aside. */
function hookEntries(folder: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => !name.endsWith('.sample') && !name.includes(QUARANTINE_MARK))
    .sort()
    .map((name) => path.join(folder, name));
}

/** What git would run as a hook: an executable file, or a link (to whatever it leads to). */
function canRun(file: string): boolean {
  try {
    const stat = fs.lstatSync(file);
    return stat.isSymbolicLink() || (stat.isFile() && (stat.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

function safeReadlink(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '?';
  }
}

/** The bytes' hash, so a rewritten hook or included file is a new program; 'missing' when it cannot be read. */
function hashFile(file: string): string {
  try {
    // Only a regular file is read: a planted FIFO would hold the read (and Tether) forever.
    const stat = fs.statSync(file);
    if (!stat.isFile()) return `not-a-file:${stat.mode}`;
    if (stat.size > MAX_READ_BYTES) return `large:${stat.size}:${stat.mtimeMs}`;
    return createHash('sha1').update(fs.readFileSync(file)).digest('hex').slice(0, 16);
  } catch {
    return 'missing';
  }
}

/** Files larger than this are not read to tell whether they changed (size and time say it instead). */
const MAX_READ_BYTES = 16 * 1024 * 1024;

/** A regular file (through links): the only kind git's config reader and Tether may open without blocking. */
export function isRegularFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/** The mark in the names of what Tether moved aside: `config.tether-quarantined-20261202T065615Z`. */
export const QUARANTINE_MARK = '.tether-quarantined-';

/**
 * The entries of one config file, or null when git cannot read it. `--file` reads that file alone,
 * without the files it includes, and from a folder of Tether's with no system or global config.
 */
export async function readConfig(file: string): Promise<ConfigEntry[] | null> {
  const { dir } = await probe('sha1');
  const run = await runGit(['config', '--file', file, '--null', '--list'], { cwd: dir, env: probeEnv(dir), okExitCodes: [1, 3, 128] });
  return run.exitCode === 0 ? parseConfigList(run.stdout) : null;
}

/**
 * Paths the index file records as gitlinks (mode 160000), read through Tether's empty git folder.
 * The person's own repository (`inRepository`) may keep part of its index elsewhere in its git
 * folder (core.splitIndex): when the probe cannot read it, its own git lists it, with Tether's guard.
 */
async function listGitlinks(indexFile: string, objectFormat: string, inRepository?: string): Promise<string[]> {
  if (!isRegularFile(indexFile)) return [];
  const { dir } = await probe(objectFormat === 'sha256' ? 'sha256' : 'sha1');
  const run = await runGit(['ls-files', '--stage', '-z'], {
    cwd: dir,
    env: { ...probeEnv(dir), GIT_INDEX_FILE: indexFile },
    okExitCodes: [128],
  });
  if (run.exitCode === 0) return parseGitlinks(run.stdout);
  if (!inRepository) return [];
  const own = await runGit(['ls-files', '--stage', '-z'], {
    cwd: inRepository,
    env: { ...gitEnv(), GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
    okExitCodes: [128],
  });
  return own.exitCode === 0 ? parseGitlinks(own.stdout) : [];
}

/** `ls-files --stage -z` records: `<mode> <object> <stage>\t<path>`; the gitlinks' paths. */
export function parseGitlinks(output: Buffer): string[] {
  const found: string[] = [];
  for (const record of output.toString('utf8').split('\0')) {
    if (!record.startsWith('160000 ')) continue;
    const tab = record.indexOf('\t');
    if (tab !== -1) found.push(record.slice(tab + 1));
  }
  return found;
}

/**
 * An empty bare repository of Tether's (one per object format, per process), to run git against when
 * it must not read any repository of the workspace: config files by name, index files by
 * GIT_INDEX_FILE, the workspace's .gitignore files by GIT_WORK_TREE.
 */
const probes = new Map<string, Promise<{ dir: string }>>();
const probeDirs: string[] = [];

/** The probes go with the process, as the sandbox's TMPDIR does: nothing is left in /tmp. */
function removeProbes(): void {
  for (const dir of probeDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Probes of processes that ended without their exit handler (killed, a test worker) are removed by the next one. */
function removeOrphanedProbes(): void {
  removeOrphanedFolders(os.tmpdir(), /^tether-git-probe-[a-z0-9]+-(\d+)-/);
}

export function probe(format: 'sha1' | 'sha256' | string): Promise<{ dir: string }> {
  let made = probes.get(format);
  if (!made) {
    made = (async () => {
      if (probeDirs.length === 0) removeOrphanedProbes();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tether-git-probe-${format}-${process.pid}-`));
      if (probeDirs.push(dir) === 1) process.once('exit', removeProbes);
      await runGit(['init', '--quiet', '--bare', '--template=', `--object-format=${format}`, dir], { cwd: dir, env: probeEnv(dir) });
      return { dir: fs.realpathSync.native(dir) };
    })();
    probes.set(format, made);
    made.catch(() => probes.delete(format));
  }
  return made;
}

/** git's environment for the probe: no system or global config, none of the person's GIT_* variables. */
export function probeEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...gitEnv(),
    GIT_DIR: dir,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_LITERAL_PATHSPECS: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    LANGUAGE: 'C',
  };
}

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AUTORUN_FILES, lifecycleScriptChange, type AutorunFile } from './autorunFiles';
import { configuredHooksFolder } from './configuredHooks';

/**
 * What a command did to the files the person's tools run by themselves (autorunFiles.ts). A write
 * through the file tools asks before it happens; a shell command is not seen before it runs
 * (`echo … > .husky/pre-commit`, `cp x .vscode/tasks.json`, `npm pkg set scripts.postinstall=…`, a
 * `git checkout` of a branch that holds one, a script that writes `.envrc`). So each one is looked at
 * before and after the command, and one it created or changed is quarantined: the new content moved
 * to Tether's data folder with a note, the previous content put back when there was one.
 *
 * Cheap by construction: only the table's own places at the workspace's root are looked at (each
 * pattern expanded to its names, a folder's few files listed), plus package.json, whose change counts
 * only when it adds or changes a lifecycle script. The tree is never walked, so a `.vscode` in a
 * subfolder is not seen here (a write there through the file tools still asks). Contents are read
 * only when a file's stat changed: between commands that leave them alone, it is stats alone.
 */

/** One file (or link) at a watched place, as its stat says, with its content when it was read. */
interface Seen {
  /** Identity and change: device, inode, size, modification and change times, mode. */
  key: string;
  /** The content, kept for putting it back; undefined when larger than KEEP_BYTES. */
  content?: Buffer;
  /** A link's target, kept instead of content. */
  link?: string;
  mode: number;
}

export interface AutorunChange {
  /** Relative to the workspace, with forward slashes. */
  path: string;
  created: boolean;
  /** What runs it, and when ("… outside any sandbox"). */
  runs: string;
  /** Where the new content now is; undefined when it was left in place. */
  movedTo?: string;
  /** The previous content was written back. */
  restored: boolean;
  /** What went wrong while quarantining: the file may still be there. */
  problem?: string;
}

/** A file this large is not kept in memory: when changed it is moved aside and not put back. */
const KEEP_BYTES = 1024 * 1024;
/**
 * A watched folder holds a handful of files. One with more than this is not looked into: it counts as
 * one entry, so a command that fills `.vscode/` with names sorted before `tasks.json` to hide it has
 * changed that entry, and the folder is quarantined whole.
 */
const MAX_FILES_PER_FOLDER = 2000;
const MAX_DEPTH = 4;

type Location = { name: string; entry: AutorunFile };

/** Each table pattern as the names it stands for at the workspace's root, with its entry. */
const LOCATIONS: readonly Location[] = AUTORUN_FILES.flatMap((entry) =>
  expandBraces(entry.pattern.replace(/^\//, '')).map((name) => ({ name, entry })),
);
const PACKAGE_JSON = 'package.json';
const NAMES: readonly string[] = [...new Set([...LOCATIONS.map((location) => location.name), PACKAGE_JSON])];

/**
 * The table's places at the workspace's root, absolute: what a project's MCP server, which runs for
 * as long as the session and is never "after a command", may not write at all.
 */
export function autorunPlaces(workspace: string): string[] {
  return NAMES.filter((name) => name !== PACKAGE_JSON).map((name) => path.join(workspace, name));
}

/**
 * The table's places, and the hooks folder the person's git config names inside the workspace
 * (configuredHooks.ts), first: a hooks folder inside a table place (`.husky/_`) is that place's.
 */
function withConfiguredHooks(workspace: string): readonly Location[] {
  const hooks = configuredHooksFolder(workspace);
  if (!hooks) return LOCATIONS;
  const name = path.relative(workspace, hooks).split(path.sep).join('/');
  if (LOCATIONS.some((location) => name === location.name || name.startsWith(`${location.name}/`))) return LOCATIONS;
  return [{ name, entry: CONFIGURED_HOOKS }, ...LOCATIONS];
}

const CONFIGURED_HOOKS: AutorunFile = {
  pattern: 'core.hooksPath',
  runs: 'git runs these hooks on your next commit, checkout or push (your core.hooksPath points here)',
  source: 'https://git-scm.com/docs/githooks',
};

/** The contents seen last, per workspace and file: what makes the next look stats only. */
const remembered = new Map<string, Map<string, Seen>>();

export interface AutorunWatch {
  /** Before the command. */
  begin(): void;
  /**
   * After it: what it created or changed. With `quarantine`, each is moved aside and the previous
   * content put back; without, they are only reported (the person allowed the command to run with
   * their full access, knowingly).
   */
  check(options: { quarantine: string; command: string } | { quarantine?: undefined }): AutorunChange[];
}

export function autorunWatch(workspace: string): AutorunWatch {
  const known = remembered.get(workspace) ?? new Map<string, Seen>();
  remembered.set(workspace, known);
  let before: Map<string, Seen> | undefined;
  let locations = LOCATIONS;
  return {
    begin() {
      locations = withConfiguredHooks(workspace);
      before = look(workspace, known, locations);
    },
    check(options) {
      if (!before) return [];
      const previous = before;
      before = undefined;
      const after = look(workspace, known, locations);
      const changes: AutorunChange[] = [];
      for (const [relative, now] of after) {
        const was = previous.get(relative);
        if (was?.key === now.key) continue;
        const runs = whatRuns(relative, was, now, workspace, locations);
        if (runs === undefined) continue;
        const change: AutorunChange = { path: relative, created: was === undefined, runs, restored: false };
        if (options.quarantine !== undefined) quarantineOne(workspace, change, was, options.quarantine, options.command, known);
        changes.push(change);
      }
      return changes;
    },
  };
}

/** The names at the project's root where the files the person's tools run by themselves live: the table's and the hooks folder. */
export function autorunRootNames(workspace: string): string[] {
  return withConfiguredHooks(workspace).map((location) => location.name);
}

/**
 * What would run a file at `relative` (forward slashes) in the project: one of the table's places at
 * its root or the person's hooks folder; undefined for any other path (package.json is judged by its
 * scripts, with lifecycleScriptChange).
 */
export function autorunPlaceOf(workspace: string, relative: string): string | undefined {
  const top = relative.split('/')[0]!;
  return withConfiguredHooks(workspace).find(({ name }) => name === relative || relative.startsWith(`${name}/`) || name === top)?.entry
    .runs;
}

/** What would run this file, or undefined when the change runs nothing new (an ordinary package.json edit). */
function whatRuns(
  relative: string,
  was: Seen | undefined,
  now: Seen,
  workspace: string,
  locations: readonly Location[],
): string | undefined {
  if (relative === PACKAGE_JSON) {
    const text = now.content?.toString('utf8') ?? safeRead(path.join(workspace, relative));
    if (text === undefined) return undefined;
    const scripts = lifecycleScriptChange(was?.content?.toString('utf8') ?? null, text);
    if (scripts.length === 0) return undefined;
    return `npm (and pnpm, Yarn) run its lifecycle scripts ${scripts.join(', ')} on your next install`;
  }
  const top = relative.split('/')[0]!;
  const location = locations.find(({ name }) => name === relative || relative.startsWith(`${name}/`) || name === top);
  return location?.entry.runs;
}

/** Every file and link at the watched places, keyed by its path relative to the workspace. */
function look(workspace: string, known: Map<string, Seen>, locations: readonly Location[]): Map<string, Seen> {
  const found = new Map<string, Seen>();
  // One listing of the root instead of a failed stat for each of the table's fifty-odd names.
  let present: Set<string>;
  try {
    present = new Set(fs.readdirSync(workspace));
  } catch {
    return found;
  }
  const names = locations === LOCATIONS ? NAMES : [...new Set([...NAMES, ...locations.map((location) => location.name)])];
  for (const name of names) if (present.has(name.split('/')[0]!)) visit(workspace, name, 0, found, known);
  return found;
}

function visit(workspace: string, relative: string, depth: number, found: Map<string, Seen>, known: Map<string, Seen>): void {
  const absolute = path.join(workspace, relative);
  let stat: fs.BigIntStats;
  try {
    stat = fs.lstatSync(absolute, { bigint: true });
  } catch {
    known.delete(relative);
    return;
  }
  if (stat.isDirectory()) {
    if (depth >= MAX_DEPTH) return;
    let names: string[];
    try {
      names = fs.readdirSync(absolute).sort();
    } catch {
      return;
    }
    if (names.length > MAX_FILES_PER_FOLDER) {
      found.set(relative, { key: `more than ${MAX_FILES_PER_FOLDER} files`, mode: Number(stat.mode) & 0o7777 });
      return;
    }
    for (const name of names) visit(workspace, `${relative}/${name}`, depth + 1, found, known);
    return;
  }
  const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.mode}`;
  const cached = known.get(relative);
  if (cached?.key === key) {
    found.set(relative, cached);
    return;
  }
  const seen: Seen = { key, mode: Number(stat.mode) & 0o7777 };
  try {
    if (stat.isSymbolicLink()) seen.link = fs.readlinkSync(absolute);
    else if (stat.isFile() && stat.size <= BigInt(KEEP_BYTES)) seen.content = fs.readFileSync(absolute);
  } catch {
    // Gone or unreadable meanwhile: known by its stat alone.
  }
  known.set(relative, seen);
  found.set(relative, seen);
}

/** Moves the new file to the quarantine folder with a note, and puts the previous one back. */
function quarantineOne(
  workspace: string,
  change: AutorunChange,
  was: Seen | undefined,
  quarantine: string,
  command: string,
  known: Map<string, Seen>,
): void {
  const absolute = path.join(workspace, change.path);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const folder = path.join(quarantine, `${stamp}-${randomBytes(3).toString('hex')}`);
  const target = path.join(folder, change.path.replace(/\//g, '__'));
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    try {
      fs.renameSync(absolute, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      fs.cpSync(absolute, target, { recursive: true, verbatimSymlinks: true });
      fs.rmSync(absolute, { recursive: true, force: true });
    }
    change.movedTo = target;
    fs.writeFileSync(
      path.join(folder, 'NOTE.txt'),
      [
        `Tether moved this file out of ${workspace} after a command ${change.created ? 'created' : 'changed'} it:`,
        `  ${change.path}`,
        `${change.runs[0]!.toUpperCase()}${change.runs.slice(1)}, outside any sandbox.`,
        `The command: ${command}`,
        was ? 'The file as it was before the command was put back.' : 'There was no such file before the command.',
        'To keep this version anyway, look at it, then copy it back yourself.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    change.problem = `it could not be moved aside (${(error as Error).message})`;
    return;
  } finally {
    known.delete(change.path);
  }
  if (!was) return;
  try {
    if (was.link !== undefined) fs.symlinkSync(was.link, absolute);
    else if (was.content !== undefined) {
      fs.mkdirSync(path.dirname(absolute), { recursive: true });
      fs.writeFileSync(absolute, was.content, { mode: was.mode, flag: 'wx' });
      fs.chmodSync(absolute, was.mode);
    } else {
      change.problem = `the previous version was too large to keep (over ${KEEP_BYTES / 1024 / 1024} MiB), so it could not be put back`;
      return;
    }
    change.restored = true;
  } catch (error) {
    change.problem = `the previous version could not be put back (${(error as Error).message})`;
  }
}

function safeRead(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** `{a,b}c{d,}` as its names (no nesting: the table has none). */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open === -1) return [pattern];
  const close = pattern.indexOf('}', open);
  if (close === -1) return [pattern];
  const head = pattern.slice(0, open);
  const rest = expandBraces(pattern.slice(close + 1));
  return pattern
    .slice(open + 1, close)
    .split(',')
    .flatMap((choice) => rest.map((tail) => `${head}${choice}${tail}`));
}

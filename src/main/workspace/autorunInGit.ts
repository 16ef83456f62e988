import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lifecycleScriptChange } from './autorunFiles';
import { autorunPlaceOf, autorunRootNames } from './autorunWatch';
import { guardedGitEnv } from './git';
import { repositoryLayout } from './repositoryMachinery';

/**
 * The files the person's tools run by themselves (autorunFiles.ts) that a command put into git
 * rather than the work tree: into a commit a branch, tag or detached HEAD now points at, or into the
 * index. The autorun watch quarantines the work-tree copy, but the person's own `git checkout .`,
 * `git reset --hard`, `git stash pop` or a switch to that branch would bring it back, outside any
 * sandbox. So after a fenced command each ref it moved or made is judged by what its new commit
 * brings among those files (against the ref's old commit, or HEAD's for a new ref), and each index
 * entry for one that it added or changed. Such a ref is moved back (a new one deleted), the commit
 * kept in git's objects and named in the result; such an index entry is put back as it was.
 *
 * Cheap between commands that leave git alone: the look is a key of stats (HEAD, the index,
 * packed-refs, the folders under refs/). Only when it moved are git's refs and index read, with git.
 */

export interface GitAutorunChange {
  /** The ref (`refs/heads/main`, `HEAD` when detached) or `the index`. */
  where: string;
  /** The files it brings, relative to the workspace. */
  paths: string[];
  /** What runs the first of them, completing "… outside any sandbox". */
  runs: string;
  /** The commit the ref pointed at after the command. */
  commit?: string;
  /** The ref is back where it was (or gone, if the command made it), or the index entries are. */
  undone: boolean;
  problem?: string;
}

interface Snapshot {
  refs: Map<string, string>;
  /** Index entries (mode, object, stage) by path, for the autorun places only. */
  index: Map<string, string>;
}

export interface GitAutorunWatch {
  begin(): void;
  /** After the command; with `undo`, what it put into git is taken back out. */
  check(options: { undo: boolean }): GitAutorunChange[];
}

/** The snapshot taken last, per git folder, with the key it was taken under: what lets a look run no git. */
const remembered = new Map<string, { key: string; takenAt: number; snapshot: Snapshot }>();
/**
 * A key taken this soon after a change of what it covers is not trusted: file times tick coarsely
 * (a kernel tick, 1 to 10 ms), so a change in the same tick would leave the key as it was.
 */
const RACY_MS = 100;

export function gitAutorunWatch(workspace: string): GitAutorunWatch {
  const { gitDir, commonDir } = repositoryLayout(path.join(workspace, '.git'));
  let before: { key: string; snapshot: Snapshot } | undefined;
  return {
    begin() {
      before = undefined;
      if (!gitDir || !commonDir) return;
      const { key, newest } = stateKey(gitDir, commonDir);
      const kept = remembered.get(gitDir);
      const snapshot = kept && kept.key === key && kept.takenAt - newest > RACY_MS ? kept.snapshot : takeSnapshot(workspace, gitDir);
      if (!snapshot) return;
      remembered.set(gitDir, { key, takenAt: Date.now(), snapshot });
      before = { key, snapshot };
    },
    check({ undo }) {
      if (!before || !gitDir || !commonDir) return [];
      const was = before;
      before = undefined;
      const { key } = stateKey(gitDir, commonDir);
      if (key === was.key) return [];
      const now = takeSnapshot(workspace, gitDir);
      if (!now) {
        remembered.delete(gitDir);
        return [];
      }
      const changes = [...refChanges(workspace, was.snapshot, now, undo), ...indexChanges(workspace, was.snapshot, now, undo)];
      // What was taken back out is as it was; the next look reads git again.
      remembered.set(gitDir, {
        key: changes.some((change) => change.undone) ? '' : stateKey(gitDir, commonDir).key,
        takenAt: Date.now(),
        snapshot: now,
      });
      return changes;
    },
  };
}

function refChanges(workspace: string, was: Snapshot, now: Snapshot, undo: boolean): GitAutorunChange[] {
  const changes: GitAutorunChange[] = [];
  const head = was.refs.get(HEAD);
  for (const [ref, commit] of now.refs) {
    const old = was.refs.get(ref);
    // A HEAD on a branch follows it: the branch is judged. A detached one is judged as a ref.
    if (old === commit || ref === SYMBOLIC || (ref === HEAD && now.refs.has(SYMBOLIC))) continue;
    // A stash keeps the index and the untracked files in commits of their own (its second and third
    // parents), which `git stash pop` brings back too.
    const stashed = ref === STASH ? [`${commit}^2`, `${commit}^3`].filter((part) => objectAt(workspace, part) !== undefined) : [];
    const paths = [
      ...new Set([
        ...broughtPaths(workspace, ref === STASH ? head : (old ?? head), commit),
        ...stashed.flatMap((part) => broughtPaths(workspace, head, part)),
      ]),
    ];
    if (paths.length === 0) continue;
    const change: GitAutorunChange = { where: ref, paths, runs: runsOf(workspace, paths[0]!), commit, undone: false };
    if (undo) {
      try {
        if (ref === HEAD) putHeadBack(workspace, was);
        else if (old === undefined) git(workspace, ['update-ref', '-d', ref, commit]);
        else
          git(workspace, [
            'update-ref',
            '-m',
            'tether: took back a commit that brings files your tools run by themselves',
            ref,
            old,
            commit,
          ]);
        // HEAD left on a branch that is gone goes back where it was.
        if (old === undefined && now.refs.get(SYMBOLIC) === ref) putHeadBack(workspace, was);
        change.undone = true;
      } catch (error) {
        change.problem = (error as Error).message.split('\n')[0];
      }
    }
    changes.push(change);
  }
  return changes;
}

const HEAD = 'HEAD';
const STASH = 'refs/stash';
/** Where a HEAD on a branch points (`refs/heads/main`), kept beside the refs. */
const SYMBOLIC = 'HEAD -> branch';

/** HEAD as it was before the command: on its branch, or detached at its commit. */
function putHeadBack(workspace: string, was: Snapshot): void {
  const branch = was.refs.get(SYMBOLIC);
  const commit = was.refs.get(HEAD);
  if (branch) git(workspace, ['symbolic-ref', HEAD, branch]);
  else if (commit) git(workspace, ['update-ref', '--no-deref', HEAD, commit]);
}

function indexChanges(workspace: string, was: Snapshot, now: Snapshot, undo: boolean): GitAutorunChange[] {
  const paths = [...now.index.keys()].filter((file) => {
    const entry = now.index.get(file)!;
    if (entry === was.index.get(file)) return false;
    if (file === 'package.json') {
      const old = was.index.get(file)?.split(' ')[1];
      if (lifecycleScriptChange(blob(workspace, old), blob(workspace, entry.split(' ')[1]) ?? '').length === 0) return false;
    }
    return entry.split(' ')[1] !== workTreeObject(workspace, file);
  });
  if (paths.length === 0) return [];
  const change: GitAutorunChange = { where: 'the index', paths, runs: runsOf(workspace, paths[0]!), undone: false };
  if (undo) {
    try {
      // Put each entry back as it was: gone where there was none, the old blob where there was one.
      const back = paths.map((file) => {
        const old = was.index.get(file);
        if (old === undefined) return `0 ${'0'.repeat(40)}\t${file}`;
        const [mode, object] = old.split(' ');
        return `${mode} ${object}\t${file}`;
      });
      git(workspace, ['update-index', '--index-info'], `${back.join('\n')}\n`);
      change.undone = true;
    } catch (error) {
      change.problem = (error as Error).message.split('\n')[0];
    }
  }
  return [change];
}

/** The autorun files a commit brings against `base` (or all it holds, with none). */
function broughtPaths(workspace: string, base: string | undefined, commit: string): string[] {
  let changed: string[];
  try {
    const listed = base
      ? git(workspace, ['diff-tree', '-r', '-z', '--no-commit-id', '--name-only', '--diff-filter=d', base, commit])
      : git(workspace, ['ls-tree', '-r', '-z', '--name-only', commit]);
    changed = listed.split('\0').filter(Boolean);
  } catch {
    // Not a commit (a tag of a blob, an object git cannot read): nothing a checkout brings.
    return [];
  }
  return changed.filter((file) => {
    if (file === 'package.json') {
      if (lifecycleScriptChange(blob(workspace, base && `${base}:${file}`), blob(workspace, `${commit}:${file}`) ?? '').length === 0)
        return false;
    } else if (autorunPlaceOf(workspace, file) === undefined) return false;
    // What the work tree already holds is nothing new for a checkout to bring (the person's own
    // edited .vscode/settings.json, staged and committed by `git add -A`).
    return objectAt(workspace, `${commit}:${file}`) !== workTreeObject(workspace, file);
  });
}

function objectAt(workspace: string, spec: string): string | undefined {
  return safeGit(workspace, ['rev-parse', '-q', '--verify', spec]).trim() || undefined;
}

/** The object id the work tree's file would have, unfiltered (no filter program is run); undefined when there is none. */
function workTreeObject(workspace: string, file: string): string | undefined {
  const absolute = path.join(workspace, file);
  try {
    if (!fs.lstatSync(absolute).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return safeGit(workspace, ['hash-object', '--no-filters', '--', file]).trim() || undefined;
}

function runsOf(workspace: string, file: string): string {
  return file === 'package.json'
    ? 'npm (and pnpm, Yarn) run its lifecycle scripts on your next install'
    : (autorunPlaceOf(workspace, file) ?? 'your tools run it by themselves');
}

/** A blob's text (`<object>` or `<commit>:<path>`); null when there is none. */
function blob(workspace: string, spec: string | undefined): string | null {
  if (!spec) return null;
  try {
    return git(workspace, ['cat-file', 'blob', spec]);
  } catch {
    return null;
  }
}

/**
 * The refs and the autorun index entries as git has them now; undefined when git could not say. A
 * look that failed is never compared: an empty list before would make every ref after look new.
 */
function takeSnapshot(workspace: string, gitDir: string): Snapshot | undefined {
  let listedRefs: string;
  let listedIndex: string;
  const places = ['package.json', ...autorunRootNames(workspace)].map((name) => `:(literal)${name}`);
  try {
    listedRefs = git(workspace, ['for-each-ref', '--format=%(objectname) %(refname)']);
    listedIndex = git(workspace, ['ls-files', '-s', '-z', '--', ...places]);
  } catch {
    return undefined;
  }
  const refs = new Map<string, string>();
  for (const line of listedRefs.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  // HEAD read as git writes it, with no process: `ref: refs/heads/main`, or a commit when detached.
  let head = '';
  try {
    head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
  } catch {
    // No HEAD: nothing checked out to judge against.
  }
  const symbolic = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (symbolic) refs.set(SYMBOLIC, symbolic);
  const commit = symbolic ? refs.get(symbolic) : /^[0-9a-f]{40,64}$/.test(head) ? head : undefined;
  if (commit) refs.set(HEAD, commit);
  const index = new Map<string, string>();
  for (const record of listedIndex.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab > 0) index.set(record.slice(tab + 1), record.slice(0, tab));
  }
  return { refs, index };
}

/** A key of what a ref or index change touches: stats that move whenever git writes them. */
function stateKey(gitDir: string, commonDir: string): { key: string; newest: number } {
  const parts: string[] = [];
  let newest = 0;
  const add = (file: string) => {
    try {
      const stat = fs.lstatSync(file, { bigint: true });
      parts.push(`${file}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`);
      newest = Math.max(newest, Number(stat.ctimeMs));
    } catch {
      parts.push(`${file}:-`);
    }
  };
  add(path.join(gitDir, 'HEAD'));
  add(path.join(gitDir, 'index'));
  add(path.join(commonDir, 'packed-refs'));
  const folders = (folder: string): void => {
    add(folder);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) folders(path.join(folder, entry.name));
  };
  folders(path.join(commonDir, 'refs'));
  return { key: parts.join('|'), newest };
}

function git(workspace: string, args: string[], input?: string): string {
  return execFileSync('git', ['-c', `core.hooksPath=${os.devNull}`, '-c', 'core.quotePath=false', ...args], {
    cwd: workspace,
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
    stdio: [input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    env: { ...guardedGitEnv(), GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

function safeGit(workspace: string, args: string[]): string {
  try {
    return git(workspace, args);
  } catch {
    return '';
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../workspace/filePaths';

/**
 * Git's machinery is out of the sandbox's reach. A git directory holds what git runs on the person's
 * next own `git status` or `git commit`, outside any sandbox: its config (core.fsmonitor, core.hooksPath,
 * aliases), its hooks, a `commondir` that moves config and hooks somewhere else, `config.worktree`, the
 * git directories of submodules (`modules/`) and of other worktrees (`worktrees/`). Commands keep what
 * committing and branching write (GIT_WRITABLE); everything else in the git directory is read-only.
 *
 * Why not "the whole git directory read-only, then these children writable": git writes a file by
 * creating `name.lock` beside it and renaming it over, so `git add` creates `.git/index.lock` and
 * `git commit` `.git/HEAD.lock`: the git directory itself has to stay writable. What it holds that is
 * not on the list is then made read-only entry by entry (bubblewrap mounts each one read-only, and a
 * mount point can be neither written, removed nor renamed), as it is when the profile is compiled.
 * Names git reads that do not exist yet are covered too: most by the runtime's empty placeholder
 * (PLACEHOLDER_SAFE), and `commondir` by a file Tether writes while a command runs (an empty one
 * would stop git: "failed to read .git/commondir"), saying ".": the git directory is its own common
 * directory, which is what git assumes when there is none. A new name git does not read (`.git/foo`)
 * can still be made, and so can `worktrees` (see PLACEHOLDER_SAFE).
 *
 * An operation in progress (`rebase-merge`, `rebase-apply`, `sequencer`) is not on the list: a
 * rebase or a cherry-pick a command starts may write its state, but once it exists (a rebase the
 * person has in progress, or one a command left) later commands cannot change it. Its todo list's
 * `exec` lines would run when the person continues it; it cannot be fenced before it exists, since an
 * empty placeholder there tells git a rebase is in progress, so what a command leaves there is taken
 * out of reach after it runs (workspace/gitState.ts, through the nested-repository watch).
 */

/** Names in a git directory that committing, branching, merging, stashing and tagging write. */
export const GIT_WRITABLE =
  /^(?:objects|refs|logs|index|HEAD|packed-refs|shallow|lfs|rr-cache|[A-Z_]+_HEAD|[A-Z_]+_MSG|COMMIT_EDITMSG|TAG_EDITMSG|NOTES_EDITMSG|MERGE_MODE|MERGE_RR|MERGE_AUTOSTASH|AUTO_MERGE|BISECT_[A-Z_]+|gc\.pid|gc\.log|.+\.lock|index\.stash\.\d+|sharedindex\.[0-9a-f]+)$/;

/**
 * Names git reads that the runtime's empty placeholder makes harmless while they do not exist: git
 * takes it for an empty config, or for a folder with nothing in it. `modules` because `git submodule
 * update --init` reuses a git directory it finds there. Not `worktrees`: Tether adds its session
 * worktrees while other commands run, and a new worktree's git directory is only used from a
 * worktree that points at it.
 */
const PLACEHOLDER_SAFE = ['config', 'config.worktree', 'hooks', 'info', 'modules'];
/** The same for a worktree's own git directory (its hooks, config and info are the common directory's). */
const WORKTREE_PLACEHOLDER_SAFE = ['config.worktree', 'modules'];

/** What Tether writes into `commondir` while a command runs: the git directory itself. */
export const OWN_COMMONDIR = '.\n';

export interface GitFence {
  /** The git directories whose machinery is fenced: the workspace's own, as git finds it from the root. */
  gitDirs: string[];
  /** Outside the workspace, what committing needs: a worktree's own git directory and the shared objects, refs, logs. */
  allowWrite: string[];
  /** The machinery: each existing entry not on GIT_WRITABLE, and the names git reads that are missing. */
  denyWrite: string[];
  /** `commondir` files that do not exist (or that Tether wrote), which Tether holds (OWN_COMMONDIR) while a command runs. */
  commondirs: string[];
}

/** The workspace's git fence as the file system is now. No `.git` at the root: nothing to fence (`git init` must work). */
export function gitFence(workspace: string): GitFence {
  const dotGit = path.join(workspace, '.git');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return { gitDirs: [], allowWrite: [], denyWrite: [], commondirs: [] };
  }
  if (stat.isDirectory()) return machinery(dotGit, [], false);
  // A `.git` file names the git directory: a linked worktree's (with a commondir) or a submodule's.
  const gitdir = gitfileTarget(dotGit);
  if (!gitdir || !isDirectory(gitdir)) return { gitDirs: [], allowWrite: [], denyWrite: [], commondirs: [] };
  const commonFile = path.join(gitdir, 'commondir');
  if (!fs.existsSync(commonFile)) return machinery(gitdir, isInside(gitdir, workspace) ? [] : [gitdir], false);
  let common = gitdir;
  try {
    common = path.resolve(gitdir, fs.readFileSync(commonFile, 'utf8').trim());
  } catch {
    // Unreadable: git will not get further either.
  }
  // The common directory is not writable at all, but for what commits and branches write there.
  const shared = ['objects', 'refs', 'logs', 'packed-refs'].map((name) => path.join(common, name)).filter((entry) => fs.existsSync(entry));
  return machinery(gitdir, [gitdir, ...shared], true);
}

function machinery(gitDir: string, allowWrite: string[], worktree: boolean): GitFence {
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(gitDir);
  } catch {
    // Unreadable: the runtime will not mount into it either.
  }
  const denied = entries.filter((name) => !GIT_WRITABLE.test(name));
  const missing = new Set<string>();
  for (const name of worktree ? WORKTREE_PLACEHOLDER_SAFE : PLACEHOLDER_SAFE) if (!entries.includes(name)) missing.add(name);
  // A worktree's git directory has its commondir; any other must not get one (one Tether wrote is held again).
  const commondir = path.join(gitDir, 'commondir');
  const commondirs = !worktree && (!entries.includes('commondir') || isOwnCommondir(commondir)) ? [commondir] : [];
  return {
    gitDirs: [gitDir],
    allowWrite,
    denyWrite: [...new Set([...denied, ...missing].map((name) => path.join(gitDir, name)).concat(commondirs))].sort(),
    commondirs,
  };
}

/** The git directory a `.git` file names (`gitdir: ...`), absolute. */
export function gitfileTarget(file: string): string | undefined {
  try {
    const named = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(file, 'utf8'))?.[1]?.trim();
    return named ? path.resolve(path.dirname(file), named) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * If `target` lies in git machinery the fence keeps read-only (in one of the workspace's git
 * directories, under an entry not on GIT_WRITABLE), that entry; for naming a fence hit.
 */
export function gitMachineryHolding(target: string, workspace: string): string | undefined {
  for (const gitDir of gitFence(workspace).gitDirs) {
    if (!isInside(target, gitDir) || target === gitDir) continue;
    const top = path.relative(gitDir, target).split(path.sep)[0]!;
    if (!GIT_WRITABLE.test(top)) return path.join(gitDir, top);
  }
  return undefined;
}

/** How many running commands in this process hold each commondir Tether wrote. */
const held = new Map<string, number>();

/**
 * Writes OWN_COMMONDIR at each path that has no file yet, for as long as a command may run: the
 * runtime mounts it read-only, so a command can neither write nor replace it. Paths another holder
 * already wrote are counted. What was there already (not Tether's) is left alone.
 */
export function holdCommondirs(paths: readonly string[]): void {
  for (const file of paths) {
    const count = held.get(file) ?? 0;
    if (count > 0) {
      held.set(file, count + 1);
      continue;
    }
    try {
      fs.writeFileSync(file, OWN_COMMONDIR, { flag: 'wx', mode: 0o444 });
      held.set(file, 1);
    } catch {
      // Already there: one Tether wrote (a killed run's, another process's) is held as ours; anything
      // else is not ours to hold. Or the folder is gone.
      if (isOwnCommondir(file)) held.set(file, 1);
    }
  }
}

/** Lets go of what holdCommondirs wrote; the last holder removes the file, if it still says OWN_COMMONDIR. */
export function releaseCommondirs(paths: readonly string[]): void {
  for (const file of paths) {
    const count = held.get(file) ?? 0;
    if (count === 0) continue;
    if (count > 1) {
      held.set(file, count - 1);
      continue;
    }
    held.delete(file);
    removeOwnCommondir(file);
  }
}

/** Removes a commondir Tether wrote and no run of this process holds (a leftover of a killed one). */
export function removeOwnCommondir(file: string): void {
  if (held.has(file)) return;
  try {
    if (isOwnCommondir(file)) fs.unlinkSync(file);
  } catch {
    // Gone already.
  }
}

function isOwnCommondir(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8') === OWN_COMMONDIR;
  } catch {
    return false;
  }
}

function isDirectory(target: string): boolean {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
}

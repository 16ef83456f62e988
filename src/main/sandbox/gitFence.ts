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
 * Names git reads that do not exist yet (`hooks`, `config.worktree`, `modules`, `commondir`, …) are
 * protected too, though not by a placeholder (the runtime's empty file would show in the workspace,
 * and an empty `commondir` stops git): protectedPaths.ts moves whatever a command makes there out of
 * the workspace. A new name git does not read (`.git/foo`) can still be made, and so can `worktrees`
 * (see GIT_READS).
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
 * Names git's own work makes at the top of a git directory beyond GIT_WRITABLE: the states of
 * operations in progress (what they would run is caught by workspace/gitState.ts), linked worktrees,
 * a notes merge, the reftable store, `git add -e`'s patch, the socket of the person's own git's
 * file-system monitor. Any other name a command makes there is
 * moved out after it ({@link gitMakes}): git reads more names there than a list of the dangerous
 * ones would hold.
 */
const GIT_MAKES =
  /^(?:rebase-merge|rebase-apply|sequencer|worktrees|reftable|NOTES_MERGE_(?:PARTIAL|REF|WORKTREE)|ADD_EDIT\.patch|fsmonitor--daemon\.ipc)$/;

/** Whether git's everyday work makes a name at the top of a git directory; a command may leave only these there. */
export function gitMakes(name: string): boolean {
  return GIT_WRITABLE.test(name) || GIT_MAKES.test(name);
}

/**
 * Names git reads to decide what to run or where to send the person's work, protected while they do
 * not exist: config and hooks, `commondir` (which moves both elsewhere), `info` (attributes name
 * filter drivers), `modules` (`git submodule update --init` reuses a git directory it finds there),
 * `remotes` and `branches` (a file there named `origin` is where a plain `git push` goes when the
 * config names no origin). Not `worktrees`: Tether adds its session worktrees while other commands
 * run, and a new worktree's git directory is only used from a worktree that points at it.
 */
const GIT_READS = ['branches', 'commondir', 'config', 'config.worktree', 'hooks', 'info', 'modules', 'remotes'];
/** The same for a worktree's own git directory (its hooks, config and info are the common directory's; its commondir exists). */
const WORKTREE_GIT_READS = ['config.worktree', 'modules'];

export interface GitFence {
  /** The git directories whose machinery is fenced: the workspace's own, as git finds it from the root. */
  gitDirs: string[];
  /** Outside the workspace, what committing needs: a worktree's own git directory and the shared objects, refs, logs. */
  allowWrite: string[];
  /** The machinery: each existing entry not on GIT_WRITABLE, and the names git reads that are missing. */
  denyWrite: string[];
}

/** The workspace's git fence as the file system is now. No `.git` at the root: nothing to fence (`git init` must work). */
export function gitFence(workspace: string): GitFence {
  const dotGit = path.join(workspace, '.git');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return { gitDirs: [], allowWrite: [], denyWrite: [] };
  }
  if (stat.isDirectory()) return machinery(dotGit, [], false);
  // A `.git` file names the git directory: a linked worktree's (with a commondir) or a submodule's.
  const gitdir = gitfileTarget(dotGit);
  if (!gitdir || !isDirectory(gitdir)) return { gitDirs: [], allowWrite: [], denyWrite: [] };
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
  const missing = (worktree ? WORKTREE_GIT_READS : GIT_READS).filter((name) => !entries.includes(name));
  return {
    gitDirs: [gitDir],
    allowWrite,
    denyWrite: [...new Set([...denied, ...missing])].map((name) => path.join(gitDir, name)).sort(),
  };
}

/** The common directory of a git directory: the one its `commondir` names, else itself. */
export function commonDirOf(gitDir: string): string {
  try {
    return path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return gitDir;
  }
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

function isDirectory(target: string): boolean {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
}

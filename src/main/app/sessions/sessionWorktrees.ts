import fs from 'node:fs';
import path from 'node:path';
import type { WorktreeSetting } from '../../../shared/contract';
import type { EventOf } from '../../../shared/events';
import { foldEvents, type SessionState } from '../../../shared/session';
import type { SessionPlace } from './sessionManager';
import { RequestError } from '../../../shared/requestError';
import type { Store } from '../../store/store';
import { newId } from '../../store/newId';
import { GitError, runUserGit } from '../../workspace/git';
import { readWorktreeSettings, writeWorktreeSettings } from '../../review/worktreeSettings';

export interface SessionWorktreesOptions {
  store: Store;
  dataDir: string;
  /** Appends an event to the session's log and tells the UI. */
  record(sessionId: string, event: EventOf<'worktree.finished'>): void;
}

export type WorktreeAction = EventOf<'worktree.finished'>['action'];

/**
 * Worktree sessions: when a project has them on, each new session works in a git worktree of its
 * own, on a new branch `tether/<short session id>` made from the repository's HEAD, in Tether's data
 * folder. The person's checkout is untouched while the agent works. At the end the person merges the
 * branch into the branch checked out in the repository, squashes it into one commit there, or
 * discards it; the worktree and the branch are removed in every case.
 *
 * Merge and squash refuse when the main checkout has uncommitted changes to tracked files (naming
 * them), and are computed first without touching any checkout (`git merge-tree`): a conflict is
 * reported with its files and nothing is applied. The result then moves the checkout by a
 * fast-forward, which git makes all at once or not at all.
 */
export class SessionWorktrees {
  constructor(private readonly options: SessionWorktreesOptions) {}

  async setting(projectId: string): Promise<WorktreeSetting> {
    const project = this.project(projectId);
    const enabled = readWorktreeSettings(this.options.dataDir).projects[projectId]?.enabled ?? false;
    const repo = await repositoryOf(project.path);
    return { projectId, enabled, ...('unavailable' in repo ? { unavailable: repo.unavailable } : {}) };
  }

  async configure(projectId: string, enabled: boolean): Promise<WorktreeSetting> {
    const project = this.project(projectId);
    const repo = await repositoryOf(project.path);
    if (enabled && 'unavailable' in repo) {
      throw new RequestError(
        'invalid_input',
        `Worktree sessions cannot be turned on for ${project.path}: ${repo.unavailable} Sessions there work in the folder itself.`,
      );
    }
    const settings = readWorktreeSettings(this.options.dataDir);
    settings.projects[projectId] = { enabled };
    writeWorktreeSettings(this.options.dataDir, settings);
    return this.setting(projectId);
  }

  /**
   * The folder a new session in `folder` works in: its own worktree when the project has them on,
   * or null (the folder itself). Fails, with nothing left behind, when the worktree cannot be made.
   */
  async prepare(folder: string): Promise<SessionPlace | null> {
    const project = this.options.store.projects.byPath(folder);
    if (!project || !readWorktreeSettings(this.options.dataDir).projects[project.id]?.enabled) return null;
    const repo = await repositoryOf(folder);
    if ('unavailable' in repo) {
      throw new RequestError(
        'failed',
        `This project is set to give each session its own worktree, but ${repo.unavailable} Turn worktree sessions off for it to work in the folder itself.`,
      );
    }
    const id = newId();
    const { event, workspace } = await this.make(repo, project.id, id, 'the new session');
    return { id, workspace, setup: [event] };
  }

  /**
   * A new worktree and branch for session `sessionId`, which works in `folder` (of project
   * `projectId`) and is to move there: the event that says so (without `moved`, which the caller
   * fills in once it carried the session's changes) and the folder it will work in. Refused, with
   * nothing made, where a worktree cannot be.
   */
  async makeFor(sessionId: string, projectId: string, folder: string): Promise<{ event: EventOf<'worktree.created'>; workspace: string }> {
    const open = this.worktreeOf(sessionId);
    if (open && !open.finished)
      throw new RequestError('conflict', `This session already works in its own worktree (branch ${open.branch}).`);
    const repo = await repositoryOf(folder);
    if ('unavailable' in repo) throw new RequestError('invalid_input', `This session cannot move to a worktree: ${repo.unavailable}`);
    return this.make(repo, projectId, sessionId, 'this session');
  }

  /** Removes a worktree made by `makeFor` that the session never moved into (the move failed). */
  async abandon(event: EventOf<'worktree.created'>): Promise<void> {
    await removeWorktree(event);
  }

  private async make(
    repo: { top: string; head: string; subfolder: string },
    projectId: string,
    id: string,
    forWhom: string,
  ): Promise<{ event: EventOf<'worktree.created'>; workspace: string }> {
    let branch = `tether/${id.slice(-8)}`;
    if (await refExists(repo.top, `refs/heads/${branch}`)) branch = `tether/${id}`;
    const parent = path.join(this.options.dataDir, 'worktrees', projectId);
    fs.mkdirSync(parent, { recursive: true });
    let folderPath = path.join(parent, id.slice(-8));
    if (fs.existsSync(folderPath)) folderPath = path.join(parent, newId());
    try {
      await runUserGit(['worktree', 'add', '--quiet', '-b', branch, folderPath, repo.head], { cwd: repo.top });
    } catch (error) {
      throw new RequestError('failed', `Could not make a worktree for ${forWhom} in ${repo.top}: ${(error as Error).message}`);
    }
    const worktree = fs.realpathSync.native(folderPath);
    const event: EventOf<'worktree.created'> = { type: 'worktree.created', path: worktree, branch, baseCommit: repo.head, repo: repo.top };
    // A project inside a larger repository works in the same subfolder of the worktree.
    return { event, workspace: path.join(worktree, repo.subfolder) };
  }

  /** Deleting a session whose worktree is still open would leave its branch and folder behind with no way to end them from the app. */
  refuseWhileOpen(sessionId: string): void {
    const worktree = this.worktreeOf(sessionId);
    if (worktree && !worktree.finished) {
      throw new RequestError(
        'conflict',
        `This session still has its worktree (branch ${worktree.branch}); merge, squash or discard it first, then delete the session.`,
      );
    }
  }

  /** The session's worktree as its log says, from the two events that say it (not the whole log, responses and outputs and all). */
  private worktreeOf(sessionId: string): SessionState['worktree'] {
    return foldEvents(this.options.store.events.listOfTypes(sessionId, ['worktree.created', 'worktree.finished'])).worktree;
  }

  /** Merges, squashes or discards the session's worktree; the worktree and its branch are gone after. */
  async finish(
    sessionId: string,
    action: WorktreeAction,
    message?: string,
  ): Promise<{ action: WorktreeAction; commit?: string; into?: string }> {
    const session = this.options.store.sessions.get(sessionId);
    if (!session) throw new RequestError('not_found', `There is no session ${sessionId}; it may have been deleted.`);
    const worktree = this.worktreeOf(sessionId);
    if (!worktree)
      throw new RequestError(
        'invalid_input',
        'This session works in the project folder itself, not in a worktree of its own: there is nothing to merge or discard.',
      );
    if (worktree.finished)
      throw new RequestError('conflict', `This session's worktree was already ${pastTense(worktree.finished.action)}.`);

    let result: { action: WorktreeAction; commit?: string; into?: string } = { action };
    if (action !== 'discard') {
      const text = message ?? session.title;
      result = { action, ...(await this.integrate(worktree, action, text)) };
    }
    await removeWorktree(worktree);
    this.options.record(sessionId, { type: 'worktree.finished', action, ...(result.commit ? { commit: result.commit } : {}) });
    return result;
  }

  private async integrate(
    worktree: { path: string; branch: string; baseCommit: string; repo: string },
    action: 'merge' | 'squash',
    message: string,
  ): Promise<{ commit?: string; into: string }> {
    const { repo, branch } = worktree;
    const into = (await git(repo, ['symbolic-ref', '-q', '--short', 'HEAD'], [1])).trim();
    if (!into)
      throw new RequestError(
        'conflict',
        `The repository at ${repo} is not on a branch (detached HEAD), so there is nothing to ${action} into. Check out the branch that should receive the work, then try again.`,
      );
    const dirty = await changedTrackedFiles(repo);
    if (dirty.length > 0) {
      throw new RequestError(
        'conflict',
        `The main checkout at ${repo} has uncommitted changes to ${listFiles(dirty)}. Commit or stash them, then ${action} again; nothing was changed.`,
      );
    }
    // The agent's work that it did not commit itself becomes one commit on the branch first.
    if (fs.existsSync(worktree.path) && (await git(worktree.path, ['status', '--porcelain', '--untracked-files=all'])).trim()) {
      await git(worktree.path, ['add', '--all']);
      await git(worktree.path, [...(await identity(worktree.path)), 'commit', '--quiet', '--no-verify', '-m', message]);
    }
    const head = (await git(repo, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
    const tip = (await git(repo, ['rev-parse', '--verify', `refs/heads/${branch}^{commit}`])).trim();
    if ((await runUserGit(['merge-base', '--is-ancestor', tip, head], { cwd: repo, okExitCodes: [1] })).exitCode === 0) {
      return { into }; // Nothing on the branch that the current branch lacks.
    }
    const merged = await runUserGit(['merge-tree', '--write-tree', '--name-only', '--no-messages', head, tip], {
      cwd: repo,
      okExitCodes: [1],
    });
    const [tree, ...conflicted] = merged.stdout.toString('utf8').split('\n').filter(Boolean);
    if (merged.exitCode === 1) {
      throw new RequestError(
        'conflict',
        `${action === 'merge' ? 'Merging' : 'Squashing'} ${branch} into ${into} would conflict in ${listFiles([...new Set(conflicted)])}. Nothing was changed in ${repo}: the worktree and its branch (with the session's work committed on it) are kept, so you can resolve it there with git, or discard it.`,
      );
    }
    const parents = action === 'merge' ? ['-p', head, '-p', tip] : ['-p', head];
    const subject = action === 'merge' ? `Merge branch '${branch}' into ${into}\n\n${message}` : message;
    const commit = (await git(repo, [...(await identity(repo)), 'commit-tree', tree!, ...parents, '-m', subject])).trim();
    try {
      await git(repo, ['merge', '--ff-only', '--quiet', commit]);
    } catch (error) {
      throw new RequestError(
        'conflict',
        `Could not move ${into} in ${repo} to the ${action === 'merge' ? 'merge' : 'squashed'} commit, so nothing was changed there (the session's work stays committed on ${branch}). git said: ${(error as Error).message}`,
      );
    }
    return { commit, into };
  }

  private project(projectId: string) {
    const project = this.options.store.projects.get(projectId);
    if (!project) throw new RequestError('not_found', `There is no project ${projectId}.`);
    return project;
  }
}

type Repository = { top: string; head: string; subfolder: string } | { unavailable: string };

/** The repository a folder is in, with its HEAD commit, or why worktrees cannot be made there. */
async function repositoryOf(folder: string): Promise<Repository> {
  let top: string;
  try {
    const run = await runUserGit(['rev-parse', '--show-toplevel'], { cwd: folder, okExitCodes: [128] });
    if (run.exitCode !== 0)
      return {
        unavailable: `${folder} is not in a git repository, and a worktree is a git feature. Run \`git init\` there and commit once to use them.`,
      };
    top = fs.realpathSync.native(run.stdout.toString('utf8').trim());
  } catch (error) {
    if (error instanceof GitError && error.kind === 'missing') return { unavailable: error.message };
    throw error;
  }
  const head = await runUserGit(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { cwd: top, okExitCodes: [1, 128] });
  if (head.exitCode !== 0)
    return { unavailable: `the repository at ${top} has no commits yet, and a worktree starts from one. Commit once, then turn them on.` };
  const subfolder = path.relative(top, fs.realpathSync.native(folder));
  return { top, head: head.stdout.toString('utf8').trim(), subfolder };
}

async function git(cwd: string, args: string[], okExitCodes?: number[]): Promise<string> {
  return (await runUserGit(args, { cwd, ...(okExitCodes ? { okExitCodes } : {}) })).stdout.toString('utf8');
}

async function refExists(repo: string, ref: string): Promise<boolean> {
  return (await runUserGit(['rev-parse', '--verify', '-q', ref], { cwd: repo, okExitCodes: [1, 128] })).exitCode === 0;
}

/** Tracked files with changes, staged or not (untracked files are checked by git itself when it updates the checkout). */
async function changedTrackedFiles(repo: string): Promise<string[]> {
  const out = (await runUserGit(['status', '--porcelain=v1', '-z', '--untracked-files=no'], { cwd: repo })).stdout.toString('utf8');
  const files: string[] = [];
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (record.length < 4) continue;
    files.push(record.slice(3));
    if (record[0] === 'R' || record[0] === 'C') i++; // the rename's source follows
  }
  return files;
}

/** The person's identity when git has one; Tether's otherwise, so the commit is still made. */
async function identity(cwd: string): Promise<string[]> {
  const email = await runUserGit(['config', 'user.email'], { cwd, okExitCodes: [1] });
  const name = await runUserGit(['config', 'user.name'], { cwd, okExitCodes: [1] });
  return [
    ...(name.exitCode === 0 ? [] : ['-c', 'user.name=Tether']),
    ...(email.exitCode === 0 ? [] : ['-c', 'user.email=tether@localhost']),
  ];
}

async function removeWorktree(worktree: { path: string; branch: string; repo: string }): Promise<void> {
  if (fs.existsSync(worktree.path)) await runUserGit(['worktree', 'remove', '--force', '--force', worktree.path], { cwd: worktree.repo });
  // A worktree folder removed by hand leaves git's record of it behind.
  await runUserGit(['worktree', 'prune'], { cwd: worktree.repo });
  await runUserGit(['branch', '--quiet', '-D', worktree.branch], { cwd: worktree.repo, okExitCodes: [1] });
}

function listFiles(files: string[]): string {
  const shown = files.slice(0, 10).join(', ');
  return files.length > 10 ? `${shown} and ${files.length - 10} more` : shown;
}

function pastTense(action: WorktreeAction): string {
  return action === 'merge' ? 'merged' : action === 'squash' ? 'squashed' : 'discarded';
}

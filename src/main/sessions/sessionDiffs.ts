import path from 'node:path';
import type { FileChange, FileDiff } from '../../shared/contract';
import type { Store } from '../store/store';
import { changedFiles, fileDiff, WORKTREE } from '../workspace/diff';
import { openShadowRepo, type ShadowRepo } from '../workspace/shadowRepo';
import { HostError } from './hostError';

/**
 * The live diff: every file a session changed, against the folder as it was when the session started.
 * The base is a snapshot in a shadow git repository per project (outside the user's repository), so
 * changes made by commands show as well as those made by the file tools.
 */
export class SessionDiffs {
  private readonly repos = new Map<string, Promise<ShadowRepo>>();
  private readonly failures = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
  ) {}

  /** Takes the session's base snapshot; must finish before the agent may change anything. */
  async takeBase(sessionId: string): Promise<void> {
    try {
      const repo = await this.repoFor(sessionId);
      await repo.snapshot(`session ${sessionId} start`, { ref: baseRef(sessionId) });
    } catch (error) {
      // The session still runs without a diff; the diff view says why.
      this.failures.set(sessionId, (error as Error).message);
    }
  }

  async files(sessionId: string): Promise<FileChange[]> {
    const { repo, base } = await this.base(sessionId);
    return changedFiles(repo, base, WORKTREE);
  }

  async file(sessionId: string, filePath: string): Promise<FileDiff> {
    const { repo, base } = await this.base(sessionId);
    return fileDiff(repo, base, WORKTREE, filePath);
  }

  private async base(sessionId: string): Promise<{ repo: ShadowRepo; base: string }> {
    const failure = this.failures.get(sessionId);
    if (failure) throw new HostError('failed', `The live diff is not available for this session: ${failure}`);
    const repo = await this.repoFor(sessionId);
    const base = await repo.resolveRef(baseRef(sessionId));
    if (!base) throw new HostError('not_found', 'This session has no starting snapshot yet, so there is nothing to compare with.');
    return { repo, base };
  }

  private repoFor(sessionId: string): Promise<ShadowRepo> {
    const session = this.store.sessions.get(sessionId);
    if (!session) throw new HostError('not_found', `There is no session ${sessionId}.`);
    const key = session.projectId ?? session.workspace;
    let repo = this.repos.get(key);
    if (!repo) {
      const gitDir = path.join(this.dataDir, 'shadow', `${session.projectId ?? 'workspace'}.git`);
      repo = openShadowRepo({ workspace: session.workspace, gitDir });
      repo.catch(() => this.repos.delete(key));
      this.repos.set(key, repo);
    }
    return repo;
  }
}

function baseRef(sessionId: string): string {
  return `sessions/${sessionId}/base`;
}

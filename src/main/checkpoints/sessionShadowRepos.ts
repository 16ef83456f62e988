import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Store } from '../store/store';
import { openShadowRepo, type ShadowRepo } from '../workspace/shadowRepo';

/**
 * The one place a session's shadow repository is opened, so checkpoints, rewind and the live diff
 * all work through the same instance: two instances on one git folder would race for its index.
 */
export class SessionShadowRepos {
  private readonly repos = new Map<string, Promise<ShadowRepo>>();

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
  ) {}

  /** The shadow repository that holds the session's snapshots (shared by the sessions of one folder). */
  forSession(sessionId: string): Promise<ShadowRepo> {
    const session = this.store.sessions.get(sessionId);
    if (!session) return Promise.reject(new Error(`There is no session ${sessionId}; it may have been deleted.`));
    return this.forFolder(session.projectId, session.workspace);
  }

  /** The shadow repository for `workspace`, a folder of project `projectId` (a session moving there uses it). */
  forFolder(projectId: string | null, workspace: string): Promise<ShadowRepo> {
    const project = projectId ? this.store.projects.get(projectId) : undefined;
    const gitDir = shadowGitDir(this.dataDir, { projectId, workspace, projectPath: project?.path });
    const key = `${gitDir}\0${workspace}`;
    let repo = this.repos.get(key);
    if (!repo) {
      repo = openShadowRepo({ workspace, gitDir });
      repo.catch(() => this.repos.delete(key));
      this.repos.set(key, repo);
    }
    return repo;
  }
}

/**
 * Where a session's snapshots live: one shadow repository per project, and one of its own for a
 * session working in another folder of the project (its git worktree).
 */
export function shadowGitDir(
  dataDir: string,
  session: { projectId: string | null; workspace: string; projectPath?: string | undefined },
): string {
  const name = session.projectId ?? 'workspace';
  if (!session.projectId || session.projectPath === undefined || session.projectPath === session.workspace)
    return path.join(dataDir, 'shadow', `${name}.git`);
  const folder = createHash('sha256').update(session.workspace).digest('hex').slice(0, 12);
  return path.join(dataDir, 'shadow', `${name}-${folder}.git`);
}

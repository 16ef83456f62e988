import type { SessionLog } from '../agent/sessionLog';
import type { SessionShadowRepos } from '../sessions/sessionShadowRepos';
import type { Store } from '../store/store';
import type { ShadowRepo } from '../workspace/shadowRepo';

/**
 * Per-step checkpoints: snapshots of a session's folder in the shadow repository (the one the live
 * diff uses, outside the person's repository), each logged as `checkpoint.created` so a rewind can
 * find the files of any step. A checkpoint that cannot be taken is logged as `checkpoint.failed`
 * and never stops the session.
 */
export class Checkpoints {
  constructor(
    private readonly store: Store,
    private readonly shadowRepos: SessionShadowRepos,
  ) {}

  /** The shadow repository that holds the session's snapshots. */
  repoFor(sessionId: string): Promise<ShadowRepo> {
    return this.shadowRepos.forSession(sessionId);
  }

  /**
   * Records the files now: after call `callId`, or (null) as a run starts. The session's first
   * checkpoint is its base (`sessions/<id>/base`, unless the host already took it).
   */
  async take(log: SessionLog, callId: string | null): Promise<void> {
    const sessionId = log.sessionId;
    try {
      const repo = await this.repoFor(sessionId);
      const first = log.state.checkpoints.length === 0;
      const baseRef = `sessions/${sessionId}/base`;
      const needsBase = first && (await repo.resolveRef(baseRef)) === null;
      const label = callId === null ? `session ${sessionId} run start` : `session ${sessionId} after ${callId}`;
      const snapshot = await repo.snapshot(label, needsBase ? { ref: baseRef } : undefined);
      log.append({ type: 'checkpoint.created', callId, commit: snapshot.commit, changed: snapshot.changed, skipped: snapshot.skipped.length });
    } catch (error) {
      const reason = `the files could not be recorded in the shadow repository: ${(error as Error).message}`;
      try {
        log.append({ type: 'checkpoint.failed', callId, reason });
      } catch {
        // The log itself refused (a closed store, or events before these were lost, which the run's
        // next append reports): nothing more to record here.
      }
    }
  }
}

import type { SessionLog } from '../store/sessionLog';
import type { SessionShadowRepos } from './sessionShadowRepos';
import type { Store } from '../store/store';
import type { ShadowRepo } from '../workspace/shadowRepo';

/**
 * Per-step checkpoints: snapshots of a session's folder in the shadow repository (the one the live
 * diff uses, outside the person's repository), each logged as `checkpoint.created` so a rewind can
 * find the files of any step. A checkpoint that cannot be taken is logged as `checkpoint.failed`
 * and never stops the session.
 */
export class Checkpoints {
  /** Snapshots taken just before a call ran, by session and call id, until the checkpoint after it is logged. */
  private readonly befores = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly shadowRepos: SessionShadowRepos,
  ) {}

  /**
   * Records the files just before call `callId` runs, so its checkpoint can say what the call itself
   * changed (another session in the folder, or the person, may have changed files since the last
   * checkpoint). A failure is left for `take` to report: the checkpoint then says nothing of before.
   */
  async before(log: SessionLog, callId: string): Promise<void> {
    try {
      const repo = await this.repoFor(log.sessionId);
      const snapshot = await repo.snapshot(`session ${log.sessionId} before ${callId}`);
      this.befores.set(beforeKey(log.sessionId, callId), snapshot.commit);
    } catch {
      // Without it the live diff falls back to the previous checkpoint for this step.
    }
  }

  /**
   * A file as the session's first snapshot (its base) holds it: null when it was not there, undefined
   * when there is no base to ask (a failed snapshot) or it could not be read.
   */
  async fileAtStart(sessionId: string, relativePath: string): Promise<string | null | undefined> {
    try {
      const repo = await this.repoFor(sessionId);
      const base = await repo.resolveRef(`sessions/${sessionId}/base`);
      if (base === null) return undefined;
      const listed = await repo.git(['ls-tree', '-z', base, '--', relativePath]);
      if (listed.exitCode !== 0) return undefined;
      if (listed.stdout.length === 0) return null;
      const shown = await repo.git(['cat-file', 'blob', `${base}:${relativePath}`]);
      return shown.exitCode === 0 ? shown.stdout.toString('utf8') : undefined;
    } catch {
      return undefined;
    }
  }

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
      const before = callId === null ? undefined : this.befores.get(beforeKey(sessionId, callId));
      if (callId !== null) this.befores.delete(beforeKey(sessionId, callId));
      const snapshot = await repo.snapshot(label, needsBase ? { ref: baseRef } : undefined);
      log.append({
        type: 'checkpoint.created',
        callId,
        commit: snapshot.commit,
        changed: snapshot.changed,
        skipped: snapshot.skipped.length,
        ...(before ? { before } : {}),
      });
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

function beforeKey(sessionId: string, callId: string): string {
  return `${sessionId}\0${callId}`;
}

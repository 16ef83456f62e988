import type { RewindPreview, RewindResult } from '../../../shared/contract';
import type { RewindRestore } from '../../../shared/events';
import { restoresFiles, undoableRewind, type RewindPoint } from '../../../shared/rewinds';
import type { SessionState } from '../../../shared/session';
import { SessionLog, type EventListener } from '../../store/sessionLog';
import { RequestError } from '../../../shared/requestError';
import type { Store } from '../../store/store';
import { changedFiles } from '../../workspace/diff';
import type { Checkpoints } from '../../checkpoints/checkpoints';
import { rewindWarnings } from '../../checkpoints/rewindWarnings';

/**
 * Rewinds a stopped session to one of its steps: the files (exactly, from the step's checkpoint;
 * the state just before is saved so the rewind can be undone), the conversation the model sees
 * next (the log keeps everything), or both; and undoes the latest rewind. Each is one event in the
 * log, listing what no rewind can take back. The host makes sure the agent is not running.
 */
export class SessionRewinder {
  constructor(
    private readonly store: Store,
    private readonly checkpoints: Checkpoints,
  ) {}

  /** What a rewind to `toSeq` would do, without doing it. */
  async preview(sessionId: string, toSeq: number): Promise<Omit<RewindPreview, 'working' | 'unasked'>> {
    const log = new SessionLog(this.store, sessionId);
    const point = findPoint(log.state, toSeq);
    const warnings = await rewindWarnings(this.store.events.list(sessionId, toSeq), toSeq, log.state.workspace);
    // Tool results are drawn inside their calls' cards: count what the person sees.
    const conversationItems = log.state.items.slice(point.mark.items).filter((item) => item.type !== 'tool_result').length;
    if (!point.commit) {
      return { toSeq, files: [], skipped: [], warnings, conversationItems, filesUnavailable: noCheckpointReason(log.state, point) };
    }
    const repo = await this.checkpoints.repoFor(sessionId);
    const now = await repo.snapshot(`rewind preview for session ${sessionId}`);
    const files = await changedFiles(repo, now.commit, point.commit);
    return { toSeq, files, skipped: now.skipped, warnings, conversationItems };
  }

  async rewind(sessionId: string, toSeq: number, restore: RewindRestore, onEvent: EventListener): Promise<RewindResult> {
    const log = new SessionLog(this.store, sessionId, onEvent);
    const point = findPoint(log.state, toSeq);
    if (restoresFiles(restore) && !point.commit) {
      throw new RequestError(
        'conflict',
        `The files cannot be rewound to this step: ${noCheckpointReason(log.state, point)}. Rewind the conversation only, or pick another step.`,
      );
    }
    const warnings = await rewindWarnings(this.store.events.list(sessionId, toSeq), toSeq, log.state.workspace);
    const files = restoresFiles(restore) && point.commit ? await this.restore(sessionId, point.commit) : undefined;
    // A conversation-only rewind leaves the files: which differ from the step is what the model is told.
    const paths = files?.paths ?? (point.commit ? await this.differing(sessionId, point.commit) : []);
    const stored = log.append({
      type: 'session.rewound',
      toSeq,
      restore,
      ...(files ? { beforeCommit: files.beforeCommit, restoredCommit: files.restoredCommit } : {}),
      files: paths,
      warnings,
    });
    return { seq: stored.seq, files: paths, warnings };
  }

  /** Undoes the latest rewind: its files and conversation as they were just before it. */
  async undo(sessionId: string, onEvent: EventListener): Promise<RewindResult> {
    const log = new SessionLog(this.store, sessionId, onEvent);
    const target = undoableRewind(log.state);
    if (!target) {
      throw new RequestError(
        'not_found',
        'There is no rewind to undo: this session has not been rewound, or its latest rewind was already undone.',
      );
    }
    const warnings = await rewindWarnings(this.store.events.list(sessionId, target.seq), target.seq, log.state.workspace);
    const files = restoresFiles(target.restore) && target.beforeCommit ? await this.restore(sessionId, target.beforeCommit) : undefined;
    const stored = log.append({
      type: 'session.rewind_undone',
      rewindSeq: target.seq,
      restore: target.restore,
      ...(files ? { beforeCommit: files.beforeCommit } : {}),
      files: files?.paths ?? [],
      warnings,
    });
    return { seq: stored.seq, files: files?.paths ?? [], warnings };
  }

  /** The files that differ now from snapshot `commit`; none when that cannot be told. */
  private async differing(sessionId: string, commit: string): Promise<string[]> {
    try {
      const repo = await this.checkpoints.repoFor(sessionId);
      const now = await repo.snapshot(`session ${sessionId} conversation rewind`);
      return (await changedFiles(repo, commit, now.commit)).map((change) => change.path);
    } catch {
      return [];
    }
  }

  private async restore(sessionId: string, commit: string): Promise<{ beforeCommit: string; restoredCommit: string; paths: string[] }> {
    const repo = await this.checkpoints.repoFor(sessionId);
    let result;
    try {
      result = await repo.restoreFiles(commit);
    } catch (error) {
      throw new RequestError(
        'failed',
        `The files could not be restored to snapshot ${commit.slice(0, 12)}: ${(error as Error).message}. Check the workspace, then try again.`,
      );
    }
    const changes = await changedFiles(repo, result.saved.commit, result.restored.commit);
    return { beforeCommit: result.saved.commit, restoredCommit: result.restored.commit, paths: changes.map((change) => change.path) };
  }
}

function findPoint(state: SessionState, toSeq: number): RewindPoint {
  const point = state.rewindPoints.find((candidate) => candidate.seq === toSeq);
  if (!point) {
    throw new RequestError(
      'not_found',
      `Event ${toSeq} of this session is not a step that can be rewound to: rewind to one of the person's messages or to a tool call with a checkpoint, and not to one a rewind already took out of the conversation.`,
    );
  }
  return point;
}

function noCheckpointReason(state: SessionState, point: RewindPoint): string {
  if (point.filesUnavailable) return point.filesUnavailable;
  const failed = state.checkpoints.find(
    (checkpoint) => checkpoint.error && (checkpoint.callId === point.callId || checkpoint.seq > point.seq),
  );
  return failed?.error ?? 'no checkpoint of the files was taken at this step';
}

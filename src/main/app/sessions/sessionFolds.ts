import type { StoredEvent } from '../../../shared/events';
import { foldEvents, initialSessionState, isFinished, type SessionState } from '../../../shared/session';
import { pageOf, snapshotOf, type SessionPage, type SessionSnapshot } from '../../../shared/sessionWindow';

/** What a fold cache reads: the session's events after a seq, in order. */
export interface FoldSource {
  list(sessionId: string, afterSeq: number): StoredEvent[];
}

interface Fold {
  state: SessionState;
  /** When each call started and each approval was asked (epoch ms): the log's times, which the fold does not keep. */
  startedAt: Map<string, number>;
  askedAt: Map<string, number>;
}

/** Sessions whose whole fold is kept, most recently used last: the ones windows open and page through. */
const KEPT_FOLDS = 4;

/**
 * The whole fold of the sessions windows look at, kept in memory and caught up from the log on each
 * use (the events after the seq it holds), so opening a session and paging back through it read the
 * log once, not once a request. Windows get snapshots and pages of it (sessionWindow.ts), never the
 * whole log.
 */
export class SessionFolds {
  private readonly folds = new Map<string, Fold>();

  constructor(
    private readonly source: FoldSource,
    private readonly kept = KEPT_FOLDS,
  ) {}

  /** What a window opens the session with. */
  snapshot(sessionId: string): SessionSnapshot {
    const fold = this.current(sessionId);
    const state = snapshotOf(fold.state);
    const startedAt: Record<string, number> = {};
    for (const call of Object.values(state.toolCalls)) {
      const at = fold.startedAt.get(call.callId);
      if (!isFinished(call.status) && at !== undefined) startedAt[call.callId] = at;
    }
    const askedAt: Record<string, number> = {};
    for (const approvalId of state.pendingApprovals) {
      const at = fold.askedAt.get(approvalId);
      if (at !== undefined) askedAt[approvalId] = at;
    }
    return { state, startedAt, askedAt };
  }

  /** Older items of the session's conversation. */
  page(sessionId: string, beforeItem: number, limit: number): SessionPage {
    return pageOf(this.current(sessionId).state, beforeItem, limit);
  }

  /** The session's whole fold, caught up with its log. */
  state(sessionId: string): SessionState {
    return this.current(sessionId).state;
  }

  /** A deleted session's fold goes with it. */
  forget(sessionId: string): void {
    this.folds.delete(sessionId);
  }

  private current(sessionId: string): Fold {
    const fold = this.folds.get(sessionId) ?? { state: initialSessionState, startedAt: new Map(), askedAt: new Map() };
    this.folds.delete(sessionId);
    const events = this.source.list(sessionId, fold.state.lastSeq);
    if (events.length > 0) {
      fold.state = foldEvents(events, fold.state);
      for (const stored of events) {
        if (stored.event.type === 'tool.started') fold.startedAt.set(stored.event.callId, stored.at);
        else if (stored.event.type === 'approval.asked') fold.askedAt.set(stored.event.approvalId, stored.at);
      }
    }
    this.folds.set(sessionId, fold);
    for (const oldest of this.folds.keys()) {
      if (this.folds.size <= this.kept) break;
      this.folds.delete(oldest);
    }
    return fold;
  }
}

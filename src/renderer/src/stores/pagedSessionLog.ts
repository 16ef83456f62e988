import type { StoredEvent } from '../../../shared/events';
import { foldEvents, initialSessionState, type SessionState } from '../../../shared/session';
import { needsWholeConversation, withPage, type SessionPage, type SessionSnapshot } from '../../../shared/sessionWindow';

/**
 * One session's log as the renderer holds it: the shared fold plus what the fold does not keep but
 * the window shows (when a call started, for its running clock). It opens from a snapshot (the fold
 * with the latest conversation items, sessionWindow.ts), older items paged in before them. Events
 * arrive from two directions (the live stream and fetched pages) and may overlap or leave a gap, so
 * they are folded strictly in seq order: a duplicate is dropped, and anything after a gap waits in
 * `ahead` until the gap is filled.
 */
export interface SessionLog {
  state: SessionState;
  /** Events past a gap, in seq order, waiting for the ones before them. */
  ahead: StoredEvent[];
  /** When each tool call started (epoch ms), from the stored tool.started events. */
  startedAt: Record<string, number>;
  /** When each approval was asked (epoch ms). */
  askedAt: Record<string, number>;
  /** The snapshot has arrived. */
  loaded: boolean;
  /** A `session:open` or `session:events` request is in flight. */
  fetching: boolean;
  /** A `session:page` request is in flight. */
  paging: boolean;
  /** An event needs conversation items the window does not hold (a rewind to an older step): it waits in `ahead` until the session is opened afresh. */
  stale: boolean;
  /** Why the last fetch failed, for the person. */
  error?: string;
}

export const emptySessionLog: SessionLog = {
  state: initialSessionState,
  ahead: [],
  startedAt: {},
  askedAt: {},
  loaded: false,
  fetching: false,
  paging: false,
  stale: false,
};

/** The log opened from `snapshot`, replacing what it held; events that came meanwhile fold on top. */
export function openFromSnapshot(log: SessionLog, snapshot: SessionSnapshot): AppendResult {
  const opened: SessionLog = {
    ...log,
    state: snapshot.state,
    startedAt: snapshot.startedAt,
    askedAt: snapshot.askedAt,
    loaded: true,
    stale: false,
  };
  return appendToLog(opened, []);
}

/** The log with a page of older items before the ones it holds (left as it is when the page no longer fits). */
export function addPage(log: SessionLog, page: SessionPage): SessionLog {
  const state = withPage(log.state, page);
  return state === log.state ? log : { ...log, state };
}

export interface AppendResult {
  log: SessionLog;
  /** The events folded by this call, in order: what side effects (terminal, inbox, diff) should see. */
  applied: StoredEvent[];
}

export function appendToLog(log: SessionLog, events: readonly StoredEvent[]): AppendResult {
  const lastSeq = log.state.lastSeq;
  const bySeq = new Map<number, StoredEvent>();
  for (const stored of [...log.ahead, ...events]) {
    if (stored.seq > lastSeq && !bySeq.has(stored.seq)) bySeq.set(stored.seq, stored);
  }
  const ordered = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  const applied: StoredEvent[] = [];
  let expected = lastSeq + 1;
  let index = 0;
  let state = log.state;
  let stale = log.stale;
  for (; index < ordered.length && !stale; index++) {
    const stored = ordered[index]!;
    if (stored.seq !== expected) break;
    if (stored.event.type === 'session.rewound' || stored.event.type === 'session.rewind_undone') {
      // Folded up to here first: whether the window holds what the rewind needs depends on the state just before it.
      state = foldEvents(applied.slice(state.lastSeq - lastSeq), state);
      if (needsWholeConversation(state, stored.event)) {
        stale = true;
        break;
      }
    }
    applied.push(stored);
    expected++;
  }
  const ahead = ordered.slice(index);
  if (applied.length === 0) {
    return ahead.length === log.ahead.length && stale === log.stale ? { log, applied } : { log: { ...log, ahead, stale }, applied };
  }
  let startedAt = log.startedAt;
  let askedAt = log.askedAt;
  for (const stored of applied) {
    if (stored.event.type === 'tool.started') {
      if (startedAt === log.startedAt) startedAt = { ...startedAt };
      startedAt[stored.event.callId] = stored.at;
    } else if (stored.event.type === 'approval.asked') {
      if (askedAt === log.askedAt) askedAt = { ...askedAt };
      askedAt[stored.event.approvalId] = stored.at;
    }
  }
  return { log: { ...log, state: foldEvents(applied.slice(state.lastSeq - lastSeq), state), ahead, startedAt, askedAt, stale }, applied };
}

/** True when events past a gap are waiting: the log needs the missing ones fetched. */
export function hasGap(log: SessionLog): boolean {
  return log.ahead.length > 0;
}

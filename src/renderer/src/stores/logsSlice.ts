import type { StoredEvent } from '../../../shared/events';
import type { GetState, SetState, StoreDeps } from './appState';
import { appendToLog, emptySessionLog, hasGap, type SessionLog } from './sessionLog';
import { emptyTerminalFeed, feedEvents } from './terminalFeed';
import { errorMessage } from '../lib/errorMessage';

/**
 * Session logs folded with the shared reducer, for the sessions the window looks at: the selected
 * one, and any with an approval waiting (the dialog draws from its log). Other sessions are only
 * rows in the sidebar until someone opens them.
 */
export interface LogsSlice {
  logs: Record<string, SessionLog>;
  /** Starts following a session (first page from seq 0), or catches up one already followed. */
  loadSession(sessionId: string): Promise<void>;
  /** A `session:event` from the core. */
  receiveEvent(stored: StoredEvent): void;
  /** Folds events into a followed session and updates everything that depends on them. */
  ingestEvents(sessionId: string, events: readonly StoredEvent[]): void;
  /** After a reconnect: asks every followed session for what it missed. */
  resyncLogs(): Promise<void>;
}

export function createLogsSlice(deps: StoreDeps, set: SetState, get: GetState): LogsSlice {
  const { api } = deps;

  async function fetchFrom(sessionId: string): Promise<void> {
    const log = get().logs[sessionId];
    if (!log || log.fetching) return;
    patchLog(sessionId, { fetching: true });
    try {
      const events = await api.request('session:events', { sessionId, afterSeq: log.state.lastSeq });
      if (!get().logs[sessionId]) return; // deleted meanwhile
      patchLog(sessionId, { fetching: false, loaded: true, error: undefined });
      get().ingestEvents(sessionId, events);
      const after = get().logs[sessionId];
      // Events that arrived live past a gap the page did not fill: ask again from the new end.
      if (after && hasGap(after)) await fetchFrom(sessionId);
    } catch (error) {
      if (!get().logs[sessionId]) return;
      const message = errorMessage(error);
      patchLog(sessionId, { fetching: false, error: message });
      get().notify(`Could not load the session's history: ${message}`);
    }
  }

  function patchLog(sessionId: string, change: Partial<SessionLog>): void {
    set((state) => {
      const log = state.logs[sessionId];
      if (!log) return {};
      return { logs: { ...state.logs, [sessionId]: { ...log, ...change } } };
    });
  }

  function dequeueDelivered(sessionId: string, applied: readonly StoredEvent[]): void {
    const queued = get().queued[sessionId];
    if (!queued?.length) return;
    const remaining = queued.slice();
    for (const stored of applied) {
      if (stored.event.type !== 'user.messaged') continue;
      const index = remaining.indexOf(stored.event.text.trim());
      if (index !== -1) remaining.splice(index, 1);
    }
    if (remaining.length !== queued.length) set((state) => ({ queued: { ...state.queued, [sessionId]: remaining } }));
  }

  return {
    logs: {},

    async loadSession(sessionId) {
      if (!get().logs[sessionId]) set((state) => ({ logs: { ...state.logs, [sessionId]: emptySessionLog } }));
      await fetchFrom(sessionId);
    },

    receiveEvent(stored) {
      const { sessionId, event } = stored;
      if (get().logs[sessionId]) {
        get().ingestEvents(sessionId, [stored]);
        return;
      }
      // Not followed: the live text still has to end with its response, or it would linger.
      if (event.type === 'model.responded' || event.type === 'model.retrying') get().clearLive(sessionId);
      // Someone must see the request: follow the session so the dialog can show it.
      if (event.type === 'approval.asked') void get().loadSession(sessionId);
    },

    ingestEvents(sessionId, events) {
      const log = get().logs[sessionId];
      if (!log) return;
      const { log: next, applied } = appendToLog(log, events);
      if (next === log) return;
      set((state) => ({
        logs: { ...state.logs, [sessionId]: next },
        terminals: applied.length
          ? { ...state.terminals, [sessionId]: feedEvents(state.terminals[sessionId] ?? emptyTerminalFeed, applied) }
          : state.terminals,
      }));
      if (applied.length === 0) {
        if (hasGap(next)) void fetchFrom(sessionId);
        return;
      }
      if (responseEnded(applied)) get().clearLive(sessionId);
      dequeueDelivered(sessionId, applied);
      get().reconcileInbox(sessionId);
      if (applied.some((stored) => stored.event.type === 'tool.finished')) get().scheduleDiffRefresh(sessionId);
      if (hasGap(next)) void fetchFrom(sessionId);
    },

    async resyncLogs() {
      await Promise.all(Object.keys(get().logs).map((sessionId) => fetchFrom(sessionId)));
    },
  };
}

/**
 * Whether the streamed text on screen belongs to a response that is now over (stored in full, or
 * void after a retry). Within a page of history, only the last model event counts: a request after
 * the last response means the stream on screen is the current one.
 */
function responseEnded(applied: readonly StoredEvent[]): boolean {
  for (let i = applied.length - 1; i >= 0; i--) {
    const type = applied[i]!.event.type;
    if (type === 'model.responded' || type === 'model.retrying') return true;
    if (type === 'model.requested') return false;
  }
  return false;
}

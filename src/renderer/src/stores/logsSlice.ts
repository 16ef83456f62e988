import type { StoredEvent } from '../../../shared/events';
import type { GetState, SetState, StoreDeps } from './appState';
import { addPage, appendToLog, emptySessionLog, hasGap, openFromSnapshot, type AppendResult, type SessionLog } from './pagedSessionLog';
import { emptyTerminalFeed, feedEvents, feedSnapshot } from './terminalFeed';
import { errorMessage } from '../lib/errorMessage';

/** Older conversation items asked for at once as the person scrolls back. */
export const EARLIER_ITEMS_PAGE = 200;

/**
 * Session logs folded with the shared reducer, for the sessions the window looks at: the selected
 * one, and any with an approval waiting (the dialog draws from its log). Other sessions are only
 * rows in the sidebar until someone opens them. A session opens from a snapshot of its fold with
 * its latest conversation items, whatever the length of its log; older items come a page at a time.
 */
export interface LogsSlice {
  logs: Record<string, SessionLog>;
  /** Starts following a session (its snapshot), or catches up one already followed. */
  loadSession(sessionId: string): Promise<void>;
  /** Fetches the conversation items before the ones the session's log holds (a page), if there are any. */
  loadEarlier(sessionId: string): Promise<void>;
  /** A `session:event` from the core. */
  receiveEvent(stored: StoredEvent): void;
  /** Folds events into a followed session and updates everything that depends on them. */
  ingestEvents(sessionId: string, events: readonly StoredEvent[]): void;
  /** After a reconnect: asks every followed session for what it missed. */
  resyncLogs(): Promise<void>;
}

export function createLogsSlice(deps: StoreDeps, set: SetState, get: GetState): LogsSlice {
  const { api } = deps;

  async function open(sessionId: string): Promise<void> {
    const log = get().logs[sessionId];
    if (!log || log.fetching) return;
    patchLog(sessionId, { fetching: true });
    try {
      const snapshot = await api.request('session:open', { sessionId });
      const current = get().logs[sessionId];
      if (!current) return; // deleted meanwhile
      const { log: opened, applied } = openFromSnapshot({ ...current, fetching: false, error: undefined }, snapshot);
      set((state) => ({
        logs: { ...state.logs, [sessionId]: opened },
        terminals: {
          ...state.terminals,
          [sessionId]: feedEvents(feedSnapshot(state.terminals[sessionId] ?? emptyTerminalFeed, snapshot.state), applied),
        },
      }));
      afterFolding(sessionId, opened, applied, true);
    } catch (error) {
      if (!get().logs[sessionId]) return;
      const message = errorMessage(error);
      patchLog(sessionId, { fetching: false, error: message });
      get().notify(`Could not open the session: ${message}`);
    }
  }

  async function fetchFrom(sessionId: string): Promise<void> {
    const log = get().logs[sessionId];
    if (!log || log.fetching) return;
    if (!log.loaded || log.stale) return open(sessionId);
    patchLog(sessionId, { fetching: true });
    try {
      const afterSeq = log.state.lastSeq;
      const events = await api.request('session:events', { sessionId, afterSeq });
      if (!get().logs[sessionId]) return; // deleted meanwhile
      patchLog(sessionId, { fetching: false, error: undefined });
      get().ingestEvents(sessionId, events);
      const after = get().logs[sessionId];
      // A page that moved the log on may have more behind it (answers are paged); so may a gap the page did not fill.
      if (after && ((events.length > 0 && after.state.lastSeq > afterSeq) || hasGap(after) || after.stale)) await fetchFrom(sessionId);
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

  /** What folding events changes beyond the log: the live text, the queue, the inbox, the diff; and a gap or a stale window fetched. */
  function afterFolding(sessionId: string, next: SessionLog, applied: AppendResult['applied'], opened = false): void {
    if (applied.length > 0 || opened) {
      if (responseEnded(applied)) get().clearLive(sessionId);
      dequeueDelivered(sessionId, applied);
      get().reconcileInbox(sessionId);
      // A log opening asks for the diff only if nothing did yet: selecting a session asks at once.
      const changedFiles = opened
        ? Object.keys(next.state.toolCalls).length > 0 && get().diffs[sessionId] === undefined
        : applied.some((stored) => stored.event.type === 'tool.finished');
      if (changedFiles) get().scheduleDiffRefresh(sessionId);
    }
    if (hasGap(next) || next.stale) void fetchFrom(sessionId);
  }

  return {
    logs: {},

    async loadSession(sessionId) {
      if (!get().logs[sessionId]) set((state) => ({ logs: { ...state.logs, [sessionId]: emptySessionLog } }));
      await fetchFrom(sessionId);
    },

    async loadEarlier(sessionId) {
      const log = get().logs[sessionId];
      if (!log?.loaded || log.paging || log.state.itemsFrom === 0) return;
      patchLog(sessionId, { paging: true });
      try {
        const page = await api.request('session:page', { sessionId, beforeItem: log.state.itemsFrom, limit: EARLIER_ITEMS_PAGE });
        const current = get().logs[sessionId];
        if (!current) return;
        set((state) => ({ logs: { ...state.logs, [sessionId]: { ...addPage(current, page), paging: false } } }));
      } catch (error) {
        if (!get().logs[sessionId]) return;
        patchLog(sessionId, { paging: false });
        get().notify(`Could not load the earlier messages: ${errorMessage(error)}`);
      }
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
      afterFolding(sessionId, next, applied);
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

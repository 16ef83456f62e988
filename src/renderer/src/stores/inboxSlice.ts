import type { ApprovalAnswer, PendingApproval } from '../../../shared/contract';
import type { GetState, SetState, StoreDeps } from './appState';
import { without, type LoadStatus } from './sessionsSlice';
import { errorMessage } from '../lib/errorMessage';

/**
 * Every approval waiting for the person, across sessions and projects, oldest first. The core's
 * list (`approvals:pending`) is the truth for sessions the window does not follow; for a followed
 * session the folded log is newer than any list we could have fetched, so it wins.
 */
export interface InboxSlice {
  inbox: PendingApproval[];
  inboxStatus: LoadStatus;
  /** The core's refusal of an answer, per approval, shown in the dialog. */
  answerErrors: Record<string, string>;
  /** Answers on their way to the core. */
  answering: Record<string, boolean>;
  refreshInbox(): Promise<void>;
  /** Makes a followed session's inbox entries match its folded log. */
  reconcileInbox(sessionId: string): void;
  answerApproval(answer: ApprovalAnswer): Promise<boolean>;
  /** The request each session's view shows, where the person picked one (from the inbox, or with Next). */
  pickedApprovals: Record<string, string>;
  /** A request to give focus to as soon as it is on screen: the person asked to go to it. */
  reachingApproval: string | null;
  /**
   * Shows a waiting request in its session's view (switching to that session) and, with `reach`,
   * moves focus to it there, as the reach shortcut does.
   */
  openApproval(entry: Pick<PendingApproval, 'sessionId' | 'approvalId'>, options?: { reach?: boolean }): void;
  /** Whether the request was to be reached when it came on screen; asking forgets it. */
  takeReach(approvalId: string): boolean;
}

export function createInboxSlice(deps: StoreDeps, set: SetState, get: GetState): InboxSlice {
  const { api } = deps;
  let inFlight: Promise<void> | null = null;
  let again = false;

  function applyServerList(list: PendingApproval[]): void {
    const { logs } = get();
    const fromServer = list.filter((entry) => !logs[entry.sessionId]?.loaded);
    const followed = get().inbox.filter((entry) => logs[entry.sessionId]?.loaded);
    set((state) => ({
      inbox: sortInbox([...followed, ...fromServer]),
      inboxStatus: 'ready',
      answerErrors: keepFor(state.answerErrors, [...followed, ...fromServer]),
    }));
    // The dialog draws a request from its session's log.
    for (const sessionId of new Set(fromServer.map((entry) => entry.sessionId))) {
      if (!logs[sessionId]) void get().loadSession(sessionId);
    }
  }

  return {
    inbox: [],
    inboxStatus: 'idle',
    answerErrors: {},
    answering: {},
    pickedApprovals: {},
    reachingApproval: null,

    openApproval({ sessionId, approvalId }, options = {}) {
      const state = get();
      if (state.selectedSessionId !== sessionId || state.view !== 'main') state.selectSession(sessionId);
      set((current) => ({
        pickedApprovals: { ...current.pickedApprovals, [sessionId]: approvalId },
        reachingApproval: options.reach ? approvalId : current.reachingApproval,
        // A full-width review covers the conversation, where the request is docked.
        reviewFullWidth: false,
      }));
    },

    takeReach(approvalId) {
      if (get().reachingApproval !== approvalId) return false;
      set({ reachingApproval: null });
      return true;
    },

    refreshInbox() {
      if (inFlight) {
        again = true;
        return inFlight;
      }
      if (get().inboxStatus !== 'ready') set({ inboxStatus: 'loading' });
      inFlight = (async () => {
        do {
          again = false;
          try {
            applyServerList(await api.request('approvals:pending', {}));
          } catch (error) {
            if (get().inboxStatus !== 'ready') set({ inboxStatus: 'error' });
            get().notify(`Could not list the approvals waiting for you: ${errorMessage(error)}`);
            return;
          }
        } while (again);
      })().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },

    reconcileInbox(sessionId) {
      const state = get();
      const log = state.logs[sessionId];
      if (!log) return;
      const current = state.inbox.filter((entry) => entry.sessionId === sessionId);
      const pending = log.state.pendingApprovals;
      const same = current.length === pending.length && current.every((entry) => pending.includes(entry.approvalId));
      if (same) return;
      const title = state.sessions[sessionId]?.title ?? '';
      const entries = pending.map(
        (approvalId) =>
          current.find((entry) => entry.approvalId === approvalId) ?? {
            approvalId,
            sessionId,
            sessionTitle: title,
            askedAt: log.askedAt[approvalId] ?? 0,
          },
      );
      const inbox = sortInbox([...state.inbox.filter((entry) => entry.sessionId !== sessionId), ...entries]);
      set({ inbox, answerErrors: keepFor(state.answerErrors, inbox) });
    },

    async answerApproval(answer) {
      const id = answer.approvalId;
      set((state) => ({ answering: { ...state.answering, [id]: true }, answerErrors: without(state.answerErrors, id) }));
      try {
        await api.request('approval:answer', answer);
        // The approval.answered event follows; until it does, the next request should not wait behind this one.
        set((state) => ({ inbox: state.inbox.filter((entry) => entry.approvalId !== id) }));
        return true;
      } catch (error) {
        set((state) => ({ answerErrors: { ...state.answerErrors, [id]: errorMessage(error) } }));
        // Most often it was answered elsewhere: catch up so the dialog can close when the log says so.
        const entry = get().inbox.find((candidate) => candidate.approvalId === id);
        if (entry && get().logs[entry.sessionId]) void get().loadSession(entry.sessionId);
        void get().refreshInbox();
        return false;
      } finally {
        set((state) => ({ answering: without(state.answering, id) }));
      }
    },
  };
}

/** Oldest first; the order the core gave breaks ties. */
export function sortInbox(entries: PendingApproval[]): PendingApproval[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.askedAt - b.entry.askedAt || a.index - b.index)
    .map(({ entry }) => entry);
}

function keepFor<T>(record: Record<string, T>, entries: PendingApproval[]): Record<string, T> {
  const keys = Object.keys(record);
  if (keys.length === 0) return record;
  const live = new Set(entries.map((entry) => entry.approvalId));
  if (keys.every((key) => live.has(key))) return record;
  const next: Record<string, T> = {};
  for (const key of keys) if (live.has(key)) next[key] = record[key]!;
  return next;
}

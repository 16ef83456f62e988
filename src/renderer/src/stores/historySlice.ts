import type { AuditRow } from '../../../shared/auditExport';
import type { AuditAction, AuditDecider } from '../../../shared/auditTrail';
import type { GetState, SetState, StoreDeps } from './appState';
import type { LoadStatus } from './sessionsSlice';
import { errorMessage } from '../lib/errorMessage';
import { sinceTime, type HistorySince } from '../lib/historySince';

/** What the permission history lists: one session's decisions or every session's, from a time on, of one tool, action or decider. */
export interface HistoryFilter {
  /** null: every session. */
  sessionId: string | null;
  since: HistorySince;
  /** null: every tool. */
  tool: string | null;
  /** null: every action. */
  action: AuditAction | null;
  /** null: whoever decided. */
  by: AuditDecider | null;
}

/** The permission history: every decision the sessions' logs record, as `tether audit` lists them. */
export interface HistorySlice {
  history: {
    /** Oldest first, as `tether audit` prints them (and the exports write them). */
    rows: AuditRow[];
    status: LoadStatus;
    error?: string;
    filter: HistoryFilter;
  };
  /** Opens the history, for one session when given one, and loads it. */
  showHistory(sessionId?: string | null): void;
  setHistoryFilter(filter: Partial<HistoryFilter>): void;
  loadHistory(): Promise<void>;
}

export function createHistorySlice(deps: StoreDeps, set: SetState, get: GetState): HistorySlice {
  const { api } = deps;
  // Only the latest load may land: a slow answer for an older filter must not replace a newer one.
  let latest = 0;
  return {
    history: { rows: [], status: 'idle', filter: { sessionId: null, since: 'any', tool: null, action: null, by: null } },

    showHistory(sessionId) {
      set((state) => ({
        view: 'history',
        history: { ...state.history, filter: { ...state.history.filter, ...(sessionId !== undefined ? { sessionId } : {}) } },
      }));
      void get().loadHistory();
    },

    setHistoryFilter(filter) {
      set((state) => ({ history: { ...state.history, filter: { ...state.history.filter, ...filter } } }));
      void get().loadHistory();
    },

    async loadHistory() {
      const request = ++latest;
      const { filter } = get().history;
      const since = sinceTime(filter.since, Date.now());
      set((state) => ({ history: { ...state.history, status: 'loading' } }));
      try {
        const rows = await api.request('audit:list', {
          ...(filter.sessionId !== null ? { sessionId: filter.sessionId } : {}),
          ...(since !== undefined ? { since } : {}),
          ...(filter.tool !== null ? { tool: filter.tool } : {}),
          ...(filter.action !== null ? { action: filter.action } : {}),
          ...(filter.by !== null ? { by: filter.by } : {}),
        });
        if (request !== latest) return;
        set((state) => ({ history: { ...state.history, rows, status: 'ready', error: undefined } }));
      } catch (error) {
        if (request !== latest) return;
        set((state) => ({ history: { ...state.history, rows: [], status: 'error', error: errorMessage(error) } }));
      }
    },
  };
}

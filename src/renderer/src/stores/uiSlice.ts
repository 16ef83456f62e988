import type { GetState, SetState, StoreDeps } from './appState';
import { without } from './sessionsSlice';

/**
 * Where the window's link to the core stands (always 'connected' inside Electron). `tokenRefused`:
 * `tether serve` restarted and no longer takes this page's token; the page needs the new address.
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'unauthenticated' | 'tokenRefused';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  message: string;
}

/** What the person is looking at, and the window-wide notices. */
export interface UiSlice {
  view: 'main' | 'settings' | 'history';
  selectedSessionId: string | null;
  /** The project a new session is being written for (the task box starts it). */
  draftProjectId: string | null;
  toasts: Toast[];
  /**
   * Each session's task box text, kept while another session shows: what the person typed and has
   * not sent, and a message the core refused after they left (it comes back ahead of the rest).
   */
  taskDrafts: Record<string, string>;
  setTaskDraft(sessionId: string, text: string): void;
  connection: ConnectionState;
  /** While reconnecting: failed tries so far. */
  reconnectAttempts: number;
  /** Loads what every screen needs: projects, sessions, the inbox and settings. */
  init(): Promise<void>;
  /**
   * After the link to the core comes back, or opens with a new token: catch up on everything missed,
   * and load what `init` could not (a page reloaded while its token no longer held loaded nothing).
   */
  resync(): Promise<void>;
  selectSession(sessionId: string | null): void;
  startDraft(projectId: string): void;
  showSettings(): void;
  showMain(): void;
  notify(message: string, kind?: Toast['kind']): void;
  dismissToast(id: number): void;
  setConnection(connection: ConnectionState, reconnectAttempts?: number): void;
}

/** Toasts beyond this many push the oldest out, so a storm of failures cannot fill the screen. */
const MAX_TOASTS = 4;

export function createUiSlice(_deps: StoreDeps, set: SetState, get: GetState): UiSlice {
  let nextToast = 1;
  return {
    view: 'main',
    selectedSessionId: null,
    draftProjectId: null,
    toasts: [],
    taskDrafts: {},
    connection: 'connecting',
    reconnectAttempts: 0,

    setTaskDraft(sessionId, text) {
      set((state) => ({ taskDrafts: text ? { ...state.taskDrafts, [sessionId]: text } : without(state.taskDrafts, sessionId) }));
    },

    async init() {
      const state = get();
      await Promise.all([
        state.loadProjects(),
        state.loadSessions(),
        state.refreshInbox(),
        state.loadSettings(),
        state.loadUpdate(),
        state.loadLayout(),
      ]);
    },

    async resync() {
      const state = get();
      const selected = state.selectedSessionId;
      await Promise.all([
        state.loadProjects(),
        state.loadSessions(),
        state.refreshInbox(),
        state.resyncLogs(),
        state.loadSettings(),
        state.loadUpdate(),
        // Sizes the person set meanwhile win over the saved ones (loadLayout keeps them).
        state.loadLayout(),
        selected ? state.refreshDiff(selected) : Promise.resolve(),
      ]);
    },

    selectSession(sessionId) {
      // Full width is a way to review one session's changes; another session opens as usual.
      const fullWidth = get().reviewFullWidth && sessionId === get().selectedSessionId;
      set({ selectedSessionId: sessionId, draftProjectId: null, view: 'main', reviewFullWidth: fullWidth });
      if (sessionId === null) return;
      void get().loadSession(sessionId);
      void get().refreshDiff(sessionId);
    },

    startDraft(projectId) {
      set({ draftProjectId: projectId, selectedSessionId: null, view: 'main' });
    },

    showSettings() {
      set({ view: 'settings' });
      void get().loadSettings();
      void get().loadRules();
      void get().loadSettingsRules();
      void get().loadMcpServers();
    },

    showMain() {
      set({ view: 'main' });
    },

    notify(message, kind = 'error') {
      const toast: Toast = { id: nextToast++, kind, message };
      set((state) => ({ toasts: [...state.toasts, toast].slice(-MAX_TOASTS) }));
    },

    dismissToast(id) {
      set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
    },

    setConnection(connection, reconnectAttempts = 0) {
      set({ connection, reconnectAttempts });
    },
  };
}

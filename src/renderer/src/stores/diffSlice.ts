import type { FileChange, FileDiff } from '../../../shared/contract';
import type { GetState, SetState, StoreDeps } from './appState';
import type { LoadStatus } from './sessionsSlice';
import { errorMessage } from '../lib/errorMessage';

export interface SessionDiff {
  files: FileChange[];
  status: LoadStatus;
  error?: string;
}

export interface OpenFileDiff {
  sessionId: string;
  path: string;
  /** The last content fetched; kept while a refresh is under way so the editor does not blank. */
  diff: FileDiff | null;
  status: LoadStatus;
  error?: string;
}

/** The live diff: files the session changed against where it started, and the one being looked at. */
export interface DiffSlice {
  diffs: Record<string, SessionDiff>;
  /** The file picked in each session's list. */
  diffPath: Record<string, string>;
  fileDiff: OpenFileDiff | null;
  refreshDiff(sessionId: string): Promise<void>;
  /** Tools finish in bursts; one request after the burst settles. */
  scheduleDiffRefresh(sessionId: string): void;
  selectDiffFile(sessionId: string, path: string): Promise<void>;
}

export function createDiffSlice(deps: StoreDeps, set: SetState, get: GetState): DiffSlice {
  const { api } = deps;
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  let fileRequest = 0;

  async function loadFile(sessionId: string, path: string): Promise<void> {
    const ticket = ++fileRequest;
    set((state) => ({
      fileDiff: {
        sessionId,
        path,
        // The previous file stays on screen until the next arrives: the editor is kept, not re-created.
        diff: state.fileDiff?.sessionId === sessionId ? state.fileDiff.diff : null,
        status: 'loading',
      },
    }));
    try {
      const diff = await api.request('diff:file', { sessionId, path });
      if (ticket !== fileRequest) return;
      set({ fileDiff: { sessionId, path, diff, status: 'ready' } });
    } catch (error) {
      if (ticket !== fileRequest) return;
      set((state) => ({ fileDiff: { sessionId, path, diff: state.fileDiff?.diff ?? null, status: 'error', error: errorMessage(error) } }));
    }
  }

  return {
    diffs: {},
    diffPath: {},
    fileDiff: null,

    async refreshDiff(sessionId) {
      const timer = timers.get(sessionId);
      if (timer !== undefined) {
        clearTimeout(timer);
        timers.delete(sessionId);
      }
      set((state) => ({
        diffs: { ...state.diffs, [sessionId]: { files: state.diffs[sessionId]?.files ?? [], status: state.diffs[sessionId]?.status === 'ready' ? 'ready' : 'loading' } },
      }));
      let files: FileChange[];
      try {
        files = await api.request('diff:files', { sessionId });
      } catch (error) {
        set((state) => ({
          diffs: { ...state.diffs, [sessionId]: { files: state.diffs[sessionId]?.files ?? [], status: 'error', error: errorMessage(error) } },
        }));
        return;
      }
      if (!get().sessions[sessionId] && !get().logs[sessionId]) return; // deleted meanwhile
      set((state) => ({ diffs: { ...state.diffs, [sessionId]: { files, status: 'ready' } } }));
      if (get().selectedSessionId !== sessionId) return;
      const picked = get().diffPath[sessionId];
      const path = picked !== undefined && files.some((file) => file.path === picked) ? picked : files[0]?.path;
      if (path === undefined) {
        if (get().fileDiff?.sessionId === sessionId) set({ fileDiff: null });
        return;
      }
      if (path !== picked) set((state) => ({ diffPath: { ...state.diffPath, [sessionId]: path } }));
      await loadFile(sessionId, path);
    },

    scheduleDiffRefresh(sessionId) {
      // Other sessions refresh when they are selected.
      if (get().selectedSessionId !== sessionId) return;
      const timer = timers.get(sessionId);
      if (timer !== undefined) clearTimeout(timer);
      timers.set(
        sessionId,
        setTimeout(() => {
          timers.delete(sessionId);
          void get().refreshDiff(sessionId);
        }, deps.diffDebounceMs),
      );
    },

    async selectDiffFile(sessionId, path) {
      set((state) => ({ diffPath: { ...state.diffPath, [sessionId]: path } }));
      await loadFile(sessionId, path);
    },
  };
}

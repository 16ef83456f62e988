import type { RewindPreview } from '../../../shared/contract';
import type { RewindRestore } from '../../../shared/events';
import { errorMessage } from '../lib/errorMessage';
import type { GetState, SetState, StoreDeps } from './appState';

/** The "Rewind to here" dialog: the step, what a rewind would do there, and how the request went. */
export interface RewindDialogState {
  sessionId: string;
  toSeq: number;
  /** What the step is, in a few words: `your message "fix it"`, `write_file a.txt`. */
  label: string;
  preview: RewindPreview | null;
  /** Loading the preview, or doing the rewind. */
  busy: 'preview' | 'rewind' | null;
  error?: string;
}

export interface RewindSlice {
  rewindDialog: RewindDialogState | null;
  /** An undo under way, per session. */
  undoingRewind: Record<string, boolean>;
  openRewind(sessionId: string, toSeq: number, label: string): Promise<void>;
  closeRewind(): void;
  confirmRewind(restore: RewindRestore): Promise<void>;
  undoRewind(sessionId: string): Promise<void>;
}

export function createRewindSlice(deps: StoreDeps, set: SetState, get: GetState): RewindSlice {
  const { api } = deps;
  const current = (sessionId: string, toSeq: number) => {
    const dialog = get().rewindDialog;
    return dialog && dialog.sessionId === sessionId && dialog.toSeq === toSeq ? dialog : null;
  };
  const update = (sessionId: string, toSeq: number, change: Partial<RewindDialogState>) => {
    const dialog = current(sessionId, toSeq);
    if (dialog) set({ rewindDialog: { ...dialog, ...change } });
  };

  return {
    rewindDialog: null,
    undoingRewind: {},

    async openRewind(sessionId, toSeq, label) {
      set({ rewindDialog: { sessionId, toSeq, label, preview: null, busy: 'preview' } });
      try {
        const preview = await api.request('session:rewindPreview', { sessionId, toSeq });
        update(sessionId, toSeq, { preview, busy: null });
      } catch (error) {
        update(sessionId, toSeq, { busy: null, error: errorMessage(error) });
      }
    },

    closeRewind() {
      if (get().rewindDialog?.busy === 'rewind') return;
      set({ rewindDialog: null });
    },

    async confirmRewind(restore) {
      const dialog = get().rewindDialog;
      if (!dialog || dialog.busy) return;
      const { sessionId, toSeq } = dialog;
      update(sessionId, toSeq, { busy: 'rewind', error: undefined });
      try {
        await api.request('session:rewind', { sessionId, toSeq, restore });
        if (current(sessionId, toSeq)) set({ rewindDialog: null });
        // The files changed outside any tool call: the live diff asks again.
        void get().refreshDiff(sessionId);
      } catch (error) {
        update(sessionId, toSeq, { busy: null, error: errorMessage(error) });
      }
    },

    async undoRewind(sessionId) {
      if (get().undoingRewind[sessionId]) return;
      set((state) => ({ undoingRewind: { ...state.undoingRewind, [sessionId]: true } }));
      try {
        await api.request('session:undoRewind', { sessionId });
        void get().refreshDiff(sessionId);
      } catch (error) {
        get().notify(`Could not undo the rewind: ${errorMessage(error)}`);
      } finally {
        set((state) => ({ undoingRewind: { ...state.undoingRewind, [sessionId]: false } }));
      }
    },
  };
}

import type { PaneLayout } from '../../../shared/contract';
import type { GetState, SetState, StoreDeps } from './appState';

/** How long sizes must stand still before they are saved: a drag sends one save, not one per pixel. */
const SAVE_AFTER_MS = 400;

/**
 * The window's panes: how wide the sidebar and the review column are, how tall the terminal is, and
 * which of them are folded away. Changes show at once and are kept in the data folder shortly after.
 */
export interface LayoutSlice {
  layout: PaneLayout;
  /** The keyboard shortcuts sheet is open. */
  shortcutsOpen: boolean;
  /**
   * The window is wide enough for the review column beside the conversation without squeezing it
   * (see ROOMY_WINDOW): below, the column stays folded to its rail until the person opens it.
   */
  roomyWindow: boolean;
  /** The review takes the conversation's place (the session's changes full width), until the person goes back. */
  reviewFullWidth: boolean;
  setRoomyWindow(roomy: boolean): void;
  setReviewFullWidth(on: boolean): void;
  loadLayout(): Promise<void>;
  setLayout(patch: Partial<PaneLayout>): void;
  /** Shows or hides the terminal; `shown` is whether it shows now (it may be hidden by default). */
  toggleTerminal(shown: boolean): void;
  toggleSidebar(): void;
  /** Folds or opens the review column; `reviewShown` is whether it shows now (it may be folded by default). */
  toggleReview(reviewShown: boolean): void;
  setShortcutsOpen(open: boolean): void;
}

export function createLayoutSlice(deps: StoreDeps, set: SetState, get: GetState): LayoutSlice {
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  // The person moved something before the saved sizes arrived: theirs win.
  let touched = false;

  function save() {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      deps.api.request('layout:save', get().layout).catch((error: unknown) => {
        // Sizes are a convenience: the window works on; say so once where a developer looks.
        console.warn('Tether could not keep the pane sizes:', error);
      });
    }, SAVE_AFTER_MS);
  }

  function update(patch: Partial<PaneLayout>) {
    touched = true;
    set((state) => ({ layout: { ...state.layout, ...patch } }));
    save();
  }

  return {
    layout: {},
    shortcutsOpen: false,
    roomyWindow: true,
    reviewFullWidth: false,

    async loadLayout() {
      try {
        const saved = await deps.api.request('layout:get', {});
        if (!touched) set({ layout: saved });
      } catch (error) {
        console.warn('Tether could not read the saved pane sizes; the defaults are used:', error);
      }
    },

    setLayout: update,

    toggleTerminal(shown) {
      update({ terminalOpen: !shown });
    },

    toggleSidebar() {
      update({ sidebarCollapsed: !get().layout.sidebarCollapsed });
    },

    toggleReview(reviewShown) {
      update({ reviewCollapsed: reviewShown });
      if (reviewShown) set({ reviewFullWidth: false });
    },

    setShortcutsOpen(shortcutsOpen) {
      set({ shortcutsOpen });
    },

    setRoomyWindow(roomyWindow) {
      if (get().roomyWindow !== roomyWindow) set({ roomyWindow });
    },

    setReviewFullWidth(reviewFullWidth) {
      // The column is left as it was (folded or open), so going back finds the window as the person left it.
      set({ reviewFullWidth });
    },
  };
}

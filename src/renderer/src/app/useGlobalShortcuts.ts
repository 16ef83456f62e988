import { useEffect } from 'react';
import { useAppStore } from '../stores/useApp';
import type { AppState } from '../stores/appState';
import { selectProjectSessions } from '../stores/selectors';
import { isEditable } from '../features/permission/requestGuard';
import { selectReviewShown, selectTerminalShown } from '../stores/paneDefaults';

/** Where Ctrl/Cmd+Shift+1…4 go: the first control of each pane that takes focus. */
const paneTargets: Record<string, string[]> = {
  Digit1: ['[data-testid="sidebar"] .inbox-header', '[data-testid="sidebar-open"]'],
  Digit2: ['[data-testid="task-box"]', '.main-area textarea, .main-area input'],
  Digit3: ['[data-testid="review-column"] button', '[data-testid="review-open"]'],
  Digit4: ['[data-testid="terminal-panel"] .xterm-helper-textarea', '[data-testid="terminal-panel"] .panel-header'],
};

/**
 * Keyboard paths for the whole window (the ? sheet lists them all, see shortcuts.ts). They work while
 * a permission request waits (it blocks nothing); F6 and Ctrl/Cmd+Shift+A, which reach a request,
 * belong to the request and the announcer.
 */
export function useGlobalShortcuts(): void {
  const store = useAppStore();
  useEffect(() => {
    function handleKeyDown(event: KeyboardEvent) {
      const mod = event.ctrlKey || event.metaKey;
      const state = store.getState();
      const key = event.key.toLowerCase();
      const typing = isEditable(event.target instanceof Element ? event.target : null);
      if (event.key === '?' && !mod && !event.altKey && !typing && !event.defaultPrevented) {
        event.preventDefault();
        state.setShortcutsOpen(true);
      } else if (mod && event.key === ',') {
        event.preventDefault();
        if (state.view === 'settings') state.showMain();
        else state.showSettings();
      } else if (event.ctrlKey && event.key === '`') {
        event.preventDefault();
        if (state.selectedSessionId) state.toggleTerminal(selectTerminalShown(state, state.selectedSessionId));
      } else if (mod && event.altKey && !event.shiftKey && event.code === 'KeyF') {
        // By the key's place: Alt changes the character it types on a Mac.
        if (!state.selectedSessionId || state.view !== 'main') return;
        event.preventDefault();
        state.setReviewFullWidth(!state.reviewFullWidth);
      } else if (mod && !event.shiftKey && key === 'b') {
        event.preventDefault();
        if (event.altKey) {
          if (state.selectedSessionId) state.toggleReview(selectReviewShown(state, state.selectedSessionId));
        } else state.toggleSidebar();
      } else if (mod && event.shiftKey && !event.altKey && paneTargets[event.code]) {
        event.preventDefault();
        focusPane(event.code, state);
      } else if (mod && !event.shiftKey && key === 'l') {
        const box = document.querySelector<HTMLTextAreaElement>('[data-testid="task-box"]');
        if (box) {
          event.preventDefault();
          box.focus();
        }
      } else if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
        const ordered = [...state.projects.map((project) => project.id), null].flatMap((projectId) =>
          selectProjectSessions(state, projectId),
        );
        if (ordered.length === 0) return;
        event.preventDefault();
        const index = ordered.findIndex((session) => session.id === state.selectedSessionId);
        const step = event.key === 'ArrowUp' ? -1 : 1;
        const next = ordered[index === -1 ? 0 : (index + step + ordered.length) % ordered.length]!;
        state.selectSession(next.id);
      }
    }
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [store]);
}

/** Focuses a pane, opening it first if it is folded (the sidebar, the review column, the terminal). */
function focusPane(code: string, state: AppState): void {
  const find = () =>
    paneTargets[code]!.map((selector) => document.querySelector<HTMLElement>(selector)).find((element) => element !== null);
  const target = find();
  if (target && !target.matches('[data-testid="sidebar-open"], [data-testid="review-open"]')) {
    target.focus();
    return;
  }
  if (code === 'Digit1') state.setLayout({ sidebarCollapsed: false });
  else if (code === 'Digit3') state.setLayout({ reviewCollapsed: false });
  else if (code === 'Digit4') state.setLayout({ terminalOpen: true });
  // The pane opens on the next frame; focus follows it there.
  requestAnimationFrame(() => requestAnimationFrame(() => find()?.focus()));
}

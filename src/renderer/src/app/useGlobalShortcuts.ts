import { useEffect } from 'react';
import { useAppStore } from '../stores/useApp';
import { selectProjectSessions } from '../stores/selectors';

/**
 * Keyboard paths for the whole window: Ctrl/Cmd+, settings, Ctrl+` the terminal, Alt+Up/Down the
 * previous or next session, Ctrl/Cmd+L the task box. They work while a permission request waits (it
 * blocks nothing); F6 and Ctrl/Cmd+Shift+A, which reach the request, are the request's own.
 */
export function useGlobalShortcuts(): void {
  const store = useAppStore();
  useEffect(() => {
    function handleKeyDown(event: KeyboardEvent) {
      const mod = event.ctrlKey || event.metaKey;
      const state = store.getState();
      if (mod && event.key === ',') {
        event.preventDefault();
        if (state.view === 'settings') state.showMain();
        else state.showSettings();
      } else if (event.ctrlKey && event.key === '`') {
        event.preventDefault();
        state.toggleTerminal();
      } else if (mod && !event.shiftKey && event.key.toLowerCase() === 'l') {
        const box = document.querySelector<HTMLTextAreaElement>('[data-testid="task-box"]');
        if (box) {
          event.preventDefault();
          box.focus();
        }
      } else if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
        const ordered = [...state.projects.map((project) => project.id), null].flatMap((projectId) => selectProjectSessions(state, projectId));
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

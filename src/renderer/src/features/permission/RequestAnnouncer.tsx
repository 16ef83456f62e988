import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppStore } from '../../stores/useApp';
import { selectCurrentApproval } from '../../stores/selectors';
import { trackFocusOutsideRequests } from './focusReturn';
import { installRequestGuard, isReachShortcut, reachKeys } from './requestGuard';

/**
 * What the window does about permission requests wherever the person is: it says (politely, so a
 * screen reader does not cut into typing) that one waits, in which session, and how to reach it;
 * and when the view shows no request, the reach shortcut goes to the oldest one waiting, in its
 * session. The request itself is docked in its session's view ({@link SessionRequest}).
 */
export function RequestAnnouncer() {
  const oldest = useApp(useShallow(selectCurrentApproval));
  const sessionTitle = useApp((state) => (oldest ? state.sessions[oldest.entry.sessionId]?.title || oldest.entry.sessionTitle : ''));
  const store = useAppStore();

  // The guard must know about typing before any request appears.
  useEffect(() => installRequestGuard(), []);
  useEffect(() => trackFocusOutsideRequests(), []);

  useEffect(() => {
    function handleKeyDown(event: KeyboardEvent) {
      if (!isReachShortcut(event) || event.repeat) return;
      // A request on screen handles its own shortcut (going to it, or back).
      if (document.querySelector('[data-testid="permission-dialog"]')) return;
      const state = store.getState();
      const first = selectCurrentApproval(state);
      if (!first) return;
      event.preventDefault();
      event.stopPropagation();
      state.openApproval(first.entry, { reach: true });
    }
    window.addEventListener('keydown', handleKeyDown, true);
    return () => window.removeEventListener('keydown', handleKeyDown, true);
  }, [store]);

  const announcement = oldest
    ? `Permission required in “${sessionTitle || 'Untitled session'}”: ${oldest.approval.tool}, ${oldest.approval.summary}. Press ${reachKeys.first} to answer.`
    : '';
  return (
    <p className="visually-hidden" role="status" aria-live="polite" data-testid="permission-announcer">
      {announcement}
    </p>
  );
}

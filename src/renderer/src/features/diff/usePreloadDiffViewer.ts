import { useEffect } from 'react';
import { useApp } from '../../stores/useApp';
import { diffViewerPreloaded, preloadDiffViewer } from './monacoViews';

/**
 * Loads the diff editor and its worker in the background before anyone opens a diff, so opening one
 * does not wait for Monaco (a few hundred milliseconds of the page's main thread, evaluated all at once):
 *
 * - at once while a request that would change a file waits (an edit or a write, with its diff): once
 *   the person allows it, the change is in the review, and they may open it from the inbox or a link;
 * - once the page is idle, when the sidebar lists a session that has run: a person who reloads and
 *   opens one of them sees its changes first. A page with no such session (a first start) loads none
 *   of Monaco until it needs it.
 */
export function usePreloadDiffViewer(): void {
  // Both selectors run on every store change (streamed tokens included): once Monaco is asked for, they stop looking.
  const changeWaits = useApp(
    (state) =>
      !diffViewerPreloaded() &&
      state.inbox.some((entry) => state.logs[entry.sessionId]?.state.approvals[entry.approvalId]?.change !== undefined),
  );
  const sessionHasRun = useApp(
    (state) => !diffViewerPreloaded() && Object.values(state.sessions).some((session) => session.status !== 'new'),
  );
  useEffect(() => {
    if (changeWaits) preloadDiffViewer();
  }, [changeWaits]);
  useEffect(() => {
    if (!sessionHasRun) return undefined;
    // After the first screen is drawn and nothing else is waiting; on a busy page, within two seconds.
    const idle = requestIdleCallback(() => preloadDiffViewer(), { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(idle);
  }, [sessionHasRun]);
}

const IDLE_TIMEOUT_MS = 2_000;

import { useEffect } from 'react';
import { useApp } from '../../stores/useApp';
import { preloadDiffViewer } from './monacoViews';

/**
 * While a request that would change a file waits (an edit or a write, with its diff), the diff editor
 * and its worker load in the background: once the person allows it, the change is in the review, and
 * opening it (from the inbox, or a link) should not wait for Monaco.
 */
export function usePreloadForRequests(): void {
  const changeWaits = useApp((state) =>
    state.inbox.some((entry) => state.logs[entry.sessionId]?.state.approvals[entry.approvalId]?.change !== undefined),
  );
  useEffect(() => {
    if (changeWaits) preloadDiffViewer();
  }, [changeWaits]);
}

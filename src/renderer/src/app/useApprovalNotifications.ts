import { useEffect } from 'react';
import { useAppStore } from '../stores/useApp';

/**
 * A system notification when a session starts waiting for approval while the window is not in
 * front. Permission is asked the first time one is needed, not at start-up.
 */
export function useApprovalNotifications(): void {
  const store = useAppStore();
  useEffect(() => {
    if (typeof Notification === 'undefined') return undefined;
    // Requests already waiting when the window opened are in the inbox and the title; no alert for them.
    const seen = new Set<string>(store.getState().inbox.map((entry) => entry.approvalId));
    let primed = store.getState().inboxStatus === 'ready';
    return store.subscribe((state) => {
      if (!primed) {
        if (state.inboxStatus !== 'ready') return;
        primed = true;
        for (const entry of state.inbox) seen.add(entry.approvalId);
        return;
      }
      for (const entry of state.inbox) {
        if (seen.has(entry.approvalId)) continue;
        seen.add(entry.approvalId);
        if (document.hasFocus()) continue;
        const approval = state.logs[entry.sessionId]?.state.approvals[entry.approvalId];
        void notify(entry.sessionTitle || 'A session', approval?.summary ?? 'An action is waiting for your approval.', entry.sessionId);
      }
    });
  }, [store]);

  async function notify(title: string, body: string, sessionId: string): Promise<void> {
    if (Notification.permission === 'default') {
      try {
        await Notification.requestPermission();
      } catch {
        return;
      }
    }
    if (Notification.permission !== 'granted') return;
    const notification = new Notification(`Permission required: ${title}`, { body, tag: `tether-approval-${sessionId}` });
    notification.onclick = () => {
      window.focus();
      store.getState().selectSession(sessionId);
      notification.close();
    };
  }
}

import type { SessionStatus } from '../../../../shared/session';
import type { AppStore } from '../../stores/createAppStore';
import { isActive } from '../../stores/selectors';
import { endedNotice, waitingNotice, type Notice } from './notificationText';

/** How notices reach the person: the browser's Notification in the window, a fake in tests. */
export interface NoticeSink {
  /** Whether the window is in front: then the person sees the change, and no notice is shown. */
  hasFocus(): boolean;
  /** Shows a notice; `open` is what clicking it does. */
  show(notice: Notice, open: () => void): void;
}

/**
 * Turns what the store learns into notices: a request newly waiting, and a session that was running
 * and finished or failed. Requests already waiting when the window opened, and sessions that had
 * already ended, are in the window to see: no notice for them. Each kind can be turned off in the
 * layout's `notifications`. Returns the unsubscribe.
 */
export function watchNotifications(store: AppStore, sink: NoticeSink): () => void {
  const seen = new Set<string>(store.getState().inbox.map((entry) => entry.approvalId));
  let primed = store.getState().inboxStatus === 'ready';
  const lastStatus = new Map<string, SessionStatus>();
  for (const session of Object.values(store.getState().sessions)) lastStatus.set(session.id, session.status);

  return store.subscribe((state) => {
    const choices = state.layout.notifications ?? {};
    const wanted = (notice: Notice) => choices[notice.kind] !== false && !sink.hasFocus();

    for (const session of Object.values(state.sessions)) {
      const before = lastStatus.get(session.id);
      if (before === session.status) continue;
      lastStatus.set(session.id, session.status);
      if (before === undefined || !isActive(before)) continue;
      // The log's reason only once the log has seen this same end: the row can come before the event.
      const log = state.logs[session.id]?.state;
      const notice = endedNotice(session, log?.status === session.status ? log.endReason : undefined);
      if (notice && wanted(notice)) {
        sink.show(notice, () => store.getState().selectSession(session.id));
      }
    }

    if (!primed) {
      if (state.inboxStatus !== 'ready') return;
      primed = true;
      for (const entry of state.inbox) seen.add(entry.approvalId);
      return;
    }
    for (const entry of state.inbox) {
      if (seen.has(entry.approvalId)) continue;
      const log = state.logs[entry.sessionId];
      const approval = log?.state.approvals[entry.approvalId];
      // A session the window does not follow is listed before its log arrives (the inbox asks for it):
      // wait for the log, so the notice can name the tool and the command.
      if (!approval && !log?.loaded) continue;
      seen.add(entry.approvalId);
      const title = entry.sessionTitle || state.sessions[entry.sessionId]?.title || '';
      const notice = waitingNotice({ id: entry.sessionId, title }, entry.approvalId, approval);
      if (wanted(notice)) sink.show(notice, () => store.getState().openApproval(entry, { reach: true }));
    }
  });
}

import { useEffect } from 'react';
import { useAppStore } from '../stores/useApp';
import { watchNotifications } from './notifications/watchNotifications';
import type { Notice } from './notifications/notificationText';

/**
 * System notifications while the window is not in front: a request waiting, a session finished or
 * failed (see watchNotifications). Permission is asked the first time one is needed, not at start-up.
 */
export function useSystemNotifications(): void {
  const store = useAppStore();
  useEffect(() => {
    if (typeof Notification === 'undefined') return undefined;
    return watchNotifications(store, { hasFocus: () => document.hasFocus(), show: (notice, open) => void show(notice, open) });
  }, [store]);
}

async function show(notice: Notice, open: () => void): Promise<void> {
  if (Notification.permission === 'default') {
    try {
      await Notification.requestPermission();
    } catch {
      return;
    }
  }
  if (Notification.permission !== 'granted') return;
  const notification = new Notification(notice.title, { body: notice.body, tag: notice.tag });
  notification.onclick = () => {
    window.focus();
    open();
    notification.close();
  };
}

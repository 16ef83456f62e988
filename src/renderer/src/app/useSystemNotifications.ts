import { useEffect } from 'react';
import { getApi } from '../lib/api';
import { useAppStore } from '../stores/useApp';
import { watchNotifications } from './notifications/watchNotifications';
import type { Notice } from './notifications/notificationText';
import { noticeShower } from './notifications/showNotice';

/**
 * System notifications while the window is not in front: a request waiting, a session finished or
 * failed (see watchNotifications). The desktop app shows them as the OS's own (noticeShower); the page
 * shows web notifications, asking permission the first time one is needed, not at start-up.
 */
export function useSystemNotifications(): void {
  const store = useAppStore();
  useEffect(() => {
    const shower = noticeShower(getApi(), showWebNotice);
    const stop = watchNotifications(store, { hasFocus: () => document.hasFocus(), show: (notice, open) => void shower.show(notice, open) });
    return () => {
      stop();
      shower.stop();
    };
  }, [store]);
}

async function showWebNotice(notice: Notice, open: () => void): Promise<void> {
  if (typeof Notification === 'undefined') return;
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

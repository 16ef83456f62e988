import type { TetherApi } from '../../../../shared/contract';
import type { Notice } from './notificationText';

/** Shows a notice with the page's own means (the web's Notification); `open` is what clicking it does. */
export type WebNotice = (notice: Notice, open: () => void) => void | Promise<void>;

/** Opens kept for native notifications: enough for every one a person could still click. */
const OPENS_KEPT = 200;

/**
 * How the window shows a notice: the host first (the desktop app shows the OS's own notification,
 * with Open and Deny buttons for a request on macOS), else the page's web Notification, as under
 * `tether serve`, whose host always declines. When the host shows it, clicking it or its Open
 * button comes back as `notification:action` and opens what it is about here; its Deny is
 * answered in main. Returns the show function and the unsubscribe.
 */
export function noticeShower(api: TetherApi, web: WebNotice): { show(notice: Notice, open: () => void): Promise<void>; stop(): void } {
  const opens = new Map<string, () => void>();
  const stop = api.on('notification:action', ({ tag, action }) => {
    if (action === 'open') opens.get(tag)?.();
  });
  return {
    async show(notice, open) {
      let shown = false;
      try {
        shown = (await api.request('notification:show', notice)).shown;
      } catch {
        // A host that cannot show it natively (or an older one): the page shows it.
      }
      if (!shown) return web(notice, open);
      opens.delete(notice.tag);
      opens.set(notice.tag, open);
      if (opens.size > OPENS_KEPT) opens.delete(opens.keys().next().value as string);
    },
    stop,
  };
}

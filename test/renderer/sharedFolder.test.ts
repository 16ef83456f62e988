import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../src/shared/contract';
import { liveSessionsSharingFolder } from '../../src/renderer/src/features/diff/SharedFolderNotice';
import { FakeApi, settle, storedEvents, usage } from './fakeApi';
import { harness } from './storeHarness';

// The diff panel's word on a shared folder: which live sessions work in the same folder, and the
// move to a worktree it offers, in the renderer store.

function summary(id: string, workspace: string, status: SessionSummary['status'], title = id): SessionSummary {
  return {
    id,
    projectId: 'p1',
    title,
    workspace,
    model: 'm',
    status,
    pendingApprovals: 0,
    mode: 'ask',
    updatedAt: 1,
    lastSeq: 1,
    usage,
    costUsd: null,
  };
}

function setup(extra: ConstructorParameters<typeof FakeApi>[0] = {}) {
  const api = new FakeApi({
    'session:events': ({ sessionId }) =>
      storedEvents(sessionId, [{ type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'b', maxSteps: 3 }]),
    'diff:files': () => [],
    ...extra,
  });
  const { store } = harness(api, 0);
  return { api, store };
}

describe('a folder shared by live sessions', () => {
  it('names the other sessions working or waiting in the same folder, and none that stopped, elsewhere or in a worktree', async () => {
    const { api, store } = setup();
    api.emit('sessions:changed', summary('s1', '/w', 'done'));
    api.emit('sessions:changed', summary('s2', '/w', 'working', 'Fix the tests'));
    api.emit('sessions:changed', summary('s3', '/w', 'waiting', 'Write docs'));
    api.emit('sessions:changed', summary('s4', '/w', 'done'));
    api.emit('sessions:changed', summary('s5', '/other', 'working'));
    api.emit('sessions:changed', summary('s6', '/data/worktrees/p1/abcd1234', 'working'));
    await settle();
    expect(liveSessionsSharingFolder(store.getState(), 's1')).toEqual(['Fix the tests', 'Write docs']);
    expect(liveSessionsSharingFolder(store.getState(), 's2')).toEqual(['Write docs']);
    expect(liveSessionsSharingFolder(store.getState(), 's5')).toEqual([]);
    expect(liveSessionsSharingFolder(store.getState(), 's6')).toEqual([]);
    expect(liveSessionsSharingFolder(store.getState(), 'nobody')).toEqual([]);
    api.emit('sessions:changed', summary('s2', '/w', 'done', 'Fix the tests'));
    await settle();
    expect(liveSessionsSharingFolder(store.getState(), 's1')).toEqual(['Write docs']);
  });

  it('moves the session to a worktree through main, then says where its changes went', async () => {
    const { api, store } = setup({
      'worktree:move': () => ({
        branch: 'tether/abcd1234',
        path: '/data/worktrees/p1/abcd1234',
        carried: ['a.ts', 'b.ts'],
        leftBehind: [],
      }),
    });
    store.getState().selectSession('s1');
    await settle();
    await store.getState().moveToWorktree('s1');
    expect(api.callsTo('worktree:move')).toEqual([{ sessionId: 's1' }]);
    expect(store.getState().reviewNotice.s1).toEqual({
      kind: 'info',
      message: 'This session now works in its own worktree on tether/abcd1234, with its changes to 2 files.',
    });
    expect(store.getState().reviewPending.s1).toBeUndefined();
  });

  it('shows why a move was refused', async () => {
    const { store } = setup({
      'worktree:move': () => {
        throw new Error('This session cannot move to a worktree: /w is not in a git repository.');
      },
    });
    store.getState().selectSession('s1');
    await settle();
    await store.getState().moveToWorktree('s1');
    expect(store.getState().reviewNotice.s1).toEqual({
      kind: 'error',
      message: 'This session cannot move to a worktree: /w is not in a git repository.',
    });
  });
});

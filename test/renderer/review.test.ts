import { describe, expect, it } from 'vitest';
import type { DiffHunk, FileChange } from '../../src/shared/contract';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { harness } from './storeHarness';

// The diff panel's review actions in the renderer store: what each asks the core, and what shows after.

const files: FileChange[] = [{ path: 'src/a.ts', status: 'modified', additions: 2, deletions: 1, binary: false }];
const hunk: DiffHunk = { oldStart: 3, oldLines: 1, newStart: 3, newLines: 2, fingerprint: 'abc' };

function setup(extra: ConstructorParameters<typeof FakeApi>[0] = {}) {
  const api = new FakeApi({
    'session:events': () =>
      storedEvents('s1', [{ type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'b', maxSteps: 3 }]),
    'diff:files': () => files,
    'diff:file': ({ path }) => ({
      path,
      status: 'modified',
      before: 'a',
      after: 'b',
      language: 'typescript',
      binary: false,
      hunks: [hunk],
    }),
    'diff:revert': ({ path }) => ({ path, note: `${path} line 3 (hunk)`, undoId: 'u1' }),
    'diff:accept': ({ path }) => ({ note: path ?? 'the session’s changes', acceptSeq: 9 }),
    'diff:undoAccept': () => ({ note: 'src/a.ts' }),
    ...extra,
  });
  const { store } = harness(api, 0);
  store.getState().selectSession('s1');
  return { api, store };
}

describe('review actions', () => {
  it('reverts a hunk by index and fingerprint in the chosen scope, then reloads the diff', async () => {
    const { api, store } = setup();
    await settle();
    await store.getState().setDiffScope('s1', 'turn');
    expect(api.callsTo('diff:files').at(-1)).toEqual({ sessionId: 's1', scope: 'turn' });
    const before = api.callsTo('diff:files').length;
    await store.getState().revertHunk('s1', 'src/a.ts', 0, hunk);
    expect(api.callsTo('diff:revert')).toEqual([
      { sessionId: 's1', path: 'src/a.ts', scope: 'turn', hunk: { index: 0, fingerprint: 'abc' } },
    ]);
    expect(api.callsTo('diff:files').length).toBe(before + 1);
    expect(store.getState().reviewPending.s1).toBeUndefined();
  });

  it('asks for a reading of the folder as it is now when the person refreshes, and joins one under way otherwise', async () => {
    const { api, store } = setup();
    await settle();
    await store.getState().refreshDiff('s1', { fresh: true });
    expect(api.callsTo('diff:files').at(-1)).toEqual({ sessionId: 's1', fresh: true });
    await store.getState().refreshDiff('s1');
    expect(api.callsTo('diff:files').at(-1)).toEqual({ sessionId: 's1' });
  });

  it('shows why a revert was refused, and says what an accept did', async () => {
    const { store } = setup({
      'diff:revert': () => {
        throw new Error('The agent is still working in this session');
      },
    });
    await settle();
    await store.getState().revertFile('s1', 'src/a.ts');
    expect(store.getState().reviewNotice.s1).toEqual({ kind: 'error', message: 'The agent is still working in this session' });
    await store.getState().acceptChanges('s1');
    expect(store.getState().reviewNotice.s1).toEqual({ kind: 'info', message: 'Accepted the session’s changes.' });
  });

  it('accepts one file in the chosen scope, then offers to undo that accept by its seq', async () => {
    const { api, store } = setup();
    await settle();
    await store.getState().setDiffScope('s1', 'turn');
    await store.getState().acceptFile('s1', 'src/a.ts');
    expect(api.callsTo('diff:accept')).toEqual([{ sessionId: 's1', path: 'src/a.ts', scope: 'turn' }]);
    expect(store.getState().reviewNotice.s1).toEqual({ kind: 'info', message: 'Accepted src/a.ts.' });
    expect(store.getState().lastAccept.s1).toEqual({ note: 'src/a.ts', acceptSeq: 9 });
    await store.getState().undoAccept('s1');
    expect(api.callsTo('diff:undoAccept')).toEqual([{ sessionId: 's1', acceptSeq: 9 }]);
    expect(store.getState().reviewNotice.s1).toEqual({ kind: 'info', message: 'Undid the accept of src/a.ts: back in the list.' });
    expect(store.getState().lastAccept.s1).toBeUndefined();
  });

  it('offers no undo for an accept once another review action happened', async () => {
    const { store } = setup();
    await settle();
    await store.getState().acceptChanges('s1');
    expect(store.getState().lastAccept.s1?.acceptSeq).toBe(9);
    await store.getState().revertFile('s1', 'src/a.ts');
    expect(store.getState().lastAccept.s1).toBeUndefined();
    expect(store.getState().lastRevert.s1?.undoId).toBe('u1');
  });

  it('offers to undo the latest revert, asks main with its id, and says what came of it', async () => {
    const { api, store } = setup({ 'diff:undoRevert': () => ({ path: 'src/a.ts', note: 'src/a.ts line 3 (hunk)' }) });
    await settle();
    await store.getState().revertHunk('s1', 'src/a.ts', 0, hunk);
    expect(store.getState().reviewNotice.s1).toEqual({ kind: 'info', message: 'Reverted src/a.ts line 3 (hunk).' });
    expect(store.getState().lastRevert.s1?.undoId).toBe('u1');
    await store.getState().undoRevert('s1');
    expect(api.callsTo('diff:undoRevert')).toEqual([{ sessionId: 's1', undoId: 'u1' }]);
    expect(store.getState().reviewNotice.s1).toEqual({ kind: 'info', message: 'Undid the revert of src/a.ts line 3 (hunk).' });
    expect(store.getState().lastRevert.s1).toBeUndefined();
  });

  it('shows main’s refusal of an undo, and ends the offer when the files change or another action starts', async () => {
    const { store } = setup({
      'diff:undoRevert': () => {
        throw new Error('src/a.ts changed after it was reverted, so the revert was not undone');
      },
    });
    await settle();
    await store.getState().revertFile('s1', 'src/a.ts');
    await store.getState().undoRevert('s1');
    expect(store.getState().reviewNotice.s1).toEqual({
      kind: 'error',
      message: 'src/a.ts changed after it was reverted, so the revert was not undone',
    });
    expect(store.getState().lastRevert.s1).toBeUndefined();

    await store.getState().revertFile('s1', 'src/a.ts');
    expect(store.getState().lastRevert.s1).toBeDefined();
    store.getState().scheduleDiffRefresh('s1');
    expect(store.getState().lastRevert.s1).toBeUndefined();

    await store.getState().revertFile('s1', 'src/a.ts');
    await store.getState().acceptChanges('s1');
    expect(store.getState().lastRevert.s1).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { DiffHunk, FileChange } from '../../src/shared/contract';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { harness } from './storeHarness';

// The diff panel's review actions in the renderer store: what each asks the core, and what shows after.

const files: FileChange[] = [{ path: 'src/a.ts', status: 'modified', additions: 2, deletions: 1, binary: false }];
const hunk: DiffHunk = { oldStart: 3, oldLines: 1, newStart: 3, newLines: 2, fingerprint: 'abc' };

function setup(extra: ConstructorParameters<typeof FakeApi>[0] = {}) {
  const api = new FakeApi({
    'session:events': () => storedEvents('s1', [{ type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'b', maxSteps: 3 }]),
    'diff:files': () => files,
    'diff:file': ({ path }) => ({ path, before: 'a', after: 'b', language: 'typescript', binary: false, hunks: [hunk] }),
    'diff:revert': ({ path }) => ({ path, note: `${path} line 3 (hunk)`, undoId: 'u1' }),
    'diff:accept': () => undefined,
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
    expect(api.callsTo('diff:revert')).toEqual([{ sessionId: 's1', path: 'src/a.ts', scope: 'turn', hunk: { index: 0, fingerprint: 'abc' } }]);
    expect(api.callsTo('diff:files').length).toBe(before + 1);
    expect(store.getState().reviewPending.s1).toBeUndefined();
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
});

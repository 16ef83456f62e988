import { describe, expect, it } from 'vitest';
import type { RewindPreview } from '../../src/shared/contract';
import { rewindAnchors } from '../../src/renderer/src/features/chat/rewindSteps';
import { foldEvents } from '../../src/shared/session';
import { FakeApi, settle, storedEvents, usage } from './fakeApi';
import { harness } from './storeHarness';

// The rewind dialog's store: what it asks the host, when it closes, and what it tells the person.

const preview: RewindPreview = { toSeq: 2, files: [], skipped: [], warnings: [], conversationItems: 3, working: false, unasked: [] };

describe('the rewind slice', () => {
  it('loads the preview, rewinds with the chosen restore, closes, and asks for the diff again', async () => {
    const api = new FakeApi({
      'session:rewindPreview': () => preview,
      'session:rewind': () => ({ seq: 9, files: ['a.txt'], warnings: [] }),
      'diff:files': () => [],
    });
    const { store } = harness(api);
    await store.getState().openRewind('s1', 2, 'your message "go"');
    expect(store.getState().rewindDialog).toMatchObject({ sessionId: 's1', toSeq: 2, preview, busy: null });
    await store.getState().confirmRewind('files');
    await settle();
    expect(api.callsTo('session:rewind')).toEqual([{ sessionId: 's1', toSeq: 2, restore: 'files' }]);
    expect(store.getState().rewindDialog).toBeNull();
    expect(api.callsTo('diff:files').length).toBeGreaterThan(0);
  });

  it("keeps the dialog open with the host's reason when the rewind is refused", async () => {
    const api = new FakeApi({
      'session:rewindPreview': () => preview,
      'session:rewind': () => {
        throw new Error('Cannot rewind while the agent is working on this session: stop it (or wait until it finishes), then try again.');
      },
    });
    const { store } = harness(api);
    await store.getState().openRewind('s1', 2, 'step');
    await store.getState().confirmRewind('both');
    expect(store.getState().rewindDialog).toMatchObject({ busy: null, error: expect.stringMatching(/while the agent is working/) });
  });

  it('reports a failed undo as a toast', async () => {
    const api = new FakeApi({
      'session:undoRewind': () => {
        throw new Error('There is no rewind to undo.');
      },
    });
    const { store } = harness(api);
    await store.getState().undoRewind('s1');
    expect(store.getState().toasts.at(-1)?.message).toMatch(/Could not undo the rewind: There is no rewind to undo/);
    expect(store.getState().undoingRewind.s1).toBe(false);
  });
});

describe('rewindAnchors', () => {
  it('puts "Rewind to here" on user messages (by item) and on checkpointed tool cards (by call)', () => {
    const state = foldEvents(
      storedEvents('s1', [
        { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://x', maxSteps: 5 },
        { type: 'user.messaged', text: 'go' },
        { type: 'checkpoint.created', callId: null, commit: 'c0', changed: true, skipped: 0 },
        { type: 'model.responded', items: [{ type: 'tool_call', callId: 'call_a', name: 'write_file', arguments: '{}' }], usage },
        { type: 'tool.finished', callId: 'call_a', name: 'write_file', outcome: 'ok', title: 'w', output: 'o', durationMs: 1 },
        { type: 'checkpoint.created', callId: 'call_a', commit: 'c1', changed: true, skipped: 0 },
      ]),
    );
    const anchors = rewindAnchors(state.rewindPoints);
    expect([...anchors.byItem]).toEqual([[0, 2]]);
    expect([...anchors.byCall]).toEqual([['call_a', 6]]);
  });
});

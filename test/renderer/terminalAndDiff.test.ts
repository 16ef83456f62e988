import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileChange } from '../../src/shared/contract';
import type { SessionEvent } from '../../src/shared/events';
import { emptyTerminalFeed, feedChunk, feedEvents, TERMINAL_MAX_CHARS } from '../../src/renderer/src/stores/terminalFeed';
import { FakeApi, settle, storedEvents } from './fakeApi';
import { harness } from './storeHarness';

const commands: SessionEvent[] = [
  { type: 'tool.started', callId: 'c1', name: 'run_command', args: { command: 'echo one' } },
  { type: 'tool.finished', callId: 'c1', name: 'run_command', outcome: 'ok', title: 'echo one', output: 'one\n', durationMs: 1 },
  { type: 'tool.started', callId: 'r1', name: 'read_file', args: { path: 'a.ts' } },
  { type: 'tool.finished', callId: 'r1', name: 'read_file', outcome: 'ok', title: 'Read a.ts', output: 'x', durationMs: 1 },
  { type: 'tool.started', callId: 'c2', name: 'run_command', args: { command: 'sleep 9' } },
];

describe('terminal feed', () => {
  it('rebuilds a session’s commands from its log, skipping tools that run no command', () => {
    const feed = feedEvents(emptyTerminalFeed, storedEvents('s', commands));
    expect(feed.blocks.map((b) => [b.command, b.output, b.finished])).toEqual([
      ['echo one', 'one\n', true],
      ['sleep 9', '', false],
    ]);
  });

  it('puts history fetched late above output that streamed in before it', () => {
    const live = feedChunk(emptyTerminalFeed, 'c2', 'still going\r\n');
    const feed = feedEvents(live, storedEvents('s', commands));
    expect(feed.blocks.map((b) => [b.callId, b.command, b.output])).toEqual([
      ['c1', 'echo one', 'one\n'],
      ['c2', 'sleep 9', 'still going\r\n'],
    ]);
  });

  it('does not repeat a streamed command’s output when it finishes', () => {
    const [started, finished] = storedEvents('s', [
      { type: 'tool.started', callId: 'c', name: 'run_command', args: { command: 'ls' } },
      { type: 'tool.finished', callId: 'c', name: 'run_command', outcome: 'ok', title: 'ls', output: 'a\n', durationMs: 1 },
    ]);
    let feed = feedEvents(emptyTerminalFeed, [started!]);
    feed = feedChunk(feed, 'c', 'a\r\n');
    feed = feedEvents(feed, [finished!]);
    expect(feed.blocks[0]!.output).toBe('a\r\n');
  });

  it('drops the oldest output once it holds too much, keeping the newest', () => {
    let feed = emptyTerminalFeed;
    const chunk = 'x'.repeat(500_000);
    for (let i = 0; i < 8; i++) feed = feedChunk(feed, `c${i}`, chunk);
    expect(feed.size).toBeLessThanOrEqual(TERMINAL_MAX_CHARS);
    expect(feed.blocks.at(-1)!.callId).toBe('c7');
    expect(feed.blocks[0]!.callId).not.toBe('c0');
  });
});

describe('live diff', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the changed files once after a burst of finished tools, then reloads the open file', async () => {
    const api = oneChangedFile();
    const { store } = harness(api, 200);
    store.getState().selectSession('s1');
    await settle();
    expect(api.callsTo('diff:files')).toHaveLength(1);
    expect(store.getState().fileDiff?.path).toBe('src/a.ts');

    vi.useFakeTimers();
    const finished = storedEvents(
      's1',
      Array.from({ length: 5 }, (_, i): SessionEvent => ({
        type: 'tool.finished',
        callId: `k${i}`,
        name: 'edit_file',
        outcome: 'ok',
        title: 't',
        output: '',
        durationMs: 1,
      })),
      2,
    );
    for (const event of finished) api.emit('session:event', event);
    await vi.advanceTimersByTimeAsync(199);
    expect(api.callsTo('diff:files')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    await settle();
    expect(api.callsTo('diff:files')).toHaveLength(2);
    expect(api.callsTo('diff:file')).toEqual([
      { sessionId: 's1', path: 'src/a.ts' },
      { sessionId: 's1', path: 'src/a.ts' },
    ]);
    expect(store.getState().fileDiff?.status).toBe('ready');
  });

  it('asks for the first file before the list of changes is drawn, and before the file shows as loading', async () => {
    // Drawing the list the first time makes the diff editor, which holds the main thread: the file's
    // request must already be on its way by then, so the host answers while the page draws.
    const api = oneChangedFile();
    const { store } = harness(api, 200);
    const fileAskedWhen: { listed?: number; loading?: number } = {};
    store.subscribe((state) => {
      if (state.diffs.s1?.status === 'ready') fileAskedWhen.listed ??= api.callsTo('diff:file').length;
      if (state.fileDiff?.status === 'loading') fileAskedWhen.loading ??= api.callsTo('diff:file').length;
    });
    store.getState().selectSession('s1');
    await settle();
    expect(fileAskedWhen).toEqual({ listed: 1, loading: 1 });
    expect(store.getState().fileDiff?.status).toBe('ready');
  });
});

/** A session s1 whose one change is src/a.ts, as main would answer for it. */
function oneChangedFile(): FakeApi {
  const files: FileChange[] = [{ path: 'src/a.ts', status: 'modified', additions: 2, deletions: 1, binary: false }];
  return new FakeApi({
    'session:events': () =>
      storedEvents('s1', [{ type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'b', maxSteps: 3 }]),
    'diff:files': () => files,
    'diff:file': ({ path }) => ({ path, status: 'modified', before: 'a', after: 'b', language: 'typescript', binary: false }),
  });
}

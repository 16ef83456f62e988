import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import { createLiveBatcher } from '../../src/renderer/src/stores/liveBatcher';
import { FakeApi, settle, storedEvents, usage } from './fakeApi';
import { harness } from './storeHarness';

const start: SessionEvent[] = [
  { type: 'session.started', workspace: '/w', model: 'm', api: 'responses', baseUrl: 'http://127.0.0.1:1/v1', maxSteps: 5 },
  { type: 'user.messaged', text: 'hi' },
  { type: 'model.requested', step: 1 },
];

async function followed() {
  const api = new FakeApi({ 'session:events': () => storedEvents('s1', start), 'diff:files': () => [] });
  const h = harness(api);
  h.store.getState().selectSession('s1');
  await settle();
  return h;
}

describe('live batching', () => {
  it('applies a frame of 200 deltas as one store update, in order', async () => {
    const { api, store, frame, framesRequested } = await followed();
    let updates = 0;
    store.subscribe(() => updates++);
    const before = framesRequested();
    for (let i = 0; i < 200; i++) api.emit('session:live', { type: 'model.text_delta', sessionId: 's1', text: `${i} ` });
    expect(framesRequested() - before).toBe(1);
    expect(store.getState().liveText.s1).toBeUndefined();
    frame();
    expect(updates).toBe(1);
    expect(store.getState().liveText.s1).toBe(Array.from({ length: 200 }, (_, i) => `${i} `).join(''));
  });

  it('asks for a new frame only after the previous one ran', () => {
    const frames: (() => void)[] = [];
    const batches: number[] = [];
    const batcher = createLiveBatcher(
      (batch) => batches.push(batch.length),
      (cb) => frames.push(cb),
    );
    batcher.push({ type: 'model.text_delta', sessionId: 's', text: 'a' });
    batcher.push({ type: 'model.text_delta', sessionId: 's', text: 'b' });
    expect(frames).toHaveLength(1);
    frames.shift()!();
    batcher.push({ type: 'model.text_delta', sessionId: 's', text: 'c' });
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(batches).toEqual([2, 1]);
  });

  it('clears the streamed text when the response is stored, including deltas still waiting for a frame', async () => {
    const { api, store, frame } = await followed();
    api.emit('session:live', { type: 'model.text_delta', sessionId: 's1', text: 'Hello ' });
    frame();
    api.emit('session:live', { type: 'model.text_delta', sessionId: 's1', text: 'world' });
    api.emit('session:live', { type: 'model.reasoning_delta', sessionId: 's1', text: 'thinking' });
    api.emit(
      'session:event',
      storedEvents('s1', [{ type: 'model.responded', usage, items: [{ type: 'assistant', text: 'Hello world' }] }], 4)[0]!,
    );
    frame();
    const state = store.getState();
    expect(state.liveText.s1).toBeUndefined();
    expect(state.liveReasoning.s1).toBeUndefined();
    expect(state.logs.s1!.state.items.at(-1)).toEqual({ type: 'assistant', text: 'Hello world' });
  });

  it('voids the streamed text when the request is retried, and streams the retry afresh', async () => {
    const { api, store, frame } = await followed();
    api.emit('session:live', { type: 'model.text_delta', sessionId: 's1', text: 'half a sent' });
    frame();
    api.emit('session:event', storedEvents('s1', [{ type: 'model.retrying', attempt: 1, delayMs: 10, reason: '503' }], 4)[0]!);
    expect(store.getState().liveText.s1).toBeUndefined();
    api.emit('session:live', { type: 'model.text_delta', sessionId: 's1', text: 'Fresh' });
    frame();
    expect(store.getState().liveText.s1).toBe('Fresh');
  });

  it('keeps each session’s stream apart and clears one not followed when its response lands', async () => {
    const { api, store, frame } = await followed();
    api.emit('session:live', { type: 'model.text_delta', sessionId: 's1', text: 'one' });
    api.emit('session:live', { type: 'model.text_delta', sessionId: 'other', text: 'two' });
    frame();
    expect(store.getState().liveText).toEqual({ s1: 'one', other: 'two' });
    api.emit('session:event', storedEvents('other', [{ type: 'model.responded', usage, items: [] }], 9)[0]!);
    expect(store.getState().liveText).toEqual({ s1: 'one' });
  });

  it('writes a command header before its output, and the next header after all earlier output', async () => {
    const { api, store, frame } = await followed();
    const [started1, finished1, started2] = storedEvents(
      's1',
      [
        { type: 'tool.started', callId: 'c1', name: 'run_command', args: { command: 'npm test' } },
        {
          type: 'tool.finished',
          callId: 'c1',
          name: 'run_command',
          outcome: 'ok',
          title: 'npm test',
          output: 'ok 1\r\nok 2\r\n',
          durationMs: 5,
        },
        { type: 'tool.started', callId: 'c2', name: 'run_command', args: { command: 'ls' } },
      ],
      4,
    );
    api.emit('session:event', started1!);
    api.emit('session:live', { type: 'tool.output', sessionId: 's1', callId: 'c1', chunk: 'ok 1\r\n' });
    api.emit('session:live', { type: 'tool.output', sessionId: 's1', callId: 'c1', chunk: 'ok 2\r\n' });
    // No frame ran: the stored events must still not overtake the queued bytes.
    api.emit('session:event', finished1!);
    api.emit('session:event', started2!);
    api.emit('session:live', { type: 'tool.output', sessionId: 's1', callId: 'c2', chunk: 'a b\r\n' });
    frame();
    const feed = store.getState().terminals.s1!;
    expect(feed.blocks.map((b) => [b.command, b.output, b.finished])).toEqual([
      ['npm test', 'ok 1\r\nok 2\r\n', true],
      ['ls', 'a b\r\n', false],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { AnthropicStreamState } from './anthropicStream';
import { CallIdAllocator } from './callIds';
import type { ModelErrorContext } from './errors';
import { ModelError, type ModelEvent } from './provider';

const ctx: ModelErrorContext = { baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-6', api: 'anthropic', apiKeySet: true };

function fold(events: Array<Record<string, unknown>>, used: string[] = []) {
  const state = new AnthropicStreamState(
    new CallIdAllocator(used.map((callId) => ({ type: 'tool_call', callId, name: 'x', arguments: '{}' }))),
  );
  const deltas: ModelEvent[] = [];
  let done: ModelEvent | undefined;
  for (const event of events) {
    const out = state.handle(event, ctx);
    deltas.push(...out.deltas);
    done ??= out.done;
  }
  return { state, deltas, done: done as Extract<ModelEvent, { type: 'done' }> | undefined };
}

const start = (usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 }) => ({
  type: 'message_start',
  message: { id: 'msg_1', usage },
});
const block = (index: number, content_block: Record<string, unknown>) => ({ type: 'content_block_start', index, content_block });
const delta = (index: number, value: Record<string, unknown>) => ({ type: 'content_block_delta', index, delta: value });
const stop = (index: number) => ({ type: 'content_block_stop', index });
const end = (stop_reason: string, usage: Record<string, unknown> = { output_tokens: 5 }) => [
  { type: 'message_delta', delta: { stop_reason }, usage },
  { type: 'message_stop' },
];

describe('AnthropicStreamState', () => {
  it('keeps redacted thinking as a reasoning item to pass back, and separates two thinking blocks live', () => {
    const { deltas, done } = fold([
      start(),
      block(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'First.' }),
      delta(0, { type: 'signature_delta', signature: 'sig1' }),
      stop(0),
      block(1, { type: 'redacted_thinking', data: 'EmwKAhgB' }),
      stop(1),
      block(2, { type: 'thinking', thinking: '', signature: '' }),
      delta(2, { type: 'thinking_delta', thinking: 'Second.' }),
      delta(2, { type: 'signature_delta', signature: 'sig2' }),
      stop(2),
      ...end('end_turn'),
    ]);
    expect(deltas).toEqual([
      { type: 'reasoning_delta', text: 'First.' },
      { type: 'reasoning_delta', text: '\n\n' },
      { type: 'reasoning_delta', text: 'Second.' },
    ]);
    expect(done?.items).toEqual([
      { type: 'reasoning', api: 'anthropic', summary: 'First.', replay: { type: 'thinking', thinking: 'First.', signature: 'sig1' } },
      { type: 'reasoning', api: 'anthropic', summary: '', replay: { type: 'redacted_thinking', data: 'EmwKAhgB' } },
      { type: 'reasoning', api: 'anthropic', summary: 'Second.', replay: { type: 'thinking', thinking: 'Second.', signature: 'sig2' } },
    ]);
  });

  it('reads a tool_use whose input came whole in content_block_start, and gives a reused id a fresh one', () => {
    const { done } = fold(
      [start(), block(0, { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }), stop(0), ...end('tool_use')],
      ['toolu_1'],
    );
    expect(done?.items).toEqual([
      { type: 'tool_call', callId: expect.stringMatching(/^call_/), name: 'read_file', arguments: '{"path":"a.txt"}' },
    ]);
    expect(done?.stopReason).toBe('tool_use');
  });

  it('passes over citations, unknown deltas, unknown events and pings', () => {
    const { deltas, done } = fold([
      start(),
      { type: 'ping' },
      block(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'Per the docs.' }),
      delta(0, { type: 'citations_delta', citation: { type: 'char_location' } }),
      { type: 'some_future_event', data: 1 },
      stop(0),
      ...end('end_turn'),
    ]);
    expect(deltas).toEqual([{ type: 'text_delta', text: 'Per the docs.' }]);
    expect(done?.items).toEqual([{ type: 'assistant', text: 'Per the docs.' }]);
  });

  it('counts cache reads and writes into the input total; message_delta counts win over message_start', () => {
    const { done } = fold([
      start({ input_tokens: 5, cache_read_input_tokens: 900, cache_creation_input_tokens: 100, output_tokens: 1 }),
      block(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'Hi' }),
      stop(0),
      ...end('max_tokens', {
        input_tokens: 7,
        cache_read_input_tokens: null,
        output_tokens: 40,
        output_tokens_details: { thinking_tokens: 12 },
      }),
    ]);
    expect(done?.usage).toEqual({ inputTokens: 1007, outputTokens: 40, cachedInputTokens: 900, reasoningTokens: 12 });
    expect(done?.stopReason).toBe('max_tokens');
  });

  it('is finished once message_delta gave the stop reason, not before', () => {
    const { state } = fold([start(), block(0, { type: 'text', text: '' }), stop(0)]);
    expect(state.finished).toBe(false);
    state.handle({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }, ctx);
    expect(state.finished).toBe(true);
  });

  it('throws an error event as a ModelError of its kind', () => {
    const state = new AnthropicStreamState(new CallIdAllocator([]));
    const overloaded = () =>
      state.handle({ type: 'error', error: { details: null, type: 'overloaded_error', message: 'Overloaded' } }, ctx);
    expect(overloaded).toThrow(ModelError);
    try {
      overloaded();
    } catch (error) {
      expect((error as ModelError).kind).toBe('server');
      expect((error as ModelError).retryable).toBe(true);
    }
  });
});

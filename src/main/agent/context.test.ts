import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../shared/events';
import { initialSessionState, reduce } from '../../shared/session';
import { buildInstructions, buildModelItems } from './context';

function fold(events: SessionEvent[]) {
  return events.reduce(reduce, initialSessionState);
}

const started: SessionEvent = { type: 'session.started', workspace: '/w', model: 'm', api: 'responses', baseUrl: 'http://x', maxSteps: 5 };
const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };

describe('buildModelItems', () => {
  it('puts each tool result right after the response that asked for it, in call order', () => {
    const state = fold([
      started,
      { type: 'user.messaged', text: 'task' },
      {
        type: 'model.responded',
        usage,
        items: [
          { type: 'tool_call', callId: 'a', name: 'read_file', arguments: '{}' },
          { type: 'tool_call', callId: 'b', name: 'read_file', arguments: '{}' },
        ],
      },
      { type: 'tool.finished', callId: 'b', name: 'read_file', outcome: 'ok', title: 't', output: 'B', durationMs: 1 },
      { type: 'tool.finished', callId: 'a', name: 'read_file', outcome: 'error', title: 't', output: 'A', durationMs: 1 },
      { type: 'user.messaged', text: 'more' },
    ]);
    expect(
      buildModelItems(state).map((item) => (item.type === 'tool_result' ? `${item.callId}:${item.output}:${item.isError}` : item.type)),
    ).toEqual(['user', 'tool_call', 'tool_call', 'a:A:true', 'b:B:false', 'user']);
  });

  it('trims a huge tool output for the model while the state keeps all of it', () => {
    const output = 'x\n'.repeat(100_000);
    const state = fold([
      started,
      { type: 'user.messaged', text: 'task' },
      { type: 'model.responded', usage, items: [{ type: 'tool_call', callId: 'a', name: 'run_command', arguments: '{}' }] },
      { type: 'tool.finished', callId: 'a', name: 'run_command', outcome: 'ok', title: 't', output, durationMs: 1 },
    ]);
    const result = buildModelItems(state, { maxToolOutputChars: 1000 }).find((item) => item.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.output.length).toBeLessThan(1200);
    expect(state.toolCalls.a?.output).toBe(output);
  });
});

describe('buildInstructions', () => {
  it('is byte-identical for the same workspace and day, so the prompt prefix can be cached', () => {
    const a = buildInstructions('/w', new Date('2026-11-30T08:00:00Z'));
    const b = buildInstructions('/w', new Date('2026-11-30T20:00:00Z'));
    expect(a).toBe(b);
    expect(a).toContain('/w');
    expect(a).not.toContain('{{');
  });
});

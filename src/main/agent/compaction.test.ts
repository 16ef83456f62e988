import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../shared/conversation';
import type { SessionEvent } from '../../shared/events';
import { initialSessionState, reduce, type SessionState } from '../../shared/session';
import { compactionCut, touchedFiles } from './compaction';
import { buildModelItems } from './context';

const usage = { inputTokens: 100, outputTokens: 10, cachedInputTokens: 0, reasoningTokens: 0 };
const zero = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };

function fold(events: SessionEvent[]): SessionState {
  return events.reduce(reduce, initialSessionState);
}

const call = (callId: string, name: string, args: object): ConversationItem => ({
  type: 'tool_call',
  callId,
  name,
  arguments: JSON.stringify(args),
});
const finished = (callId: string, name: string, output: string): SessionEvent => ({
  type: 'tool.finished',
  callId,
  name,
  outcome: 'ok',
  title: name,
  output,
  durationMs: 1,
});

/** task; read a (reasoning first); read b; edit b; answer. Items: 0 task, 1-3 turn one, 4-5, 6-7, 8. */
function session(afterFirstRead: SessionEvent[] = []): SessionState {
  return fold([
    { type: 'session.started', workspace: '/w', model: 'm', api: 'responses', baseUrl: 'http://x', maxSteps: 9 },
    { type: 'user.messaged', text: 'the task' },
    {
      type: 'model.responded',
      usage,
      items: [{ type: 'reasoning', api: 'responses', summary: 'look first' }, call('c1', 'read_file', { path: 'a.js' })],
    },
    finished('c1', 'read_file', 'A'.repeat(4000)),
    ...afterFirstRead,
    { type: 'model.responded', usage, items: [call('c2', 'read_file', { path: 'b.js' })] },
    finished('c2', 'read_file', 'B'.repeat(400)),
    { type: 'model.responded', usage, items: [call('c3', 'edit_file', { path: 'b.js', old_string: 'B', new_string: 'C' })] },
    finished('c3', 'edit_file', 'Edited b.js'),
    { type: 'model.responded', usage, items: [{ type: 'assistant', text: 'done' }] },
  ]);
}

describe('compactionCut', () => {
  it('keeps the latest turns that fit, cutting only where a turn begins (never between reasoning, a call and its result)', () => {
    const state = session();
    expect(state.items.map((item) => item.type)).toEqual([
      'user',
      'reasoning',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'assistant',
    ]);
    // Enough for the last three turns, not for the first one's 4,000-character result.
    expect(compactionCut(state, 300)).toBe(4);
    // Room for nothing but the answer: the cut still lands where a turn begins.
    expect(compactionCut(state, 5)).toBe(8);
    expect(compactionCut(state, 0)).toBe(9);
  });

  it('finds nothing to summarise in a conversation of one turn, or since the last compaction', () => {
    const one = fold([
      { type: 'session.started', workspace: '/w', model: 'm', api: 'responses', baseUrl: 'http://x', maxSteps: 9 },
      { type: 'user.messaged', text: 'the task' },
      { type: 'model.responded', usage, items: [{ type: 'assistant', text: 'hi' }] },
    ]);
    expect(compactionCut(one, 0)).toBeUndefined();
    const compacted = reduce(session(), compactedAt(8));
    expect(compactionCut(compacted, 0)).toBeUndefined();
  });
});

function compactedAt(keptFromItem: number): SessionEvent {
  return {
    type: 'context.compacted',
    summary: 'They read a.js.',
    keptFromItem,
    tokensBefore: 9000,
    tokensAfter: 3000,
    files: [{ path: 'a.js', edited: false }],
    plan: [{ step: 'Read', status: 'done' }],
    usage,
    costUsd: 0.001,
  };
}

describe('the conversation after a compaction', () => {
  it('sends the task, the summary with files and plan, earlier instruction files, then the kept turns', () => {
    let state = session([
      {
        type: 'instructions.loaded',
        placement: 'conversation',
        files: [{ path: 'lib/AGENTS.md', chars: 5, truncated: false, text: 'rules' }],
        warnings: [],
      },
    ]);
    state = reduce(state, compactedAt(6));
    const items = buildModelItems(state);
    expect(items.map((item) => item.type)).toEqual(['user', 'user', 'user', 'tool_call', 'tool_result', 'assistant']);
    expect(items[0]).toEqual({ type: 'user', text: 'the task' });
    expect(items[1]!.type === 'user' && items[1]!.text).toMatch(/They read a\.js\.[\s\S]*- a\.js[\s\S]*\[done\] Read/);
    expect(items[2]!.type === 'user' && items[2]!.text).toContain('<instructions path="lib/AGENTS.md">');
    expect(items[3]).toMatchObject({ callId: 'c3' });
    expect(items[4]).toMatchObject({ callId: 'c3', output: 'Edited b.js' });
  });

  it('leaves out a result whose call was summarised, even when the log holds it after the cut', () => {
    let state = fold([
      { type: 'session.started', workspace: '/w', model: 'm', api: 'responses', baseUrl: 'http://x', maxSteps: 9 },
      { type: 'user.messaged', text: 'task' },
      { type: 'model.responded', usage, items: [call('c1', 'run_command', { command: 'x' })] },
      // A resumed session: the person wrote before the result of a call that never finished was logged.
      { type: 'user.messaged', text: 'still there?' },
      finished('c1', 'run_command', 'outcome unknown'),
      { type: 'model.responded', usage, items: [{ type: 'assistant', text: 'yes' }] },
    ]);
    state = reduce(state, compactedAt(3));
    const items = buildModelItems(state);
    expect(items.some((item) => item.type === 'tool_result')).toBe(false);
    expect(items.at(-1)).toEqual({ type: 'assistant', text: 'yes' });
  });
});

describe('the fold', () => {
  it('keeps the context meter, the compaction marker and the cost', () => {
    let state = session();
    expect(state.context.tokens).toBe(110);
    expect(state.context.basis).toEqual({ tokens: 110, items: 9, notes: 0 });
    state = reduce(state, { type: 'model.requested', step: 5, estimatedTokens: 900, contextWindow: 10_000 });
    expect(state.context).toMatchObject({ tokens: 900, window: 10_000 });
    state = reduce(state, { type: 'context.compacting', trigger: 'manual', tokensBefore: 900 });
    expect(state.context.compacting).toBe(true);
    state = reduce(state, compactedAt(4));
    expect(state.context).toMatchObject({ tokens: 3000, basis: null, compacting: false, window: 10_000 });
    expect(state.compactions).toEqual([expect.objectContaining({ atItem: 9, keptFromItem: 4 })]);
    expect(state.costUsd).toBeCloseTo(0.001, 12);
    // The responses had no price (no costUsd) but used tokens: their cost is unknown, not zero.
    expect(state.unpricedResponses).toBe(4);
    state = reduce(state, { type: 'context.compaction_failed', reason: 'the model failed' });
    expect(state.context.warning).toBe('the model failed');
  });

  it('leaves the estimate standing when a server reports no usage', () => {
    let state = reduce(session(), { type: 'model.requested', step: 5, estimatedTokens: 900 });
    state = reduce(state, { type: 'model.responded', usage: zero, items: [{ type: 'assistant', text: 'x' }] });
    expect(state.context.tokens).toBe(900);
    expect(state.unpricedResponses).toBe(4);
  });
});

describe('touchedFiles', () => {
  it('lists the files read or changed, a changed one as changed', () => {
    expect(touchedFiles(session())).toEqual([
      { path: 'a.js', edited: false },
      { path: 'b.js', edited: true },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from './events';
import { undoableRewind } from './rewinds';
import { commandsRanUnaskedAfter, foldEvents } from './session';

const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };

function log(...events: SessionEvent[]): StoredEvent[] {
  return events.map((event, index) => ({ sessionId: 's', seq: index + 1, at: index, event }));
}

const start: SessionEvent = { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://x', maxSteps: 5 };
const call = (callId: string): SessionEvent[] => [
  { type: 'model.responded', items: [{ type: 'tool_call', callId, name: 'write_file', arguments: '{}' }], usage },
  { type: 'tool.started', callId, name: 'write_file', args: {} },
  { type: 'tool.finished', callId, name: 'write_file', outcome: 'ok', title: 't', output: 'o', durationMs: 1 },
];
const checkpoint = (callId: string | null, commit: string): SessionEvent => ({
  type: 'checkpoint.created',
  callId,
  commit,
  changed: true,
  skipped: 0,
});

// seq: 1 start, 2 task, 3 base checkpoint, 4-6 call a, 7 checkpoint a, 8 plan, 9-11 call b, 12 checkpoint b
const session = log(
  start,
  { type: 'user.messaged', text: 'task' },
  checkpoint(null, 'base'),
  ...call('a'),
  checkpoint('a', 'after-a'),
  { type: 'plan.updated', steps: [{ step: 'b', status: 'in_progress' }] },
  ...call('b'),
  checkpoint('b', 'after-b'),
  { type: 'session.finished', status: 'done', reason: 'ok' },
);

function then(events: StoredEvent[], ...more: SessionEvent[]): StoredEvent[] {
  return [...events, ...more.map((event, index) => ({ sessionId: 's', seq: events.length + index + 1, at: 0, event }))];
}

describe('rewind points', () => {
  it('offers the first message (with the files the run found) and every checkpointed call', () => {
    const state = foldEvents(session);
    expect(state.rewindPoints.map((point) => [point.seq, point.kind, point.callId, point.commit, point.mark.items])).toEqual([
      [2, 'message', undefined, 'base', 1],
      [7, 'checkpoint', 'a', 'after-a', 3],
      [12, 'checkpoint', 'b', 'after-b', 5],
    ]);
  });

  it("a later message gets the files its run found, not those of an earlier message's run", () => {
    const state = foldEvents(then(session, { type: 'user.messaged', text: 'more' }, checkpoint(null, 'hand-edited')));
    expect(state.rewindPoints.map((point) => point.commit)).toEqual(['base', 'after-a', 'after-b', 'hand-edited']);
  });

  it('a failed checkpoint leaves a step whose files cannot be rewound', () => {
    const state = foldEvents(then(session, ...call('c'), { type: 'checkpoint.failed', callId: 'c', reason: 'disk full' }));
    const last = state.rewindPoints.at(-1)!;
    expect(last).toMatchObject({ kind: 'checkpoint', callId: 'c' });
    expect(last.commit).toBeUndefined();
    expect(state.checkpoints.at(-1)).toMatchObject({ callId: 'c', error: 'disk full' });
  });
});

describe('a conversation rewind', () => {
  const rewound = then(session, {
    type: 'session.rewound',
    toSeq: 7,
    restore: 'both',
    beforeCommit: 'before',
    restoredCommit: 'restored',
    files: ['x'],
    warnings: [],
  });

  it('keeps the conversation up to the step, and what belonged to it (the plan), and drops later steps', () => {
    const state = foldEvents(rewound);
    expect(state.items.map((item) => item.type)).toEqual(['user', 'tool_call', 'tool_result']);
    expect(state.plan).toEqual([]);
    expect(state.rewindPoints.map((point) => point.seq)).toEqual([2, 7]);
    expect(state.rewinds).toHaveLength(1);
    expect(state.rewinds[0]).toMatchObject({ kind: 'rewind', toSeq: 7, atItem: 3, hidden: false });
    expect(state.rewinds[0]!.dropped.map((item) => item.type)).toEqual(['tool_call', 'tool_result']);
    // The cards of rewound calls are still drawn (greyed), so their views stay.
    expect(state.toolCalls.b?.status).toBe('ok');
  });

  it('is undone: the whole conversation, plan and steps come back, and what came after the rewind leaves', () => {
    const continued = then(rewound, { type: 'user.messaged', text: 'another way' }, checkpoint(null, 'restored'));
    expect(undoableRewind(foldEvents(continued))?.seq).toBe(14);
    const state = foldEvents(
      then(continued, { type: 'session.rewind_undone', rewindSeq: 14, restore: 'both', beforeCommit: 'b2', files: ['x'], warnings: [] }),
    );
    expect(state.items.map((item) => item.type)).toEqual(['user', 'tool_call', 'tool_result', 'tool_call', 'tool_result']);
    expect(state.plan).toEqual([{ step: 'b', status: 'in_progress' }]);
    expect(state.rewindPoints.map((point) => point.seq)).toEqual([2, 7, 12]);
    expect(state.rewinds.map((rewind) => [rewind.kind, rewind.hidden, rewind.undoneBy])).toEqual([
      ['rewind', true, 17],
      ['undo', false, undefined],
    ]);
    expect(state.rewinds[1]!.dropped).toEqual([{ type: 'user', text: 'another way' }]);
    expect(state.filesCommit).toBe('before');
    expect(undoableRewind(state)).toBeUndefined();
  });

  it('a files-only rewind leaves the conversation as it was', () => {
    const state = foldEvents(
      then(session, {
        type: 'session.rewound',
        toSeq: 7,
        restore: 'files',
        beforeCommit: 'b',
        restoredCommit: 'r',
        files: [],
        warnings: [],
      }),
    );
    expect(state.items).toHaveLength(5);
    expect(state.rewindPoints).toHaveLength(3);
    expect(state.filesCommit).toBe('r');
  });

  it('hides an earlier marker that a later rewind went back past', () => {
    const state = foldEvents(
      then(
        session,
        { type: 'session.rewound', toSeq: 7, restore: 'conversation', files: [], warnings: [] },
        { type: 'session.rewound', toSeq: 2, restore: 'conversation', files: [], warnings: [] },
      ),
    );
    expect(state.items).toEqual([{ type: 'user', text: 'task' }]);
    expect(state.rewinds.map((rewind) => rewind.hidden)).toEqual([true, false]);
  });

  it('folds the same state one event at a time as in one go', () => {
    const events = then(
      rewound,
      { type: 'user.messaged', text: 'again' },
      { type: 'session.rewind_undone', rewindSeq: 14, restore: 'both', files: [], warnings: [] },
    );
    const stepwise = events.reduce((state, stored) => foldEvents([stored], state), foldEvents([]));
    expect(stepwise.items).toEqual(foldEvents(events).items);
    expect(stepwise.rewindPoints.map((point) => point.seq)).toEqual(foldEvents(events).rewindPoints.map((point) => point.seq));
  });
});

describe('commands that ran unasked, for the preview', () => {
  const command = (callId: string, text: string, question = false): SessionEvent[] => [
    {
      type: 'model.responded',
      items: [{ type: 'tool_call', callId, name: 'run_command', arguments: JSON.stringify({ command: text }) }],
      usage,
    },
    ...(question
      ? ([
          {
            type: 'approval.asked',
            approvalId: `p_${callId}`,
            callId,
            tool: 'run_command',
            risk: 'exec',
            summary: text,
            args: { command: text },
          },
          { type: 'approval.answered', approvalId: `p_${callId}`, callId, decision: { action: 'allow', scope: 'once', by: 'person' } },
        ] satisfies SessionEvent[])
      : []),
    { type: 'tool.started', callId, name: 'run_command', args: { command: text } },
    { type: 'tool.finished', callId, name: 'run_command', outcome: 'ok', title: text, output: '', durationMs: 1 },
  ];

  it('lists the commands after the step that ran with no question, in order, and leaves out edits and asked ones', () => {
    // seq: 1 start, 2 task, 3 base checkpoint, 4-6 write a, 7 checkpoint a, 8-10 make, 11-15 npm install (asked), 16-18 rm
    const events = log(
      start,
      { type: 'user.messaged', text: 'task' },
      checkpoint(null, 'base'),
      ...call('a'),
      checkpoint('a', 'after-a'),
      ...command('c_make', 'make'),
      ...command('c_install', 'npm install', true),
      ...command('c_rm', 'rm -rf build'),
    );
    const state = foldEvents(events);
    expect(state.ranUnasked).toEqual(['a', 'c_make', 'c_rm']);
    expect(commandsRanUnaskedAfter(state, 2).map((found) => found.callId)).toEqual(['c_make', 'c_rm']);
    expect(commandsRanUnaskedAfter(state, 7).map((found) => found.callId)).toEqual(['c_make', 'c_rm']);
    expect(commandsRanUnaskedAfter(state, 9).map((found) => found.callId)).toEqual(['c_rm']);
    expect(commandsRanUnaskedAfter(state, 18)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from './events';
import { SessionEvent as SessionEventSchema } from './events';
import { foldEvents, initialSessionState, ranUnasked, reduce, unfinishedCalls } from './session';

const usage = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2, reasoningTokens: 1 };
const log: SessionEvent[] = [
  { type: 'session.started', workspace: '/w', model: 'gpt', api: 'chat', baseUrl: 'http://x/v1', maxSteps: 7 },
  { type: 'user.messaged', text: 'fix it' },
  { type: 'model.requested', step: 1 },
  {
    type: 'model.responded',
    usage,
    items: [
      { type: 'assistant', text: 'Looking.' },
      { type: 'tool_call', callId: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'tool_call', callId: 'c2', name: 'run_command', arguments: '{"command":"ls"}' },
    ],
  },
  { type: 'tool.started', callId: 'c1', name: 'read_file', args: { path: 'a' } },
  { type: 'tool.finished', callId: 'c1', name: 'read_file', outcome: 'ok', title: 'Read a', output: '1\ta', durationMs: 3 },
  { type: 'approval.asked', approvalId: 'p1', callId: 'c2', tool: 'run_command', risk: 'exec', summary: 'Run ls', args: { command: 'ls' } },
];

function stored(events: SessionEvent[]): StoredEvent[] {
  return events.map((event, i) => ({ sessionId: 's', seq: i + 1, at: 0, event }));
}

describe('reduce', () => {
  it('folds a session into its conversation, calls, approvals and totals', () => {
    const state = foldEvents(stored(log));
    expect(state.status).toBe('waiting');
    expect(state.model).toBe('gpt');
    expect(state.maxSteps).toBe(7);
    expect(state.steps).toBe(1);
    expect(state.usage).toEqual(usage);
    expect(state.items.map((item) => item.type)).toEqual(['user', 'assistant', 'tool_call', 'tool_call', 'tool_result']);
    expect(state.toolCalls.c1?.status).toBe('ok');
    expect(state.toolCalls.c2?.status).toBe('awaiting_approval');
    expect(state.pendingApprovals).toEqual(['p1']);
    expect(unfinishedCalls(state).map((call) => call.callId)).toEqual(['c2']);
  });

  it('keeps, for good, that a run turned the sandbox off, also across later runs with it on', () => {
    const state = foldEvents(
      stored([
        log[0]!,
        { type: 'sandbox.turned_off', by: 'tether run --no-sandbox' },
        { type: 'session.finished', status: 'done', reason: 'answered' },
        { type: 'session.resumed' },
        { type: 'session.finished', status: 'done', reason: 'answered' },
      ]),
    );
    expect(state.unsandboxedRuns).toEqual(['tether run --no-sandbox']);
    expect(foldEvents(stored([log[0]!])).unsandboxedRuns).toEqual([]);
  });

  it('puts each repository a command left, made harmless, on its call, while it runs and after', () => {
    const quarantined: SessionEvent = {
      type: 'repository.quarantined',
      callId: 'c2',
      path: 'sub',
      gitDir: 'sub/.git',
      found: 'new',
      programs: ['core.fsmonitor = touch x (in sub/.git/config)'],
      moved: [{ from: 'sub/.git/config', to: 'sub/.git/config.tether-quarantined-20261202T000000Z' }],
      rewritten: ['sub/.git/config'],
    };
    expect(SessionEventSchema.parse(quarantined)).toEqual(quarantined);
    const { type: _type, callId: _callId, ...view } = quarantined;
    const state = foldEvents(
      stored([
        ...log.slice(0, 4),
        { type: 'tool.started', callId: 'c2', name: 'run_command', args: { command: 'ls' } },
        quarantined,
        { ...quarantined, path: 'other' },
        { type: 'tool.finished', callId: 'c2', name: 'run_command', outcome: 'ok', title: 'Ran', output: 'x', durationMs: 1 },
      ]),
    );
    expect(state.toolCalls.c2?.quarantined).toEqual([view, { ...view, path: 'other' }]);
    expect(state.toolCalls.c1?.quarantined).toBeUndefined();
  });

  it('records a denial on the call and clears the pending approval', () => {
    const answered: SessionEvent = {
      type: 'approval.answered',
      approvalId: 'p1',
      callId: 'c2',
      decision: { action: 'deny', scope: 'once', by: 'person', message: 'no' },
    };
    const state = [...log, answered].reduce(reduce, initialSessionState);
    expect(state.toolCalls.c2?.status).toBe('denied');
    expect(state.pendingApprovals).toEqual([]);
    expect(state.status).toBe('working');
  });

  it('stays waiting when resumed with a question still unanswered (after a restart), and works once it is answered', () => {
    const answered: SessionEvent = {
      type: 'approval.answered',
      approvalId: 'p1',
      callId: 'c2',
      decision: { action: 'allow', scope: 'once', by: 'person' },
    };
    const resumed = [...log, { type: 'session.resumed' } as const].reduce(reduce, initialSessionState);
    expect(resumed.status).toBe('waiting');
    expect([...log, { type: 'session.resumed' } as const, answered].reduce(reduce, initialSessionState).status).toBe('working');
    // A finished run's questions expired with it: resuming that one works.
    const finished: SessionEvent = { type: 'session.finished', status: 'aborted', reason: 'Stopped.' };
    expect([...log, finished, { type: 'session.resumed' } as const].reduce(reduce, initialSessionState).status).toBe('working');
  });

  it('ignores events it already holds when a resync resends them', () => {
    const once = foldEvents(stored(log));
    const twice = foldEvents(stored(log), once);
    expect(twice).toBe(once);
  });

  it('accepts every event of the log through the schema', () => {
    for (const event of log) expect(SessionEventSchema.parse(event)).toEqual(event);
  });
});

describe('what ran unasked', () => {
  const responded = (...calls: [string, string, object][]): SessionEvent => ({
    type: 'model.responded',
    usage,
    items: calls.map(([callId, name, args]) => ({ type: 'tool_call' as const, callId, name, arguments: JSON.stringify(args) })),
  });
  const ran = (callId: string, name: string, args: object): SessionEvent[] => [
    { type: 'tool.started', callId, name, args: args as never },
    { type: 'tool.finished', callId, name, outcome: 'ok', title: name, output: '', durationMs: 1, metadata: { sandbox: 'sandboxed' } },
  ];
  const asked = (approvalId: string, callId: string, extra: object = {}): SessionEvent => ({
    type: 'approval.asked',
    approvalId,
    callId,
    tool: 'run_command',
    risk: 'exec',
    summary: 'Run it',
    args: {},
    ...extra,
  });
  const answered = (approvalId: string, callId: string, action: 'allow' | 'deny'): SessionEvent => ({
    type: 'approval.answered',
    approvalId,
    callId,
    decision: { action, scope: 'once', by: 'person' },
  });

  it('counts a call that started with no question for its call id, and not one that was asked, denied, or only read', () => {
    const state = foldEvents(
      stored([
        log[0]!,
        { type: 'user.messaged', text: 'fix it' },
        responded(
          ['c_auto', 'run_command', { command: 'npm test' }],
          ['c_read', 'read_file', { path: 'a' }],
          ['c_edit', 'edit_file', { path: 'a' }],
          ['c_asked', 'run_command', { command: 'npm install' }],
          ['c_denied', 'run_command', { command: 'curl x' }],
        ),
        ...ran('c_auto', 'run_command', { command: 'npm test' }),
        ...ran('c_read', 'read_file', { path: 'a' }),
        ...ran('c_edit', 'edit_file', { path: 'a' }),
        asked('p1', 'c_asked'),
        answered('p1', 'c_asked', 'allow'),
        ...ran('c_asked', 'run_command', { command: 'npm install' }),
        asked('p2', 'c_denied'),
        answered('p2', 'c_denied', 'deny'),
        { type: 'tool.finished', callId: 'c_denied', name: 'run_command', outcome: 'denied', title: 'denied', output: 'no', durationMs: 0 },
      ]),
    );
    expect(state.ranUnasked).toEqual(['c_auto', 'c_edit']);
    expect(state.toolCalls.c_auto).toMatchObject({ startedSeq: 4, status: 'ok', metadata: { sandbox: 'sandboxed' } });
    expect(state.toolCalls.c_auto?.asked).toBeUndefined();
    expect(ranUnasked(state.toolCalls.c_auto!)).toBe(true);
    // A read ran unasked too (as in every mode) but is not counted among what acted on its own.
    expect(ranUnasked(state.toolCalls.c_read!)).toBe(true);
    expect(state.toolCalls.c_asked).toMatchObject({ asked: true, startedSeq: 12 });
    expect(ranUnasked(state.toolCalls.c_asked!)).toBe(false);
    expect(ranUnasked(state.toolCalls.c_denied!)).toBe(false);
  });

  it('takes a call off once a question comes while it runs (run it again outside the sandbox?), whatever the answer', () => {
    const before = [
      log[0]!,
      responded(['c1', 'run_command', { command: 'touch /tmp/x' }], ['c2', 'run_command', { command: 'ls' }]),
      { type: 'tool.started', callId: 'c1', name: 'run_command', args: { command: 'touch /tmp/x' } },
    ] satisfies SessionEvent[];
    expect(foldEvents(stored(before)).ranUnasked).toEqual(['c1']);
    const state = foldEvents(
      stored([
        ...before,
        asked('p1', 'c1', { sandbox: { kind: 'fence_hit', reason: 'the write fence', followUp: true } }),
        answered('p1', 'c1', 'deny'),
        { type: 'tool.finished', callId: 'c1', name: 'run_command', outcome: 'error', title: 't', output: 'o', durationMs: 1 },
        ...ran('c2', 'run_command', { command: 'ls' }),
      ]),
    );
    expect(state.ranUnasked).toEqual(['c2']);
    expect(state.toolCalls.c1).toMatchObject({ asked: true, status: 'error' });
    expect(ranUnasked(state.toolCalls.c1!)).toBe(false);
  });

  it('folds the same whether the log comes at once or event by event', () => {
    const events = stored([
      log[0]!,
      responded(['c1', 'write_file', { path: 'a' }], ['c2', 'run_command', { command: 'make' }]),
      ...ran('c1', 'write_file', { path: 'a' }),
      ...ran('c2', 'run_command', { command: 'make' }),
    ]);
    const whole = foldEvents(events);
    const piecewise = events.reduce((state, event) => foldEvents([event], state), initialSessionState);
    expect(piecewise.ranUnasked).toEqual(['c1', 'c2']);
    expect(piecewise.ranUnasked).toEqual(whole.ranUnasked);
    expect(piecewise.toolCalls.c2?.startedSeq).toBe(whole.toolCalls.c2?.startedSeq);
    // The state folded from is never changed.
    expect(foldEvents(events.slice(0, 3)).ranUnasked).toEqual(['c1']);
  });
});

describe('retries and failures', () => {
  const start: SessionEvent[] = [
    { type: 'session.started', workspace: '/w', model: 'gpt', api: 'chat', baseUrl: 'http://x/v1', maxSteps: 7 },
    { type: 'user.messaged', text: 'fix it' },
    { type: 'model.requested', step: 1 },
  ];
  const refused = 'Could not reach http://x/v1 (connection refused: nothing is listening there).';

  it('shows the next try, out of how many, and how long until it, while a request is retried', () => {
    const state = foldEvents(stored([...start, { type: 'model.retrying', attempt: 1, delayMs: 900, reason: refused, maxAttempts: 5 }]));
    expect(state.status).toBe('working');
    expect(state.retrying).toEqual({ nextAttempt: 2, maxAttempts: 5, delayMs: 900, reason: refused });
    const later = reduce(state, { type: 'model.retrying', attempt: 2, delayMs: 1800, reason: refused, maxAttempts: 5 });
    expect(later.retrying?.nextAttempt).toBe(3);
    // A log written before maxAttempts was recorded still folds: the count is left out.
    expect(foldEvents(stored([...start, { type: 'model.retrying', attempt: 1, delayMs: 900, reason: refused }])).retrying).toEqual({
      nextAttempt: 2,
      delayMs: 900,
      reason: refused,
    });
  });

  it('clears the retry once a response, a new request, the end or a resume comes', () => {
    const retrying = foldEvents(stored([...start, { type: 'model.retrying', attempt: 1, delayMs: 900, reason: refused, maxAttempts: 5 }]));
    expect(reduce(retrying, { type: 'model.responded', usage, items: [{ type: 'assistant', text: 'Hi.' }] }).retrying).toBeUndefined();
    expect(reduce(retrying, { type: 'model.requested', step: 2 }).retrying).toBeUndefined();
    expect(reduce(retrying, { type: 'session.finished', status: 'failed', reason: refused }).retrying).toBeUndefined();
    expect(reduce(retrying, { type: 'session.resumed' }).retrying).toBeUndefined();
  });

  it('keeps every failure at its place in the conversation after the person sends again, and what kind of model failure it was', () => {
    const state = foldEvents(
      stored([
        ...start,
        { type: 'session.finished', status: 'failed', reason: refused, modelFailure: { kind: 'connection' } },
        { type: 'session.resumed' },
        { type: 'user.messaged', text: 'try again' },
        { type: 'model.requested', step: 2 },
        {
          type: 'session.finished',
          status: 'failed',
          reason: '401 from http://x/v1: the API key was refused',
          modelFailure: { kind: 'auth', status: 401 },
        },
        { type: 'session.resumed' },
        { type: 'user.messaged', text: 'and again' },
        { type: 'model.requested', step: 3 },
        { type: 'model.responded', usage, items: [{ type: 'assistant', text: 'Done.' }] },
        { type: 'session.finished', status: 'done', reason: 'The model answered.' },
      ]),
    );
    expect(state.endings).toEqual([
      { atItem: 1, status: 'failed', reason: refused, modelFailure: { kind: 'connection' } },
      { atItem: 2, status: 'failed', reason: '401 from http://x/v1: the API key was refused', modelFailure: { kind: 'auth', status: 401 } },
    ]);
    expect(state.status).toBe('done');
    expect(state.modelFailure).toBeUndefined();
  });

  it('holds the last model failure until the session runs again, and keeps stops and step limits too', () => {
    const failed = foldEvents(
      stored([...start, { type: 'session.finished', status: 'failed', reason: refused, modelFailure: { kind: 'connection' } }]),
    );
    expect(failed.modelFailure).toEqual({ kind: 'connection' });
    expect(reduce(failed, { type: 'session.resumed' }).modelFailure).toBeUndefined();
    const stopped = reduce(reduce(failed, { type: 'session.resumed' }), {
      type: 'session.finished',
      status: 'aborted',
      reason: 'Stopped by the person.',
    });
    expect(stopped.endings.map((ending) => ending.status)).toEqual(['failed', 'aborted']);
    expect(stopped.modelFailure).toBeUndefined();
  });
});

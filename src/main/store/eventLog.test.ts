import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventOf, SessionEvent } from '../../shared/events';
import { foldEvents } from '../../shared/session';
import { openDatabase } from './sqlite/openDatabase';
import { SessionTotals } from './sessionTotals';
import { StoreError } from './storeError';
import { openStore, type Store } from './store';

let dir: string;
let store: Store;
let clock: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-log-'));
  clock = 1_700_000_000_000;
  store = openStore(dir, { now: () => ++clock });
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function newSession(): string {
  return store.sessions.create({ workspace: '/work/app', model: 'gpt-test', api: 'responses', baseUrl: 'http://127.0.0.1:9', maxSteps: 50 })
    .id;
}

function thrown(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError, but nothing was thrown');
}

/** Runs `read` on a connection of its own, as another process would see the file. */
function onSecondConnection<T>(read: (db: ReturnType<typeof openDatabase>) => T): T {
  const db = openDatabase(store.file, { backgroundCheckpoints: false });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** What the session row itself holds of the totals (readers add the log after totals_seq). */
function rowTotals(): unknown {
  return onSecondConnection((db) =>
    db.prepare('SELECT input_tokens AS inputTokens, cost_usd AS costUsd, totals_seq AS totalsSeq FROM sessions').get(),
  );
}

const started: EventOf<'session.started'> = {
  type: 'session.started',
  workspace: '/work/app',
  model: 'gpt-test',
  api: 'responses',
  baseUrl: 'http://127.0.0.1:9',
  maxSteps: 50,
};
const task: EventOf<'user.messaged'> = { type: 'user.messaged', text: 'fix the failing test in src/auth\nit fails since Monday' };
const responded = (inputTokens: number): EventOf<'model.responded'> => ({
  type: 'model.responded',
  items: [
    { type: 'assistant', text: 'Running the tests first.' },
    { type: 'tool_call', callId: 'call_1', name: 'run_command', arguments: '{"command":"npm test"}' },
  ],
  usage: { inputTokens, outputTokens: 20, cachedInputTokens: 5, reasoningTokens: 3 },
});
const asked: EventOf<'approval.asked'> = {
  type: 'approval.asked',
  approvalId: 'ap_1',
  callId: 'call_1',
  tool: 'run_command',
  risk: 'exec',
  summary: 'Run npm test',
  args: { command: 'npm test' },
};
const answered: EventOf<'approval.answered'> = {
  type: 'approval.answered',
  approvalId: 'ap_1',
  callId: 'call_1',
  decision: { action: 'allow', scope: 'once', by: 'person' },
};
const toolStarted: EventOf<'tool.started'> = { type: 'tool.started', callId: 'call_1', name: 'run_command', args: { command: 'npm test' } };
const toolFinished: EventOf<'tool.finished'> = {
  type: 'tool.finished',
  callId: 'call_1',
  name: 'run_command',
  outcome: 'ok',
  title: 'npm test (exit 0)',
  output: 'all 12 tests passed\n',
  durationMs: 1234,
  metadata: { exitCode: 0 },
};
const finished: EventOf<'session.finished'> = { type: 'session.finished', status: 'done', reason: 'The model answered.' };

const wholeRun: SessionEvent[] = [
  started,
  task,
  { type: 'model.requested', step: 1 },
  responded(100),
  asked,
  answered,
  toolStarted,
  toolFinished,
  finished,
];

describe('append', () => {
  it('gives each event the next seq, from 1, with no gaps', () => {
    const id = newSession();
    const seqs = wholeRun.map((event) => store.events.append(id, event).seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(store.events.count(id)).toBe(9);
    expect(store.sessions.get(id)?.lastSeq).toBe(9);
  });

  it('numbers each session on its own', () => {
    const a = newSession();
    const b = newSession();
    store.events.append(a, started);
    store.events.append(a, task);
    expect(store.events.append(b, started).seq).toBe(1);
    expect(store.events.append(a, finished).seq).toBe(3);
  });

  it('returns what it stored, and list gives back the same events in order', () => {
    const id = newSession();
    const stored = wholeRun.map((event) => store.events.append(id, event));
    expect(store.events.list(id)).toEqual(stored);
    expect(store.events.list(id, 6).map((event) => event.seq)).toEqual([7, 8, 9]);
    expect(stored[0]).toEqual({ sessionId: id, seq: 1, at: stored[0]?.at, event: started });
  });

  it('keeps the session row in step with its log: status, totals, title and updated_at', () => {
    const id = newSession();
    const statuses: string[] = [];
    for (const event of wholeRun) {
      const { at } = store.events.append(id, event);
      const row = store.sessions.get(id);
      statuses.push(row?.status ?? 'missing');
      expect(row?.updatedAt).toBe(at);
    }
    expect(statuses).toEqual(['working', 'working', 'working', 'working', 'waiting', 'working', 'working', 'working', 'done']);
    const row = store.sessions.get(id);
    expect(row?.title).toBe('fix the failing test in src/auth');
    expect(row?.usage).toEqual({ inputTokens: 100, outputTokens: 20, cachedInputTokens: 5, reasoningTokens: 3 });
    store.events.append(id, { type: 'session.resumed' });
    store.events.append(id, responded(50));
    expect(store.sessions.get(id)?.usage.inputTokens).toBe(150);
  });

  it('adds up tokens and cost from the log, whether or not the row has caught up with it yet', () => {
    const id = newSession();
    const priced = (inputTokens: number, costUsd?: number): EventOf<'model.responded'> => ({
      ...responded(inputTokens),
      ...(costUsd === undefined ? {} : { costUsd }),
    });
    store.events.append(id, started);
    store.events.append(id, priced(100));
    // No price known yet: the cost is unknown, not zero.
    expect(store.sessions.get(id)).toMatchObject({ usage: { inputTokens: 100, outputTokens: 20 }, costUsd: null });
    store.events.append(id, priced(10, 0.25));
    store.events.append(id, { type: 'model.requested', step: 2 });
    store.events.append(id, priced(1, 0.5));
    // Responses write nothing but themselves: the row still holds what it held at the start...
    expect(rowTotals()).toEqual({ inputTokens: 0, costUsd: null, totalsSeq: 0 });
    // ...and every reader adds the rest from the log, this connection and another alike.
    expect(store.sessions.get(id)).toMatchObject({
      usage: { inputTokens: 111, outputTokens: 60, cachedInputTokens: 15, reasoningTokens: 9 },
      costUsd: 0.75,
    });
    const other = openStore(dir);
    try {
      expect(other.sessions.list()[0]).toMatchObject({ usage: { inputTokens: 111 }, costUsd: 0.75 });
    } finally {
      other.close();
    }
    store.events.append(id, { type: 'session.finished', status: 'done', reason: 'The model answered.' });
    // The end of the run writes the row, and the totals with it.
    expect(rowTotals()).toEqual({ inputTokens: 111, costUsd: 0.75, totalsSeq: 5 });
    expect(store.sessions.get(id)).toMatchObject({ usage: { inputTokens: 111 }, costUsd: 0.75 });
    store.events.append(id, { type: 'session.resumed' });
    store.events.append(id, {
      type: 'context.compacted',
      summary: 'Ran the tests; the login test fails on an expired token.',
      keptFromItem: 2,
      tokensBefore: 9_000,
      tokensAfter: 1_200,
      files: [],
      plan: [],
      usage: { inputTokens: 5, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
      costUsd: 0.25,
    });
    expect(store.sessions.get(id)).toMatchObject({ usage: { inputTokens: 116 }, costUsd: 1 });
  });

  it('keeps the row within a bounded number of events of its totals, writing them with the status or on their own', () => {
    const id = newSession();
    const totalsSeq = (): number =>
      onSecondConnection(
        (db) => db.prepare<[], { totalsSeq: number }>('SELECT totals_seq AS totalsSeq FROM sessions').get()?.totalsSeq ?? -1,
      );
    store.events.append(id, started);
    for (let i = 0; i < 10; i++) store.events.append(id, responded(1));
    // The status change writes the row, and the totals this connection kept on the way.
    store.events.append(id, asked);
    expect(totalsSeq()).toBe(11);
    store.events.append(id, { ...answered, decision: { action: 'allow', scope: 'once', by: 'person' } });
    expect(totalsSeq()).toBe(12);
    // No status change for 250 responses: the totals are written on their own every 200 events.
    for (let i = 0; i < 250; i++) store.events.append(id, responded(1));
    expect(totalsSeq()).toBe(212);
    expect(store.sessions.get(id)?.usage.inputTokens).toBe(260);
  });

  it('adds up the responses another process appended, reading the log for them only when it must', () => {
    const id = newSession();
    store.events.append(id, started);
    store.events.append(id, { ...responded(100), costUsd: 0.5 });
    const other = openStore(dir);
    try {
      for (let i = 0; i < 3; i++) other.events.append(id, { ...responded(10), costUsd: 0.25 });
    } finally {
      other.close();
    }
    // This connection did not see those responses: the status change writes the status alone...
    store.events.append(id, asked);
    expect(rowTotals()).toEqual({ inputTokens: 0, costUsd: null, totalsSeq: 0 });
    expect(store.sessions.get(id)).toMatchObject({ status: 'waiting', usage: { inputTokens: 130 }, costUsd: 1.25 });
    // ...and the end of the run reads them from the log, once, and writes every one.
    store.events.append(id, { type: 'session.finished', status: 'aborted', reason: 'Stopped.' });
    expect(rowTotals()).toEqual({ inputTokens: 130, costUsd: 1.25, totalsSeq: 6 });
    store.events.append(id, { type: 'session.resumed' });
    store.events.append(id, responded(1));
    store.events.append(id, { type: 'session.finished', status: 'done', reason: 'The model answered.' });
    expect(rowTotals()).toEqual({ inputTokens: 131, costUsd: 1.25, totalsSeq: 9 });
    expect(store.sessions.get(id)).toMatchObject({ usage: { inputTokens: 131 }, costUsd: 1.25 });
  });

  it('adds the responses it appended itself from memory, and reads the log only for those another process appended', () => {
    const id = newSession();
    const fromLog = vi.spyOn(SessionTotals.prototype, 'after');
    try {
      store.events.append(id, started);
      for (let i = 0; i < 5; i++) store.events.append(id, { ...responded(10), costUsd: 0.5 });
      expect(store.sessions.get(id)).toMatchObject({ usage: { inputTokens: 50, outputTokens: 100 }, costUsd: 2.5 });
      expect(fromLog).not.toHaveBeenCalled();
      const other = openStore(dir);
      try {
        other.events.append(id, responded(1));
      } finally {
        other.close();
      }
      expect(store.sessions.get(id)).toMatchObject({ usage: { inputTokens: 51 }, costUsd: 2.5 });
      expect(fromLog).toHaveBeenCalledTimes(1);
    } finally {
      fromLog.mockRestore();
    }
  });

  it('agrees with the shared reducer about the session status after every event', () => {
    const id = newSession();
    for (const event of wholeRun) {
      store.events.append(id, event);
      expect(store.sessions.get(id)?.status).toBe(foldEvents(store.events.list(id)).status);
    }
  });

  it('agrees with the shared reducer when a run resumes with a question still unanswered', () => {
    const id = newSession();
    const events: SessionEvent[] = [
      started,
      task,
      { type: 'model.requested', step: 1 },
      asked,
      { type: 'session.resumed' },
      answered,
      { type: 'model.requested', step: 2 },
    ];
    const statuses = events.map((event) => {
      store.events.append(id, event);
      const row = store.sessions.get(id)?.status;
      expect(row).toBe(foldEvents(store.events.list(id)).status);
      return row;
    });
    expect(statuses).toEqual(['working', 'working', 'working', 'waiting', 'waiting', 'working', 'working']);
  });

  it('pins the model and workspace the session actually started with', () => {
    const id = newSession();
    store.events.append(id, { ...started, model: 'other-model', api: 'chat', maxSteps: 7 });
    expect(store.sessions.get(id)).toMatchObject({ model: 'other-model', api: 'chat', maxSteps: 7 });
  });

  it('refuses an event for a session that does not exist, and stores nothing', () => {
    const error = thrown(() => store.events.append('nope', task));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('There is no session nope');
    expect(store.events.count('nope')).toBe(0);
  });
});

describe('the ledger projection', () => {
  it('records a call as started before it runs, and its result after, in the same transaction as the event', () => {
    const id = newSession();
    store.events.append(id, responded(1));
    const { at: startedAt } = store.events.append(id, toolStarted);
    expect(store.ledger.get(id, 'call_1')).toEqual({
      sessionId: id,
      callId: 'call_1',
      name: 'run_command',
      args: { command: 'npm test' },
      startedAt,
      status: 'started',
    });
    expect(store.ledger.unfinished(id).map((call) => call.callId)).toEqual(['call_1']);

    const { at: finishedAt } = store.events.append(id, toolFinished);
    expect(store.ledger.get(id, 'call_1')).toEqual({
      sessionId: id,
      callId: 'call_1',
      name: 'run_command',
      args: { command: 'npm test' },
      startedAt,
      status: 'finished',
      outcome: 'ok',
      title: 'npm test (exit 0)',
      output: 'all 12 tests passed\n',
      metadata: { exitCode: 0 },
      durationMs: 1234,
      finishedAt,
    });
    expect(store.ledger.unfinished(id)).toEqual([]);
  });

  it('records a call that finished without starting (a denial)', () => {
    const id = newSession();
    store.events.append(id, {
      ...toolFinished,
      outcome: 'denied',
      title: 'Denied',
      output: 'The person said no: use yarn.',
      metadata: undefined,
    });
    expect(store.ledger.get(id, 'call_1')).toMatchObject({
      status: 'finished',
      outcome: 'denied',
      args: null,
      startedAt: null,
      metadata: null,
    });
  });

  it('refuses to start a call twice, and the refused event is not in the log', () => {
    const id = newSession();
    store.events.append(id, toolStarted);
    const error = thrown(() => store.events.append(id, toolStarted));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('a call runs once');
    expect(store.events.count(id)).toBe(1);
    expect(store.sessions.get(id)?.lastSeq).toBe(1);
  });

  it('refuses to finish a call twice and keeps the first result', () => {
    const id = newSession();
    store.events.append(id, toolStarted);
    store.events.append(id, toolFinished);
    const error = thrown(() => store.events.append(id, { ...toolFinished, output: 'second' }));
    expect(error.code).toBe('conflict');
    expect(store.ledger.get(id, 'call_1')).toMatchObject({ output: 'all 12 tests passed\n' });
    expect(store.events.count(id)).toBe(2);
  });
});

describe('the ledger kept to one start and one result per call, with other writers', () => {
  const toolStartedAs = (callId: string): EventOf<'tool.started'> => ({ ...toolStarted, callId });

  it('refuses a start another connection (another process) already logged, though this one never saw it', () => {
    const id = newSession();
    store.events.append(id, toolStartedAs('call_a'));
    const other = openStore(dir);
    try {
      other.events.append(id, toolStartedAs('call_b'));
      other.events.append(id, { ...toolFinished, callId: 'call_b' });
    } finally {
      other.close();
    }
    expect(thrown(() => store.events.append(id, toolStartedAs('call_b'))).message).toContain('a call runs once');
    expect(thrown(() => store.events.append(id, { ...toolFinished, callId: 'call_b' })).message).toContain('a call finishes once');
    // What this connection wrote itself is still known.
    expect(thrown(() => store.events.append(id, toolStartedAs('call_a'))).code).toBe('conflict');
    store.events.append(id, { ...toolFinished, callId: 'call_a' });
    expect(store.ledger.unfinished(id)).toEqual([]);
    expect(store.events.count(id)).toBe(4);
  });

  it('does not count a start whose append failed after the check', () => {
    const id = newSession();
    store.events.append(id, toolStartedAs('call_0'));
    // Passes the ledger check, then cannot be serialised: the transaction rolls back.
    const unstorable = { ...toolStarted, args: { count: 1n } } as unknown as SessionEvent;
    expect(() => store.events.append(id, unstorable)).toThrow(/BigInt/);
    expect(store.events.count(id)).toBe(1);
    store.events.append(id, toolStarted);
    expect(store.ledger.unfinished(id).map((call) => call.callId)).toEqual(['call_0', 'call_1']);
  });

  it('forgets the calls of a deleted session, even when a new one takes its id', () => {
    const id = newSession();
    store.events.append(id, toolStarted);
    store.sessions.delete(id);
    store.sessions.create({ id, workspace: '/work/app', model: 'gpt-test', api: 'responses', baseUrl: 'http://127.0.0.1:9', maxSteps: 50 });
    store.events.append(id, toolStarted);
    expect(store.ledger.unfinished(id).map((call) => call.callId)).toEqual(['call_1']);
  });

  it('keeps many sessions apart when it has to let some go from memory', () => {
    const ids = Array.from({ length: 40 }, () => newSession());
    for (const id of ids) store.events.append(id, toolStarted);
    for (const id of ids) expect(thrown(() => store.events.append(id, toolStarted)).code).toBe('conflict');
    for (const id of ids) store.events.append(id, toolFinished);
    for (const id of ids) expect(store.ledger.get(id, 'call_1')).toMatchObject({ status: 'finished' });
  });
});

describe('the approvals projection', () => {
  it('stores the request when asked and the decision when answered, leaving the inbox', () => {
    const id = newSession();
    const { at: askedAt } = store.events.append(id, asked);
    expect(store.approvals.pending()).toEqual([
      {
        id: 'ap_1',
        sessionId: id,
        callId: 'call_1',
        tool: 'run_command',
        risk: 'exec',
        summary: 'Run npm test',
        args: { command: 'npm test' },
        decision: null,
        ruleId: null,
        askedAt,
        answeredAt: null,
        expiredAt: null,
      },
    ]);
    const denial = { action: 'deny', scope: 'once', message: 'use yarn', by: 'person' } as const;
    const { at: answeredAt } = store.events.append(id, { ...answered, decision: denial });
    expect(store.approvals.pending(id)).toEqual([]);
    expect(store.approvals.get('ap_1')).toMatchObject({ decision: denial, answeredAt });
  });

  it('lists what is waiting across sessions, oldest first', () => {
    const a = newSession();
    const b = newSession();
    store.events.append(b, { ...asked, approvalId: 'first' });
    store.events.append(a, { ...asked, approvalId: 'second' });
    store.events.append(b, { ...asked, approvalId: 'third', callId: 'call_2' });
    expect(store.approvals.pending().map((approval) => approval.id)).toEqual(['first', 'second', 'third']);
    expect(store.approvals.pending(b).map((approval) => approval.id)).toEqual(['first', 'third']);
  });

  it('stays waiting while another approval of the session is still unanswered', () => {
    const id = newSession();
    store.events.append(id, asked);
    store.events.append(id, { ...asked, approvalId: 'ap_2', callId: 'call_2' });
    expect(store.approvals.waitingCount(id)).toBe(2);
    store.events.append(id, answered);
    expect(store.sessions.get(id)?.status).toBe('waiting');
    expect(store.approvals.waitingCount(id)).toBe(1);
    store.events.append(id, { ...answered, approvalId: 'ap_2', callId: 'call_2' });
    expect(store.sessions.get(id)?.status).toBe('working');
    expect(store.approvals.waitingCount(id)).toBe(0);
  });

  it('refuses an answer to an approval that was never asked, or answered already', () => {
    const id = newSession();
    expect(thrown(() => store.events.append(id, answered)).message).toContain('was never asked');
    store.events.append(id, asked);
    store.events.append(id, answered);
    expect(thrown(() => store.events.append(id, answered)).message).toContain('already answered');
    expect(store.events.count(id)).toBe(2);
  });

  it('keeps a waiting question on its session row, and writes the approval only once it is settled', () => {
    const id = newSession();
    const approvalRows = (): unknown[] =>
      onSecondConnection((db) => db.prepare('SELECT id, call_id, tool, request, decision, asked_at, answered_at FROM approvals').all());
    const { at: askedAt } = store.events.append(id, asked);
    expect(approvalRows()).toEqual([]);
    expect(store.approvals.get('ap_1')).toMatchObject({ sessionId: id, summary: 'Run npm test', decision: null, askedAt });
    const { at: answeredAt } = store.events.append(id, answered);
    expect(approvalRows()).toEqual([
      {
        id: 'ap_1',
        call_id: 'call_1',
        tool: 'run_command',
        request: JSON.stringify({ risk: 'exec', summary: 'Run npm test', args: { command: 'npm test' } }),
        decision: 'allow',
        asked_at: askedAt,
        answered_at: answeredAt,
      },
    ]);
  });

  it('refuses an approval id asked before, whether it still waits or was settled', () => {
    const id = newSession();
    store.events.append(id, asked);
    expect(thrown(() => store.events.append(id, { ...asked, callId: 'call_2' })).message).toContain('already asked');
    store.events.append(id, answered);
    expect(thrown(() => store.events.append(newSession(), asked)).message).toContain('already asked');
    expect(store.events.count(id)).toBe(2);
  });

  it('follows questions another process asked and answered', () => {
    const id = newSession();
    store.events.append(id, asked);
    const other = openStore(dir);
    try {
      other.events.append(id, { ...asked, approvalId: 'ap_2', callId: 'call_2' });
      other.events.append(id, answered);
    } finally {
      other.close();
    }
    expect(store.approvals.pending(id).map((approval) => approval.id)).toEqual(['ap_2']);
    store.events.append(id, { ...answered, approvalId: 'ap_2', callId: 'call_2' });
    expect(store.sessions.get(id)?.status).toBe('working');
    expect(store.approvals.pending()).toEqual([]);
    expect(thrown(() => store.events.append(id, answered)).message).toContain('already answered');
  });

  it('says which call an approval belongs to when answered for another', () => {
    const id = newSession();
    store.events.append(id, asked);
    expect(thrown(() => store.events.append(id, { ...answered, callId: 'call_9' })).message).toContain('belongs to call call_1');
    const elsewhere = newSession();
    expect(thrown(() => store.events.append(elsewhere, answered)).message).toContain('never asked');
  });

  it('says so when an id waiting in two sessions was settled in the other, and the session can still finish', () => {
    const a = newSession();
    const b = newSession();
    store.events.append(a, asked);
    store.events.append(b, asked);
    store.events.append(a, answered);
    expect(thrown(() => store.events.append(b, answered))).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('another session with the same id'),
    });
    store.events.append(b, { type: 'session.finished', status: 'failed', reason: 'The store refused an answer.' });
    expect(store.approvals.pending()).toEqual([]);
    expect(store.approvals.get('ap_1')).toMatchObject({ sessionId: a, decision: { action: 'allow' } });
  });

  it('names a damaged list of waiting approvals instead of failing deep inside', () => {
    const id = newSession();
    const damage = (waiting: string): void => {
      onSecondConnection((db) => db.prepare<[string, string]>('UPDATE sessions SET waiting = ? WHERE id = ?').run(waiting, id));
    };
    damage(JSON.stringify([{ id: 'ap_1', callId: 'call_1', seq: 99 }]));
    expect(thrown(() => store.events.append(id, answered))).toMatchObject({
      code: 'corrupt',
      message: expect.stringContaining('(seq 99) is not in the log'),
    });
    damage('not json');
    expect(thrown(() => store.events.append(id, answered))).toMatchObject({
      code: 'corrupt',
      message: expect.stringContaining(`session ${id} waits on cannot be read`),
    });
    expect(store.events.count(id)).toBe(0);
  });

  it('takes a question out of the inbox when its session finishes unanswered', () => {
    const id = newSession();
    store.events.append(id, asked);
    store.events.append(id, { type: 'session.finished', status: 'aborted', reason: 'Stopped by the person.' });
    expect(store.approvals.pending()).toEqual([]);
    expect(store.approvals.get('ap_1')?.expiredAt).not.toBeNull();
    expect(thrown(() => store.events.append(id, answered)).message).toContain('no longer waiting');
  });
});

describe('reading part of a log', () => {
  it('lists only the events of the types asked for, in order, and only from that session', () => {
    const id = newSession();
    const other = newSession();
    store.events.append(id, { type: 'user.messaged', text: 'first' });
    store.events.append(id, { type: 'model.requested', step: 1 });
    store.events.append(other, { type: 'user.messaged', text: 'elsewhere' });
    store.events.append(id, { type: 'plan.updated', steps: [] });
    store.events.append(id, { type: 'user.messaged', text: 'second' });

    expect(store.events.listOfTypes(id, ['user.messaged', 'plan.updated']).map(({ seq, event }) => [seq, event.type])).toEqual([
      [1, 'user.messaged'],
      [3, 'plan.updated'],
      [4, 'user.messaged'],
    ]);
    expect(store.events.listOfTypes(id, [])).toEqual([]);
  });
});

describe('the log on disk', () => {
  it('survives closing and reopening the store', () => {
    const id = newSession();
    const stored = wholeRun.map((event) => store.events.append(id, event));
    store.close();
    store = openStore(dir);
    expect(store.events.list(id)).toEqual(stored);
    expect(store.events.append(id, { type: 'session.resumed' }).seq).toBe(10);
  });

  it('names the session and seq of a row that no longer parses', () => {
    const id = newSession();
    store.events.append(id, started);
    store.events.append(id, task);
    onSecondConnection((db) => {
      db.exec(
        `INSERT INTO events (session_id, seq, type, at, payload) VALUES ('${id}', 3, 'tool.finished', 0, '{"type":"tool.finished","callId":7}')`,
      );
      db.exec(`INSERT INTO events (session_id, seq, type, at, payload) VALUES ('${id}', 4, 'user.messaged', 0, '{not json')`);
    });

    const error = thrown(() => store.events.list(id));
    expect(error.code).toBe('corrupt');
    expect(error.message).toContain(`Event 3 of session ${id}`);
    expect(error.message).toContain('callId');
    expect(thrown(() => store.events.list(id, 3)).message).toMatch(
      new RegExp(`Event 4 of session ${id} .* is corrupt: its payload is not JSON`),
    );
    expect(store.events.list(id, 4)).toEqual([]);
  });

  it('keeps stored events from being changed or deleted, except with their session', () => {
    const id = newSession();
    store.events.append(id, started);
    onSecondConnection((db) => {
      expect(() => db.exec(`UPDATE events SET payload = '{}' WHERE session_id = '${id}'`)).toThrow(/append-only/);
      expect(() => db.exec(`DELETE FROM events WHERE session_id = '${id}'`)).toThrow(/append-only/);
    });
    store.sessions.delete(id);
    expect(store.events.count(id)).toBe(0);
  });
});

describe('a page of the log', () => {
  it('carries at most so many events, or so many characters, always at least one, and says whether more follow', () => {
    const sessionId = newSession();
    const texts = ['a', 'b'.repeat(500), 'c', 'd', 'e'.repeat(2000), 'f'];
    for (const text of texts) store.events.append(sessionId, { type: 'user.messaged', text });
    const seqs = (page: ReturnType<Store['events']['page']>) => page.events.map((stored) => stored.seq);

    expect(seqs(store.events.page(sessionId, 0, { maxEvents: 4, maxChars: 1e6 }))).toEqual([1, 2, 3, 4]);
    expect(store.events.page(sessionId, 0, { maxEvents: 4, maxChars: 1e6 }).more).toBe(true);
    expect(store.events.page(sessionId, 2, { maxEvents: 4, maxChars: 1e6 })).toMatchObject({ more: false });
    expect(seqs(store.events.page(sessionId, 2, { maxEvents: 4, maxChars: 1e6 }))).toEqual([3, 4, 5, 6]);
    // The characters stop it before the long second event, and before the longer fifth.
    expect(seqs(store.events.page(sessionId, 0, { maxEvents: 100, maxChars: 300 }))).toEqual([1]);
    expect(seqs(store.events.page(sessionId, 2, { maxEvents: 100, maxChars: 300 }))).toEqual([3, 4]);
    // One event longer than the limit still comes, alone.
    const long = store.events.page(sessionId, 4, { maxEvents: 100, maxChars: 300 });
    expect(seqs(long)).toEqual([5]);
    expect(long.more).toBe(true);
    expect(store.events.page(sessionId, 6, { maxEvents: 100, maxChars: 300 })).toEqual({ events: [], more: false });
    // Read page by page, it is the whole log.
    const all = [];
    let after = 0;
    for (;;) {
      const page = store.events.page(sessionId, after, { maxEvents: 2, maxChars: 600 });
      all.push(...page.events);
      if (!page.more) break;
      after = page.events.at(-1)!.seq;
    }
    expect(all).toEqual(store.events.list(sessionId));
  });
});

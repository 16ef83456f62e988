import { describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from './events';
import { undoableRewind } from './rewinds';
import { itemCount } from './conversationState';
import { foldEvents, isFinished, type SessionState } from './session';
import { needsWholeConversation, pageOf, snapshotOf, SNAPSHOT_CHECKPOINTS, withPage } from './sessionWindow';

const usage = { inputTokens: 10, outputTokens: 2, cachedInputTokens: 0, reasoningTokens: 0 };

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A session's log as the agent loop writes it, chosen at random: turns with tool calls (some asked
 * about, allowed or denied; some run unasked), checkpoints after them, messages from the person,
 * plans, compactions, rewinds to any step that can be rewound to (files, conversation or both),
 * undone rewinds, runs that stop and resume, and sometimes a question left waiting at the end.
 */
function generatedLog(seed: number, turns: number, options: { rewinds?: boolean } = {}): StoredEvent[] {
  const rewinding = options.rewinds ?? true;
  const next = random(seed);
  const pick = <T>(options: readonly T[]): T => options[Math.floor(next() * options.length)]!;
  const log: StoredEvent[] = [];
  let state: SessionState = foldEvents([]);
  const append = (event: SessionEvent) => {
    const stored: StoredEvent = { sessionId: 's', seq: log.length + 1, at: 1000 + log.length, event };
    log.push(stored);
    state = foldEvents([stored], state);
  };
  let calls = 0;
  let approvals = 0;
  let step = 0;
  append({ type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://x', maxSteps: 500 });
  append({ type: 'user.messaged', text: 'the task' });
  append({ type: 'checkpoint.created', callId: null, commit: 'base', changed: true, skipped: 0 });
  for (let turn = 0; turn < turns; turn++) {
    const roll = next();
    if (roll < 0.55) {
      const callId = `c${++calls}`;
      const name = pick(['run_command', 'edit_file', 'read_file']);
      const args: Record<string, string> = name === 'run_command' ? { command: `make t${calls}` } : { path: `f${calls}.ts` };
      append({ type: 'model.requested', step: ++step });
      append({
        type: 'model.responded',
        items: [
          { type: 'assistant', text: `turn ${turn}` },
          { type: 'tool_call', callId, name, arguments: JSON.stringify(args) },
        ],
        usage,
        costUsd: 0.001,
      });
      let allowed = true;
      if (name !== 'read_file' && next() < 0.5) {
        const approvalId = `a${++approvals}`;
        append({ type: 'approval.asked', approvalId, callId, tool: name, risk: 'exec', summary: `Run ${callId}`, args });
        allowed = next() < 0.8;
        append({
          type: 'approval.answered',
          approvalId,
          callId,
          decision: { action: allowed ? 'allow' : 'deny', scope: 'once', by: 'person' },
        });
      }
      if (allowed) {
        append({ type: 'tool.started', callId, name, args });
        append({
          type: 'tool.finished',
          callId,
          name,
          outcome: 'ok',
          title: `${name} ${calls}`,
          output: `output of ${callId}\n`,
          durationMs: 3,
        });
        if (name !== 'read_file') append({ type: 'checkpoint.created', callId, commit: `k${calls}`, changed: next() < 0.7, skipped: 0 });
      } else {
        append({ type: 'tool.finished', callId, name, outcome: 'denied', title: name, output: 'denied', durationMs: 0 });
      }
    } else if (roll < 0.65) {
      append({ type: 'user.messaged', text: `message ${turn}` });
      append({ type: 'checkpoint.created', callId: null, commit: `m${turn}`, changed: false, skipped: 0 });
    } else if (roll < 0.72) {
      append({ type: 'plan.updated', steps: [{ step: `step ${turn}`, status: 'in_progress' }] });
    } else if (roll < 0.78 && itemCount(state) > 3) {
      append({ type: 'context.compacting', trigger: 'auto', tokensBefore: 900 });
      append({
        type: 'context.compacted',
        summary: `summary ${turn}`,
        keptFromItem: itemCount(state) - 2,
        tokensBefore: 900,
        tokensAfter: 100,
        files: [],
        plan: [],
        usage,
      });
    } else if (roll < 0.86 && rewinding && state.rewindPoints.length > 0) {
      append({ type: 'session.finished', status: 'aborted', reason: 'Stopped by the person.' });
      const point = pick(state.rewindPoints);
      const restore = pick(['both', 'conversation', 'files'] as const);
      append({
        type: 'session.rewound',
        toSeq: point.seq,
        restore,
        ...(restore !== 'conversation' ? { beforeCommit: 'b', restoredCommit: point.commit ?? 'r' } : {}),
        files: [],
        warnings: [],
      });
      append({ type: 'session.resumed' });
    } else if (roll < 0.9 && undoableRewind(state)) {
      const rewind = undoableRewind(state)!;
      append({ type: 'session.rewind_undone', rewindSeq: rewind.seq, restore: rewind.restore, files: [], warnings: [] });
    } else {
      append({ type: 'user.messaged', text: `note ${turn}` });
    }
  }
  if (next() < 0.5) {
    const callId = `c${++calls}`;
    append({ type: 'model.requested', step: ++step });
    append({
      type: 'model.responded',
      items: [{ type: 'tool_call', callId, name: 'run_command', arguments: '{"command":"rm -rf build"}' }],
      usage,
    });
    append({
      type: 'approval.asked',
      approvalId: `a${++approvals}`,
      callId,
      tool: 'run_command',
      risk: 'exec',
      summary: 'Run rm',
      args: { command: 'rm -rf build' },
    });
  }
  return log;
}

/** What a state holding only part of the conversation must agree on with the whole fold. */
function expectConsistent(held: SessionState, whole: SessionState): void {
  expect(itemCount(held)).toBe(itemCount(whole));
  expect(held.items).toEqual(whole.items.slice(held.itemsFrom));
  for (const item of held.items) {
    if (item.type === 'tool_call' || item.type === 'tool_result') expect(held.toolCalls[item.callId]).toEqual(whole.toolCalls[item.callId]);
  }
  for (const [callId, call] of Object.entries(held.toolCalls)) expect(call).toEqual(whole.toolCalls[callId]);
  expect(held.pendingApprovals).toEqual(whole.pendingApprovals);
  for (const approvalId of whole.pendingApprovals) expect(held.approvals[approvalId]).toEqual(whole.approvals[approvalId]);
  for (const [approvalId, approval] of Object.entries(held.approvals)) expect(approval).toEqual(whole.approvals[approvalId]);
  expect(held.rewindPoints).toEqual(whole.rewindPoints.filter((point) => point.mark.items > held.itemsFrom));
  expect(held.rewinds.length).toBe(whole.rewinds.length);
  held.rewinds.forEach((rewind, index) => {
    const full = whole.rewinds[index]!;
    const { dropped, droppedMore, before, ...rest } = rewind;
    const { dropped: fullDropped, before: fullBefore, ...fullRest } = full;
    expect(rest).toEqual(fullRest);
    expect(dropped).toEqual(fullDropped.slice(0, dropped.length));
    expect(dropped.length + (droppedMore ?? 0)).toBe(fullDropped.length);
    expect(before.mark).toEqual(fullBefore.mark);
    expect(before.items).toEqual(fullBefore.items.slice(before.itemsFrom ?? 0));
  });
  expect(whole.checkpoints.slice(-held.checkpoints.length)).toEqual(held.checkpoints);
  const rest = (state: SessionState) => {
    const {
      items: _items,
      itemsFrom: _from,
      toolCalls: _calls,
      approvals: _approvals,
      rewindPoints: _points,
      rewinds: _rewinds,
      checkpoints: _checkpoints,
      ...others
    } = state;
    return others;
  };
  expect(rest(held)).toEqual(rest(whole));
}

/**
 * Folds `log` as a window does: opened from main's snapshot at `openAt`, live events folded on top,
 * a page fetched now and then as the person scrolls back, and opened afresh whenever an event needs
 * items the window does not hold.
 */
function foldAsAWindow(
  log: StoredEvent[],
  openAt: number,
  windowItems: number,
  pageEvery: number,
): { state: SessionState; reopened: number } {
  let state = snapshotOf(foldEvents(log.slice(0, openAt)), windowItems);
  let reopened = 0;
  for (let index = openAt; index < log.length; index++) {
    const stored = log[index]!;
    if (needsWholeConversation(state, stored.event)) {
      state = snapshotOf(foldEvents(log.slice(0, index + 1)), windowItems);
      reopened++;
      continue;
    }
    state = foldEvents([stored], state);
    if (pageEvery > 0 && index % pageEvery === 0) state = withPage(state, pageOf(foldEvents(log.slice(0, index + 1)), state.itemsFrom, 3));
  }
  return { state, reopened };
}

describe('a session opened from a snapshot and its tail', () => {
  it('folds to the same session as the whole log, for logs with approvals, rewinds, undos and compactions', () => {
    let reopened = 0;
    let rewinds = 0;
    for (let seed = 1; seed <= 16; seed++) {
      const log = generatedLog(seed, 120);
      const whole = foldEvents(log);
      rewinds += whole.rewinds.length;
      for (const openAt of [3, Math.floor(log.length / 3), Math.floor((log.length * 2) / 3), log.length]) {
        for (const [windowItems, pageEvery] of [
          [6, 0],
          [6, 7],
          [40, 0],
        ] as const) {
          const folded = foldAsAWindow(log, openAt, windowItems, pageEvery);
          reopened += folded.reopened;
          expectConsistent(folded.state, whole);
        }
      }
    }
    // The generated logs did exercise what they are for.
    expect(rewinds).toBeGreaterThan(20);
    expect(reopened).toBeGreaterThan(0);
  });

  it('pages back to the first item, giving the whole conversation and every rewind point', () => {
    for (let seed = 30; seed < 36; seed++) {
      const whole = foldEvents(generatedLog(seed, 150));
      let state = snapshotOf(whole, 10);
      expect(state.itemsFrom).toBeGreaterThan(0);
      while (state.itemsFrom > 0) {
        const before = state.itemsFrom;
        state = withPage(state, pageOf(whole, state.itemsFrom, 7));
        expect(state.itemsFrom).toBe(Math.max(0, before - 7));
      }
      expect(state.items).toEqual(whole.items);
      expect(state.rewindPoints).toEqual(whole.rewindPoints);
      for (const item of whole.items)
        if (item.type === 'tool_call') expect(state.toolCalls[item.callId]).toEqual(whole.toolCalls[item.callId]);
    }
  });

  it('sends a short session as it is, and a long one with only its latest items, calls and rewind points', () => {
    const short = foldEvents(generatedLog(7, 10));
    expect(snapshotOf(short)).toBe(short);
    const whole = foldEvents(generatedLog(8, 400, { rewinds: false }));
    const snapshot = snapshotOf(whole, 20);
    expect(snapshot.items).toEqual(whole.items.slice(-20));
    expect(snapshot.itemsFrom).toBe(whole.items.length - 20);
    expect(JSON.stringify(snapshot).length).toBeLessThan(JSON.stringify(whole).length / 4);
    expect(snapshot.checkpoints.length).toBeLessThanOrEqual(SNAPSHOT_CHECKPOINTS);
    expect(snapshot.rewindPoints.every((point) => point.mark.items > snapshot.itemsFrom)).toBe(true);
    // Calls still going, and those waiting on the person, are kept whatever their place.
    for (const call of Object.values(whole.toolCalls)) if (!isFinished(call.status)) expect(snapshot.toolCalls[call.callId]).toEqual(call);
  });

  it('keeps a snapshot small however much a rewind took out, and counts what it left out', () => {
    const log = generatedLog(9, 300, { rewinds: false });
    const first = log.find((stored) => stored.event.type === 'user.messaged')!;
    const rewound = foldEvents([
      ...log,
      {
        sessionId: 's',
        seq: log.length + 1,
        at: 0,
        event: { type: 'session.rewound', toSeq: first.seq, restore: 'conversation', files: [], warnings: [] },
      },
    ]);
    const rewind = rewound.rewinds.at(-1)!;
    expect(rewind.dropped.length).toBeGreaterThan(300);
    const snapshot = snapshotOf(rewound);
    const kept = snapshot.rewinds.at(-1)!;
    expect(kept.dropped.length + kept.droppedMore!).toBe(rewind.dropped.length);
    expect(JSON.stringify(snapshot).length).toBeLessThan(JSON.stringify(rewound).length / 2);
  });

  it('asks for the whole conversation only for a rewind past what the window holds', () => {
    const whole = foldEvents(generatedLog(11, 300));
    const window = snapshotOf(whole, 10);
    const held = window.rewindPoints.at(-1);
    const older = whole.rewindPoints.find((point) => point.mark.items <= window.itemsFrom)!;
    const rewindTo = (toSeq: number, restore: 'both' | 'files' = 'both'): SessionEvent => ({
      type: 'session.rewound',
      toSeq,
      restore,
      files: [],
      warnings: [],
    });
    expect(needsWholeConversation(window, rewindTo(older.seq))).toBe(true);
    expect(needsWholeConversation(window, rewindTo(older.seq, 'files'))).toBe(false);
    if (held) expect(needsWholeConversation(window, rewindTo(held.seq))).toBe(false);
    expect(
      needsWholeConversation(window, { type: 'session.rewind_undone', rewindSeq: 999_999, restore: 'both', files: [], warnings: [] }),
    ).toBe(true);
    expect(needsWholeConversation(whole, rewindTo(older.seq))).toBe(false);
    expect(needsWholeConversation(window, { type: 'user.messaged', text: 'hi' })).toBe(false);
  });

  it('leaves out a page that no longer ends where the window begins', () => {
    const whole = foldEvents(generatedLog(12, 200));
    const window = snapshotOf(whole, 10);
    const stale = pageOf(whole, window.itemsFrom - 5, 5);
    expect(withPage(window, stale)).toBe(window);
    expect(withPage(window, pageOf(whole, window.itemsFrom, 0))).toBe(window);
  });
});

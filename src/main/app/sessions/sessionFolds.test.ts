import { describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../../../shared/events';
import { itemCount } from '../../../shared/conversationState';
import { foldEvents } from '../../../shared/session';
import { SNAPSHOT_ITEMS } from '../../../shared/sessionWindow';
import { SessionFolds } from './sessionFolds';

const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };

/** A log that reads like the store: events after a seq, counting how often it was read and what it handed out. */
function countingLog() {
  const logs = new Map<string, StoredEvent[]>();
  const reads: { sessionId: string; afterSeq: number; handed: number }[] = [];
  return {
    reads,
    append(sessionId: string, event: SessionEvent, at = 1000) {
      const log = logs.get(sessionId) ?? [];
      log.push({ sessionId, seq: log.length + 1, at: at + log.length, event });
      logs.set(sessionId, log);
    },
    all: (sessionId: string) => logs.get(sessionId) ?? [],
    list(sessionId: string, afterSeq: number) {
      const handed = (logs.get(sessionId) ?? []).filter((stored) => stored.seq > afterSeq);
      reads.push({ sessionId, afterSeq, handed: handed.length });
      return handed;
    },
  };
}

function turn(log: ReturnType<typeof countingLog>, sessionId: string, callId: string, finished = true): void {
  log.append(sessionId, {
    type: 'model.responded',
    items: [{ type: 'tool_call', callId, name: 'run_command', arguments: '{"command":"ls"}' }],
    usage,
  });
  log.append(sessionId, { type: 'tool.started', callId, name: 'run_command', args: { command: 'ls' } });
  if (finished)
    log.append(sessionId, { type: 'tool.finished', callId, name: 'run_command', outcome: 'ok', title: 'ls', output: 'a\n', durationMs: 1 });
}

describe('the folds main keeps for windows', () => {
  it('folds a session once and then only what was appended since', () => {
    const log = countingLog();
    log.append('s', { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'x', maxSteps: 9 });
    for (let i = 0; i < 300; i++) turn(log, 's', `c${i}`);
    const folds = new SessionFolds(log);
    const first = folds.snapshot('s');
    expect(first.state.lastSeq).toBe(901);
    expect(first.state.items).toHaveLength(SNAPSHOT_ITEMS);
    expect(itemCount(first.state)).toBe(600);
    turn(log, 's', 'late', false);
    const second = folds.snapshot('s');
    expect(log.reads.map((read) => [read.afterSeq, read.handed])).toEqual([
      [0, 901],
      [901, 2],
    ]);
    expect(second.state.toolCalls.late).toMatchObject({ status: 'running' });
    // The running call's clock and nothing else: finished calls need no start time.
    expect(second.startedAt).toEqual({ late: 1000 + 902 });
    expect(folds.state('s')).toEqual(foldEvents(log.all('s')));
  });

  it('pages the whole fold, and forgets the least recently used session past its limit', () => {
    const log = countingLog();
    for (const sessionId of ['a', 'b', 'c']) {
      log.append(sessionId, { type: 'user.messaged', text: `task ${sessionId}` });
      log.append(
        sessionId,
        { type: 'approval.asked', approvalId: `ap-${sessionId}`, callId: 'x', tool: 'run_command', risk: 'exec', summary: 's', args: {} },
        5000,
      );
    }
    const folds = new SessionFolds(log, 2);
    expect(folds.snapshot('a').askedAt).toEqual({ 'ap-a': 5001 });
    folds.page('b', 1, 10);
    expect(folds.page('a', 1, 10).items).toEqual([{ type: 'user', text: 'task a' }]);
    folds.snapshot('c'); // b is the least recently used: forgotten
    folds.snapshot('a');
    folds.snapshot('b');
    expect(log.reads.filter((read) => read.afterSeq === 0).map((read) => read.sessionId)).toEqual(['a', 'b', 'c', 'b']);
    folds.forget('a');
    folds.snapshot('a');
    expect(log.reads.at(-1)).toEqual({ sessionId: 'a', afterSeq: 0, handed: 2 });
  });
});

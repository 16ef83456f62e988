import { describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../../shared/events';
import { ownSteps } from './ownSteps';

function log(...events: SessionEvent[]): StoredEvent[] {
  return events.map((event, index) => ({ sessionId: 's', seq: index + 1, at: 0, event }));
}
const checkpoint = (callId: string | null, commit: string, before?: string): SessionEvent => ({
  type: 'checkpoint.created',
  callId,
  commit,
  changed: true,
  skipped: 0,
  ...(before ? { before } : {}),
});
const message: SessionEvent = { type: 'user.messaged', text: 'go' };

describe('the session’s own steps', () => {
  it('bracket each call by the snapshot taken once it was allowed and its checkpoint, leaving the gaps to others', () => {
    const events = log(
      message,
      checkpoint(null, 'start'),
      checkpoint('c1', 'a1', 'b1'),
      checkpoint('c2', 'a2', 'b2'),
      checkpoint('c3', 'b3', 'b3'),
    );
    expect(ownSteps(events, 'session')).toEqual([
      { before: 'b1', after: 'a1' },
      { before: 'b2', after: 'a2' },
    ]);
  });

  it('counts reverts, their undoing, rewinds and their undoing as the session’s own', () => {
    const events = log(
      message,
      checkpoint('c1', 'a1', 'b1'),
      { type: 'changes.reverted', path: 'x', hunks: 'file', note: 'x', snapshots: { before: 'r0', after: 'r1' } },
      { type: 'changes.revert_undone', path: 'x', hunks: 'file', note: 'x', snapshots: { before: 'u0', after: 'u1' } },
      { type: 'session.rewound', toSeq: 2, restore: 'files', beforeCommit: 'w0', restoredCommit: 'w1', files: [], warnings: [] },
      { type: 'session.rewind_undone', rewindSeq: 5, restore: 'files', beforeCommit: 'w2', files: [], warnings: [] },
      // Recorded before snapshots were: nothing to go on, so not counted.
      { type: 'changes.reverted', path: 'y', hunks: 'file', note: 'y' },
    );
    expect(ownSteps(events, 'session')).toEqual([
      { before: 'b1', after: 'a1' },
      { before: 'r0', after: 'r1' },
      { before: 'u0', after: 'u1' },
      { before: 'w0', after: 'w1' },
      { before: 'w2', after: 'w0' },
    ]);
  });

  it('starts the session scope after its latest accept, and the turn scope after the latest message or a later accept', () => {
    const events = log(
      message,
      checkpoint('c1', 'a1', 'b1'),
      { type: 'changes.accepted', scope: 'session', commit: 'x' },
      checkpoint('c2', 'a2', 'b2'),
      message,
      checkpoint('c3', 'a3', 'b3'),
      { type: 'changes.accepted', scope: 'turn', commit: 'y' },
      checkpoint('c4', 'a4', 'b4'),
    );
    expect(ownSteps(events, 'session').map((step) => step.after)).toEqual(['a2', 'a3', 'a4']);
    expect(ownSteps(events, 'turn').map((step) => step.after)).toEqual(['a4']);
  });

  it('counts a step as accepted only for the files accepted one at a time after it, and not at all for an undone accept', () => {
    const events = log(
      message,
      checkpoint('c1', 'a1', 'b1'),
      { type: 'changes.accepted', scope: 'session', commit: 'x', paths: ['a.ts'] },
      checkpoint('c2', 'a2', 'b2'),
      { type: 'changes.accepted', scope: 'turn', commit: 'y', paths: ['b.ts'] },
      checkpoint('c3', 'a3', 'b3'),
    );
    expect(ownSteps(events, 'session')).toEqual([
      { before: 'b1', after: 'a1', accepted: new Set(['a.ts']) },
      { before: 'b2', after: 'a2' },
      { before: 'b3', after: 'a3' },
    ]);
    expect(ownSteps(events, 'turn')).toEqual([
      { before: 'b1', after: 'a1', accepted: new Set(['a.ts', 'b.ts']) },
      { before: 'b2', after: 'a2', accepted: new Set(['b.ts']) },
      { before: 'b3', after: 'a3' },
    ]);
    const undone = log(...events.map((stored) => stored.event), { type: 'changes.accept_undone', acceptSeq: 3 });
    expect(ownSteps(undone, 'session').every((step) => step.accepted === undefined)).toBe(true);
  });

  it('ignores an accept of the whole scope once it is undone', () => {
    const events = log(
      message,
      checkpoint('c1', 'a1', 'b1'),
      { type: 'changes.accepted', scope: 'session', commit: 'x' },
      checkpoint('c2', 'a2', 'b2'),
      { type: 'changes.accept_undone', acceptSeq: 3 },
    );
    expect(ownSteps(events, 'session').map((step) => step.after)).toEqual(['a1', 'a2']);
    expect(ownSteps(events, 'turn').map((step) => step.after)).toEqual(['a1', 'a2']);
  });

  it('falls back to the previous snapshot for a checkpoint logged before `before` was recorded', () => {
    const events = log(message, checkpoint(null, 'start'), checkpoint('c1', 'a1'), checkpoint('c2', 'a2'));
    expect(ownSteps(events, 'session', 'base')).toEqual([
      { before: 'start', after: 'a1' },
      { before: 'a1', after: 'a2' },
    ]);
  });
});

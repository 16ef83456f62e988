import type { EventOf, SessionEvent } from '../../shared/events';
import type { Database, Statement } from './sqlite/database';
import { eventsOf } from './eventKeys';
import type { SessionHead } from './sessionHeads';
import { StoreError } from './storeError';

type ToolEvent = EventOf<'tool.started'> | EventOf<'tool.finished'>;
type CallState = 'started' | 'finished';

interface KnownCalls {
  num: number;
  createdAt: number;
  /** Every tool event of the session up to this seq is in `calls`. */
  throughSeq: number;
  calls: Map<string, CallState>;
}

/** Sessions whose calls are kept in memory; one more reads that session's tool events again. */
const SESSIONS_KEPT = 32;

/**
 * The ledger's rule, "a call starts once and finishes once", checked against the log itself: the
 * log's tool.started and tool.finished events are the ledger (ledger.ts reads them), so no second
 * table is written per call. What a session's log says about its calls is kept per connection and
 * brought up to date from the log whenever it moved without this connection (another process
 * appended, or an append rolled back), so the check costs no statement in the common case.
 *
 * Call `check` inside the append transaction, after reading the session's head, and `appended`
 * once the event is written; a group of appends rolled back as a whole makes the store call `forgetAll`.
 */
export class ToolCallGuard {
  private readonly known = new Map<string, KnownCalls>();
  private readonly toolEventsAfter: Statement<[{ num: number; afterSeq: number }], { type: ToolEvent['type']; callId: string }>;

  constructor(db: Database) {
    this.toolEventsAfter = db.prepare(
      `SELECT e.type, json_extract(e.payload, '$.callId') AS callId FROM events e
       WHERE ${eventsOf('e', '@num', '@afterSeq')} AND e.type IN ('tool.started', 'tool.finished')
       ORDER BY e.key`,
    );
  }

  /** Throws a conflict when `event` would start or finish a call the second time. */
  check(sessionId: string, head: Readonly<SessionHead>, event: ToolEvent): void {
    const state = this.callsOf(sessionId, head).get(event.callId);
    if (event.type === 'tool.started' && state !== undefined) {
      throw new StoreError(
        'conflict',
        `Tool call ${event.callId} of session ${sessionId} is already in the ledger; a call runs once, so report its stored result (or "outcome unknown") instead of running it again.`,
      );
    }
    if (event.type === 'tool.finished' && state === 'finished') {
      throw new StoreError(
        'conflict',
        `Tool call ${event.callId} of session ${sessionId} already finished; its result is in the ledger and a call finishes once.`,
      );
    }
  }

  /** Records a written append (every event, so the known log keeps up with the real one). */
  appended(sessionId: string, head: Readonly<SessionHead>, seq: number, event: SessionEvent): void {
    const known = this.known.get(sessionId);
    if (!known || !sameSession(known, head) || known.throughSeq !== seq - 1) return;
    known.throughSeq = seq;
    if (event.type === 'tool.started') known.calls.set(event.callId, 'started');
    if (event.type === 'tool.finished') known.calls.set(event.callId, 'finished');
  }

  /** Drops what is known of a session (it was deleted). */
  forget(sessionId: string): void {
    this.known.delete(sessionId);
  }

  /** Drops what is known of every session: appends it was learnt from were rolled back. */
  forgetAll(): void {
    this.known.clear();
  }

  private callsOf(sessionId: string, head: Readonly<SessionHead>): Map<string, CallState> {
    let known = this.known.get(sessionId);
    if (!known || !sameSession(known, head) || known.throughSeq > head.lastSeq) {
      known = { num: head.num, createdAt: head.createdAt, throughSeq: 0, calls: new Map() };
    }
    if (known.throughSeq < head.lastSeq) {
      for (const row of this.toolEventsAfter.iterate({ num: head.num, afterSeq: known.throughSeq })) {
        known.calls.set(row.callId, row.type === 'tool.started' ? 'started' : 'finished');
      }
      known.throughSeq = head.lastSeq;
    }
    // Most recently used last, so the first is the one to let go.
    this.known.delete(sessionId);
    this.known.set(sessionId, known);
    if (this.known.size > SESSIONS_KEPT) this.known.delete(this.known.keys().next().value as string);
    return known.calls;
  }
}

function sameSession(known: KnownCalls, head: Readonly<SessionHead>): boolean {
  return known.num === head.num && known.createdAt === head.createdAt;
}

import type { SessionEvent, SessionEventType, StoredEvent } from '../../shared/events';
import type { Database, Statement } from './db';
import { eventKey, eventsOf } from './eventKeys';
import { parseEvent, type EventRecord } from './parseEvent';
import type { Projections } from './projections';

/**
 * The session log. An event is appended, with everything it changes elsewhere, in one transaction
 * of its own before anyone acts on it; once stored it never changes.
 */
export class EventLog {
  private readonly appendTx: (sessionId: string, event: SessionEvent) => StoredEvent;
  private readonly selectAfter: Statement<[{ sessionId: string; afterSeq: number }], EventRecord>;
  private readonly selectOfTypes: Statement<[{ sessionId: string; types: string }], EventRecord>;
  private readonly countOf: Statement<[string], { count: number }>;

  constructor(
    private readonly db: Database,
    projections: Projections,
    now: () => number,
  ) {
    const insert = db.prepare<[num: number, seq: number, sessionId: string, seq: number, type: string, at: number, payload: string]>(
      `INSERT INTO events (key, session_id, seq, type, at, payload) VALUES (${eventKey('?', '?')}, ?, ?, ?, ?, ?)`,
    );
    this.selectAfter = db.prepare(
      `SELECT e.seq, e.type, e.at, e.payload FROM sessions s JOIN events e ON ${eventsOf('e', 's.num', '@afterSeq')}
       WHERE s.id = @sessionId ORDER BY e.key`,
    );
    this.selectOfTypes = db.prepare(
      `SELECT e.seq, e.type, e.at, e.payload FROM sessions s JOIN events e ON ${eventsOf('e', 's.num')}
       WHERE s.id = @sessionId AND e.type IN (SELECT value FROM json_each(@types)) ORDER BY e.key`,
    );
    this.countOf = db.prepare(
      `SELECT COUNT(*) AS count FROM sessions s JOIN events e ON ${eventsOf('e', 's.num')} WHERE s.id = ?`,
    );
    const appendTx = db.writer((sessionId: string, event: SessionEvent) => {
      const at = now();
      const { head, seq } = projections.apply(sessionId, event, at);
      insert.run(head.num, seq, sessionId, seq, event.type, at, JSON.stringify(event));
      return { head, seq, at };
    });
    this.appendTx = (sessionId: string, event: SessionEvent): StoredEvent => {
      const { head, seq, at } = appendTx(sessionId, event);
      projections.committed(sessionId, head, seq, event);
      return { sessionId, seq, at, event };
    };
  }

  /**
   * Stores `event` as the session's next one and returns it with its seq. The event is trusted to
   * be well formed (the caller built it from the SessionEvent types); it is checked when read.
   */
  append(sessionId: string, event: SessionEvent): StoredEvent {
    return this.appendTx(sessionId, event);
  }

  /** The session's events after `afterSeq`, in order; a row that no longer parses is a clear error. */
  list(sessionId: string, afterSeq = 0): StoredEvent[] {
    return this.selectAfter
      .all({ sessionId, afterSeq })
      .map((record) => ({ sessionId, seq: record.seq, at: record.at, event: parseEvent(this.db.file, sessionId, record) }));
  }

  /**
   * The session's events of the given types, in order: for a reader that needs a few kinds out of
   * a long log (the live diff's bases) without parsing every response and tool output in it.
   */
  listOfTypes(sessionId: string, types: readonly SessionEventType[]): StoredEvent[] {
    return this.selectOfTypes
      .all({ sessionId, types: JSON.stringify(types) })
      .map((record) => ({ sessionId, seq: record.seq, at: record.at, event: parseEvent(this.db.file, sessionId, record) }));
  }

  count(sessionId: string): number {
    return this.countOf.get(sessionId)?.count ?? 0;
  }
}

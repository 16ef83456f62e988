import type { SessionEvent, SessionEventType, StoredEvent } from '../../shared/events';
import type { CommitGroup, Database, Statement } from './sqlite/database';
import { eventKey, eventsOf } from './eventKeys';
import { parseEvent, type EventRecord } from './parseEvent';
import type { Projections } from './projections';
import type { SessionHead } from './sessionHeads';

/**
 * The session log. An event is appended, with everything it changes elsewhere, atomically and
 * before anyone acts on it; once stored it never changes. `append` commits at once; `appendGrouped`
 * lets events nothing acts on yet share the commit of the next one (group commit).
 */
export class EventLog {
  private readonly appendTx: (sessionId: string, event: SessionEvent) => StoredEvent;
  private readonly appendToGroup: (sessionId: string, event: SessionEvent) => { stored: StoredEvent; group: CommitGroup };
  private readonly selectAfter: Statement<[{ sessionId: string; afterSeq: number }], EventRecord>;
  private readonly selectPage: Statement<[{ sessionId: string; afterSeq: number; limit: number }], EventRecord>;
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
    this.selectPage = db.prepare(
      `SELECT e.seq, e.type, e.at, e.payload FROM sessions s JOIN events e ON ${eventsOf('e', 's.num', '@afterSeq')}
       WHERE s.id = @sessionId ORDER BY e.key LIMIT @limit`,
    );
    this.selectOfTypes = db.prepare(
      `SELECT e.seq, e.type, e.at, e.payload FROM sessions s JOIN events e ON ${eventsOf('e', 's.num')}
       WHERE s.id = @sessionId AND e.type IN (SELECT value FROM json_each(@types)) ORDER BY e.key`,
    );
    this.countOf = db.prepare(`SELECT COUNT(*) AS count FROM sessions s JOIN events e ON ${eventsOf('e', 's.num')} WHERE s.id = ?`);
    const write = (sessionId: string, event: SessionEvent): { head: SessionHead; seq: number; at: number } => {
      const at = now();
      const { head, seq } = projections.apply(sessionId, event, at);
      insert.run(head.num, seq, sessionId, seq, event.type, at, JSON.stringify(event));
      return { head, seq, at };
    };
    const appendTx = db.writer(write);
    this.appendTx = (sessionId: string, event: SessionEvent): StoredEvent => {
      const { head, seq, at } = appendTx(sessionId, event);
      projections.appended(sessionId, head, seq, event);
      return { sessionId, seq, at, event };
    };
    const groupTx = db.groupWriter(write);
    this.appendToGroup = (sessionId: string, event: SessionEvent) => {
      const { result, group } = groupTx(sessionId, event);
      // Kept at once: the next append in the group builds on it (a rollback forgets it again, store.ts).
      projections.appended(sessionId, result.head, result.seq, event);
      return { stored: { sessionId, seq: result.seq, at: result.at, event }, group };
    };
  }

  /**
   * Stores `event` as the session's next one, committed (with any events grouped before it) when
   * this returns, and returns it with its seq. The event is trusted to be well formed (the caller
   * built it from the SessionEvent types); it is checked when read.
   */
  append(sessionId: string, event: SessionEvent): StoredEvent {
    return this.appendTx(sessionId, event);
  }

  /**
   * Appends `event` as `append` does, refusals included, but leaves its commit to the next write
   * that commits (an `append`, any other change to the store), `commit()`, or the end of this turn
   * of the event loop, whichever comes first; the group says whether it was stored in the end. For
   * events nobody acts on before that commit.
   */
  appendGrouped(sessionId: string, event: SessionEvent): { stored: StoredEvent; group: CommitGroup } {
    return this.appendToGroup(sessionId, event);
  }

  /** Commits the events appended with `appendGrouped` so far; throws when that fails (the group says why). */
  commit(): void {
    this.db.commit();
  }

  /** Brings the open group's state up to date (SQLite may have rolled it back after an error). */
  checkGroup(): void {
    this.db.checkGroup();
  }

  /**
   * The session's events after `afterSeq`, in order; a row that no longer parses is a clear error.
   * It commits first (so does `listOfTypes`): what is read is shown to someone or acted on, and
   * a group rolled back later would leave the reader holding events that were never stored.
   */
  list(sessionId: string, afterSeq = 0): StoredEvent[] {
    this.commit();
    return this.selectAfter
      .all({ sessionId, afterSeq })
      .map((record) => ({ sessionId, seq: record.seq, at: record.at, event: parseEvent(this.db.file, sessionId, record) }));
  }

  /**
   * A page of the session's events after `afterSeq`, in order: at most `maxEvents`, and no more
   * once their payloads reach `maxChars` (always one, if there is one, however long), with whether
   * the log goes on. A reader of a long log (a window catching up) takes it a page at a time, so
   * no answer grows with the log. It commits first, as `list` does.
   */
  page(sessionId: string, afterSeq: number, limits: { maxEvents: number; maxChars: number }): { events: StoredEvent[]; more: boolean } {
    this.commit();
    const records = this.selectPage.all({ sessionId, afterSeq, limit: limits.maxEvents + 1 });
    const events: StoredEvent[] = [];
    let chars = 0;
    for (const record of records) {
      if (events.length === limits.maxEvents || (events.length > 0 && chars + record.payload.length > limits.maxChars)) break;
      chars += record.payload.length;
      events.push({ sessionId, seq: record.seq, at: record.at, event: parseEvent(this.db.file, sessionId, record) });
    }
    return { events, more: events.length < records.length };
  }

  /**
   * The session's events of the given types, in order: for a reader that needs a few kinds out of
   * a long log (the live diff's bases) without parsing every response and tool output in it.
   */
  listOfTypes(sessionId: string, types: readonly SessionEventType[]): StoredEvent[] {
    this.commit();
    return this.selectOfTypes
      .all({ sessionId, types: JSON.stringify(types) })
      .map((record) => ({ sessionId, seq: record.seq, at: record.at, event: parseEvent(this.db.file, sessionId, record) }));
  }

  count(sessionId: string): number {
    return this.countOf.get(sessionId)?.count ?? 0;
  }
}

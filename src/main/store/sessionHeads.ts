import type { SessionStatus } from '../../shared/session';
import type { Database, Statement } from './sqlite/database';
import { lastEventOf } from './eventKeys';
import { noTotals, type Totals } from './sessionTotals';
import { parseWaiting, type WaitingApproval } from './waitingApprovals';

/** The end of a session's log and what an append needs of its row, read under the write lock. */
export interface SessionHead {
  /** The session's number: the high half of its event keys. */
  num: number;
  /** With `num`, tells a session from one deleted and created again under the same id. */
  createdAt: number;
  /** The seq of the last event stored; 0 before the first. */
  lastSeq: number;
  status: SessionStatus;
  /** The row's totals hold up to this seq (sessionTotals.ts). */
  totalsSeq: number;
  /**
   * What the responses after `totalsSeq` add to the row's totals, kept as they are appended, so
   * writing the row brings its totals up to date without reading the log; null while unknown (the
   * head was read from a row that trails its log: another process appended the responses).
   */
  tail: Totals | null;
  /** The approvals the session waits on, oldest first (the row's `waiting`). Replaced, never changed in place. */
  waiting: readonly WaitingApproval[];
}

/** Which session, and which stretch of its log the row's totals leave out (after totalsSeq, up to lastSeq). */
export type StretchOfLog = Pick<SessionHead, 'num' | 'createdAt' | 'totalsSeq' | 'lastSeq'>;

/** Sessions whose head is kept in memory; one more is read again on its next append. */
const SESSIONS_KEPT = 32;

/**
 * Each session's head as this connection last wrote it, so an append does not read it again.
 * `PRAGMA data_version` moves only when another connection (another process: the app and
 * `tether run` share the file) commits; then everything kept is dropped and read afresh. The
 * writes this connection makes outside the log (a session deleted, a status set by hand) forget
 * their session themselves. A copy is handed out, and kept again only once its append is written,
 * so an append that throws leaves nothing wrong behind; a group of appends that rolls back as a
 * whole (sqlite/database.ts) makes the store forget every head.
 */
export class SessionHeads {
  private readonly known = new Map<string, SessionHead>();
  private readonly dataVersion: Statement<[], number>;
  private readonly select: Statement<[string], Omit<SessionHead, 'tail' | 'waiting'> & { waiting: string }>;
  private seenVersion = Number.NaN;

  constructor(private readonly db: Database) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.select = db.prepare(
      `SELECT num, created_at AS createdAt, status, totals_seq AS totalsSeq, waiting,
         coalesce((SELECT e.seq ${lastEventOf('sessions.num')}), 0) AS lastSeq
       FROM sessions WHERE id = ?`,
    );
  }

  /** The session's head, for an append to work on; undefined when there is no such session. Inside a write transaction. */
  read(sessionId: string): SessionHead | undefined {
    // A PRAGMA always answers; were it not to, NaN equals nothing and the heads are read afresh.
    const version = this.dataVersion.get() ?? Number.NaN;
    if (version !== this.seenVersion) {
      this.known.clear();
      this.seenVersion = version;
    }
    const known = this.known.get(sessionId);
    if (known) return { ...known };
    const row = this.select.get(sessionId);
    if (!row) return undefined;
    return {
      ...row,
      // A row whose totals reach its last event has nothing after them yet.
      tail: row.totalsSeq === row.lastSeq ? noTotals : null,
      waiting: parseWaiting(this.db.file, sessionId, row.waiting),
    };
  }

  /** Keeps `head` (as the written append left it) for the session's next append. */
  keep(sessionId: string, head: SessionHead): void {
    // Most recently used last, so the first is the one to let go.
    this.known.delete(sessionId);
    this.known.set(sessionId, head);
    if (this.known.size > SESSIONS_KEPT) this.known.delete(this.known.keys().next().value as string);
  }

  /**
   * The totals of the responses after `row.totalsSeq` as this connection appended them, when what it
   * keeps is exactly that stretch of that session's log (the same session, totals and last seq; a
   * session deleted and made again under the same id differs in its creation time). Otherwise
   * undefined, and the reader adds them from the log.
   */
  knownTail(sessionId: string, row: StretchOfLog): Totals | undefined {
    const head = this.known.get(sessionId);
    const same =
      head && head.num === row.num && head.createdAt === row.createdAt && head.totalsSeq === row.totalsSeq && head.lastSeq === row.lastSeq;
    return (same && head.tail) || undefined;
  }

  /** Drops what is kept of a session this connection changed outside the log. */
  forget(sessionId: string): void {
    this.known.delete(sessionId);
  }

  /** Drops every head: writes they were kept from were rolled back. */
  forgetAll(): void {
    this.known.clear();
  }
}

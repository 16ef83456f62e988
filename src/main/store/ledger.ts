import type { SessionEvent, ToolOutcome } from '../../shared/events';
import type { Json } from '../../shared/json';
import type { Database, Statement } from './db';
import { eventKey } from './eventKeys';
import { parseEvent } from './parseEvent';
import { StoreError } from './storeError';

interface LedgerBase {
  sessionId: string;
  callId: string;
  name: string;
  /** The arguments the call ran with; null for a call that finished without starting. */
  args: Json | null;
  startedAt: number | null;
}

/** Written before the tool ran; still 'started' after a restart means the outcome is unknown. */
export interface StartedCall extends LedgerBase {
  status: 'started';
}

/** The stored result: what a retry, reconnect or restart reports instead of running the call again. */
export interface FinishedCall extends LedgerBase {
  status: 'finished';
  outcome: ToolOutcome;
  title: string;
  output: string;
  metadata: Json | null;
  durationMs: number;
  finishedAt: number;
}

export type LedgerEntry = StartedCall | FinishedCall;

interface LedgerRecord {
  sessionId: string;
  callId: string;
  name: string;
  status: 'started' | 'finished';
  startedSeq: number | null;
  startedAt: number | null;
  startedPayload: string | null;
  finishedSeq: number | null;
  finishedAt: number | null;
  finishedPayload: string | null;
}

// Arguments and results live in the events the row points at, so they are stored once.
const SELECT = `SELECT t.session_id AS sessionId, t.call_id AS callId, t.name, t.status,
    t.started_seq AS startedSeq, t.started_at AS startedAt, s.payload AS startedPayload,
    t.finished_seq AS finishedSeq, t.finished_at AS finishedAt, f.payload AS finishedPayload
  FROM tool_calls t
  JOIN sessions ss ON ss.id = t.session_id
  LEFT JOIN events s ON s.key = ${eventKey('ss.num', 't.started_seq')}
  LEFT JOIN events f ON f.key = ${eventKey('ss.num', 't.finished_seq')}`;

/** The tool-call ledger, read side; tool.started and tool.finished events write it (projections.ts). */
export class Ledger {
  private readonly selectOne: Statement<[string, string], LedgerRecord>;
  private readonly selectUnfinished: Statement<[string], LedgerRecord>;

  constructor(private readonly db: Database) {
    this.selectOne = db.prepare(`${SELECT} WHERE t.session_id = ? AND t.call_id = ?`);
    this.selectUnfinished = db.prepare(`${SELECT} WHERE t.session_id = ? AND t.status = 'started' ORDER BY t.started_seq`);
  }

  get(sessionId: string, callId: string): LedgerEntry | undefined {
    const record = this.selectOne.get(sessionId, callId);
    return record && this.toEntry(record);
  }

  /** Calls that started and never finished, oldest first: after a crash, their outcome is unknown. */
  unfinished(sessionId: string): StartedCall[] {
    return this.selectUnfinished.all(sessionId).map((record) => this.toEntry(record) as StartedCall);
  }

  private toEntry(record: LedgerRecord): LedgerEntry {
    const started = this.eventAt(record, record.startedSeq, record.startedPayload, 'tool.started');
    const base: LedgerBase = {
      sessionId: record.sessionId,
      callId: record.callId,
      name: record.name,
      args: started?.type === 'tool.started' ? started.args : null,
      startedAt: record.startedAt,
    };
    if (record.status === 'started') return { ...base, status: 'started' };
    const finished = this.eventAt(record, record.finishedSeq, record.finishedPayload, 'tool.finished');
    if (finished?.type !== 'tool.finished') {
      throw new StoreError(
        'corrupt',
        `The ledger says call ${record.callId} of session ${record.sessionId} finished, but its tool.finished event (seq ${record.finishedSeq}) is missing from ${this.db.file}. Restore the database from a backup or delete the session.`,
      );
    }
    return {
      ...base,
      status: 'finished',
      outcome: finished.outcome,
      title: finished.title,
      output: finished.output,
      metadata: finished.metadata ?? null,
      durationMs: finished.durationMs,
      finishedAt: record.finishedAt ?? 0,
    };
  }

  private eventAt(record: LedgerRecord, seq: number | null, payload: string | null, type: string): SessionEvent | undefined {
    if (seq === null || payload === null) return undefined;
    return parseEvent(this.db.file, record.sessionId, { seq, type, at: 0, payload });
  }
}

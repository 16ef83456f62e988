import type { Json } from '../../shared/json';
import type { Decision, Risk } from '../../shared/permissions';
import type { Database, Statement } from './sqlite/database';
import { eventKey } from './eventKeys';
import { parseEvent, type EventRecord } from './parseEvent';
import { StoreError } from './storeError';

/** A permission request and, once given, its answer. */
export interface ApprovalRow {
  id: string;
  sessionId: string;
  callId: string;
  tool: string;
  risk: Risk;
  /** What the person was shown: one line of what will happen. */
  summary: string;
  args: Json;
  decision: Decision | null;
  /** The rule "Allow always" made from this answer, if any. */
  ruleId: string | null;
  askedAt: number;
  answeredAt: number | null;
  /** Set when the session finished before anyone answered. */
  expiredAt: number | null;
}

interface ApprovalRecord {
  id: string;
  sessionId: string;
  callId: string;
  tool: string;
  request: string;
  decision: 'allow' | 'deny' | null;
  scope: Decision['scope'] | null;
  message: string | null;
  answeredBy: Decision['by'] | null;
  ruleId: string | null;
  askedAt: number;
  answeredAt: number | null;
  expiredAt: number | null;
}

const COLUMNS = `id, session_id AS sessionId, call_id AS callId, tool, request, decision, scope, message,
  answered_by AS answeredBy, rule_id AS ruleId, asked_at AS askedAt, answered_at AS answeredAt, expired_at AS expiredAt`;

/** What the rows with a non-empty `waiting` list say, each with the approval.asked event it points at. */
const WAITING = `SELECT s.id AS sessionId, e.seq, e.type, e.at, e.payload
  FROM sessions s, json_each(s.waiting) w
  JOIN events e ON e.key = ${eventKey('s.num', "(w.value ->> '$.seq')")}
  WHERE s.waiting <> '[]'`;

/**
 * Approvals, read side; approval.asked and approval.answered events write them (projections.ts).
 * One that is still waiting is on its session's row, its request in the asking event; once
 * answered or expired it is a row of `approvals` (migrations/0005_waiting_on_session.sql).
 */
export class Approvals {
  private readonly selectSettled: Statement<[string], ApprovalRecord>;
  private readonly selectWaiting: Statement<[], WaitingRecord>;
  private readonly selectWaitingIn: Statement<[string], WaitingRecord>;
  private readonly selectWaitingOne: Statement<[string], WaitingRecord>;
  private readonly countWaiting: Statement<[string], number>;

  constructor(private readonly db: Database) {
    this.selectSettled = db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE id = ?`);
    // Oldest first; two asked in the same millisecond in the order of their sessions and seqs.
    const order = 'ORDER BY e.at, s.num, e.seq';
    this.selectWaiting = db.prepare(`${WAITING} ${order}`);
    this.selectWaitingIn = db.prepare(`${WAITING} AND s.id = ? ${order}`);
    this.selectWaitingOne = db.prepare(`${WAITING} AND w.value ->> '$.id' = ?`);
    this.countWaiting = db.prepare<[string], number>('SELECT json_array_length(waiting) FROM sessions WHERE id = ?').pluck();
  }

  get(id: string): ApprovalRow | undefined {
    const settled = this.selectSettled.get(id);
    if (settled) return toRow(settled);
    const waiting = this.selectWaitingOne.get(id);
    return waiting && this.waitingRow(waiting);
  }

  /** Requests still waiting for an answer, oldest first: the inbox, across sessions or for one. */
  pending(sessionId?: string): ApprovalRow[] {
    const records = sessionId === undefined ? this.selectWaiting.all() : this.selectWaitingIn.all(sessionId);
    return records.map((record) => this.waitingRow(record));
  }

  /** How many requests of the session wait for an answer, from its row alone (every summary asks). */
  waitingCount(sessionId: string): number {
    return this.countWaiting.get(sessionId) ?? 0;
  }

  private waitingRow(record: WaitingRecord): ApprovalRow {
    const event = parseEvent(this.db.file, record.sessionId, record);
    if (event.type !== 'approval.asked') {
      throw new StoreError(
        'corrupt',
        `Session ${record.sessionId} in ${this.db.file} lists event ${record.seq} as an approval it waits on, but that event is ${event.type}. Restore the database from a backup or delete the session.`,
      );
    }
    return {
      id: event.approvalId,
      sessionId: record.sessionId,
      callId: event.callId,
      tool: event.tool,
      risk: event.risk,
      summary: event.summary,
      args: event.args,
      decision: null,
      ruleId: null,
      askedAt: record.at,
      answeredAt: null,
      expiredAt: null,
    };
  }
}

type WaitingRecord = EventRecord & { sessionId: string };

function toRow(record: ApprovalRecord): ApprovalRow {
  const request = JSON.parse(record.request) as { risk: Risk; summary: string; args: Json };
  const decision: Decision | null =
    record.decision === null
      ? null
      : {
          action: record.decision,
          scope: record.scope ?? 'once',
          ...(record.message === null ? {} : { message: record.message }),
          by: record.answeredBy ?? 'person',
        };
  return {
    id: record.id,
    sessionId: record.sessionId,
    callId: record.callId,
    tool: record.tool,
    risk: request.risk,
    summary: request.summary,
    args: request.args,
    decision,
    ruleId: record.ruleId,
    askedAt: record.askedAt,
    answeredAt: record.answeredAt,
    expiredAt: record.expiredAt,
  };
}

import type { Json } from '../../shared/json';
import type { Decision, Risk } from '../../shared/permissions';
import type { Database, Statement } from './db';

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

const WAITING = 'decision IS NULL AND expired_at IS NULL';

/** Approvals, read side; approval.asked and approval.answered events write them (projections.ts). */
export class Approvals {
  private readonly selectOne: Statement<[string], ApprovalRecord>;
  private readonly selectPending: Statement<[], ApprovalRecord>;
  private readonly selectPendingIn: Statement<[string], ApprovalRecord>;

  constructor(db: Database) {
    this.selectOne = db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE id = ?`);
    this.selectPending = db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE ${WAITING} ORDER BY asked_at, rowid`);
    this.selectPendingIn = db.prepare(
      `SELECT ${COLUMNS} FROM approvals WHERE session_id = ? AND ${WAITING} ORDER BY asked_at, rowid`,
    );
  }

  get(id: string): ApprovalRow | undefined {
    const record = this.selectOne.get(id);
    return record && toRow(record);
  }

  /** Requests still waiting for an answer, oldest first: the inbox, across sessions or for one. */
  pending(sessionId?: string): ApprovalRow[] {
    const records = sessionId === undefined ? this.selectPending.all() : this.selectPendingIn.all(sessionId);
    return records.map(toRow);
  }
}

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

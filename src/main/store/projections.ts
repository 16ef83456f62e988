import type { EventOf, SessionEvent } from '../../shared/events';
import type { SessionStatus } from '../../shared/session';
import type { Database, Statement } from './db';
import { eventsOf } from './eventKeys';
import { noSuchSession, StoreError } from './storeError';

type Params = Record<string, string | number | null>;

/**
 * Everything an event changes outside the log: the session row (status, totals), the ledger
 * and the approvals. It runs inside the event log's append transaction, so a projection that
 * refuses (a call started twice, an approval answered twice) leaves no event behind either.
 */
export class Projections {
  private readonly head: Statement<[string], { num: number; status: SessionStatus; lastSeq: number | null }>;
  private readonly setStatus: Statement<[SessionStatus, string]>;
  private readonly addUsage: Statement<[number, number, number, number, number | null, number | null, string]>;
  private readonly pin: Statement<[Params]>;
  private readonly nameAfterTask: Statement<[Params]>;
  private readonly askApproval: Statement<[Params]>;
  private readonly answerApproval: Statement<[Params]>;
  private readonly findApproval: Statement<
    [string],
    { sessionId: string; callId: string; decision: string | null; expiredAt: number | null }
  >;
  private readonly settleStatus: Statement<[string]>;
  private readonly expireApprovals: Statement<[Params]>;
  // Positional: these run on almost every other event, and positional binding builds no object per call.
  private readonly startCall: Statement<[sessionId: string, callId: string, name: string, seq: number, at: number]>;
  private readonly finishCall: Statement<
    [sessionId: string, callId: string, name: string, outcome: string, seq: number, at: number]
  >;

  constructor(private readonly db: Database) {
    // Reads only: the session row is written below just when something on it changes, so most
    // events write nothing but their own row (see migrations/0002_lean_append.sql).
    this.head = db.prepare(
      `SELECT num, status, (SELECT e.seq FROM events e WHERE ${eventsOf('e', 'sessions.num')} ORDER BY e.key DESC LIMIT 1) AS lastSeq
       FROM sessions WHERE id = ?`,
    );
    this.setStatus = db.prepare('UPDATE sessions SET status = ? WHERE id = ?');
    this.addUsage = db.prepare(
      `UPDATE sessions SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
         cached_input_tokens = cached_input_tokens + ?, reasoning_tokens = reasoning_tokens + ?,
         -- A response with no known price leaves the total as it was (unknown stays NULL).
         cost_usd = coalesce(cost_usd + ?, cost_usd, ?)
       WHERE id = ?`,
    );
    this.pin = db.prepare(
      `UPDATE sessions SET workspace = @workspace, model = @model, api = @api, base_url = @baseUrl, max_steps = @maxSteps
       WHERE id = @sessionId`,
    );
    this.nameAfterTask = db.prepare(`UPDATE sessions SET title = @title WHERE id = @sessionId AND title = ''`);
    this.askApproval = db.prepare(
      `INSERT INTO approvals (id, session_id, call_id, tool, request, asked_at)
       VALUES (@approvalId, @sessionId, @callId, @tool, @request, @at)
       ON CONFLICT (id) DO NOTHING`,
    );
    this.answerApproval = db.prepare(
      `UPDATE approvals SET decision = @action, scope = @scope, message = @message, answered_by = @by, answered_at = @at
       WHERE id = @approvalId AND session_id = @sessionId AND call_id = @callId
         AND decision IS NULL AND expired_at IS NULL`,
    );
    this.findApproval = db.prepare(
      `SELECT session_id AS sessionId, call_id AS callId, decision, expired_at AS expiredAt FROM approvals WHERE id = ?`,
    );
    this.settleStatus = db.prepare(
      `UPDATE sessions SET status = CASE
         WHEN EXISTS (SELECT 1 FROM approvals WHERE session_id = sessions.id AND decision IS NULL AND expired_at IS NULL)
         THEN 'waiting' ELSE 'working' END
       WHERE id = ?`,
    );
    this.expireApprovals = db.prepare(
      `UPDATE approvals SET expired_at = @at WHERE session_id = @sessionId AND decision IS NULL AND expired_at IS NULL`,
    );
    this.startCall = db.prepare(
      `INSERT INTO tool_calls (session_id, call_id, name, status, started_seq, started_at)
       VALUES (?, ?, ?, 'started', ?, ?)
       ON CONFLICT (session_id, call_id) DO NOTHING`,
    );
    // A call can finish without having started (bad arguments, a denial): then this inserts it.
    this.finishCall = db.prepare(
      `INSERT INTO tool_calls (session_id, call_id, name, status, outcome, finished_seq, finished_at)
       VALUES (?, ?, ?, 'finished', ?, ?, ?)
       ON CONFLICT (session_id, call_id) DO UPDATE SET
         status = 'finished', outcome = excluded.outcome, finished_seq = excluded.finished_seq,
         finished_at = excluded.finished_at
       WHERE tool_calls.status = 'started'`,
    );
  }

  /**
   * Applies `event` and returns the seq it takes in the session's log (one more than the last
   * stored, read under the write lock, so two writers never take the same one) with the session's
   * number, which with the seq makes the event's key. Call inside a write transaction.
   */
  apply(sessionId: string, event: SessionEvent, at: number): { num: number; seq: number } {
    const head = this.head.get(sessionId);
    if (!head) throw noSuchSession(this.db.file, sessionId);
    const seq = (head.lastSeq ?? 0) + 1;
    const status = statusAfter(event);
    if (status !== null && status !== head.status) this.setStatus.run(status, sessionId);

    switch (event.type) {
      case 'session.started':
        // The log is the truth: the row pins what the session actually started with.
        this.pin.run({
          sessionId,
          workspace: event.workspace,
          model: event.model,
          api: event.api,
          baseUrl: event.baseUrl,
          maxSteps: event.maxSteps,
        });
        break;
      case 'user.messaged':
        this.nameAfterTask.run({ sessionId, title: titleFrom(event.text) });
        break;
      case 'approval.asked':
        this.asked(sessionId, event, at);
        break;
      case 'approval.answered':
        this.answered(sessionId, event, at);
        break;
      case 'tool.started':
        this.started(sessionId, event, seq, at);
        break;
      case 'tool.finished':
        this.finished(sessionId, event, seq, at);
        break;
      case 'session.finished':
        this.expireApprovals.run({ sessionId, at });
        break;
      case 'model.responded': {
        const { usage } = event;
        const cost = event.costUsd ?? null;
        this.addUsage.run(usage.inputTokens, usage.outputTokens, usage.cachedInputTokens, usage.reasoningTokens, cost, cost, sessionId);
        break;
      }
      case 'context.compacted': {
        // The summarising request is paid for like any other.
        const { usage } = event;
        const cost = event.costUsd ?? null;
        this.addUsage.run(usage.inputTokens, usage.outputTokens, usage.cachedInputTokens, usage.reasoningTokens, cost, cost, sessionId);
        break;
      }
      case 'instructions.loaded':
      case 'context.compacting':
      case 'context.compaction_failed':
      default:
        // Everything else (requests, plans, taints, checkpoints, compactions...) lives in the log alone.
        break;
    }
    return { num: head.num, seq };
  }

  private asked(sessionId: string, event: EventOf<'approval.asked'>, at: number): void {
    const request = JSON.stringify({ risk: event.risk, summary: event.summary, args: event.args });
    const inserted = this.askApproval.run({
      approvalId: event.approvalId,
      sessionId,
      callId: event.callId,
      tool: event.tool,
      request,
      at,
    });
    if (inserted.changes === 0) {
      throw new StoreError(
        'conflict',
        `Approval ${event.approvalId} was already asked (session ${sessionId}); give each approval.asked a new approvalId.`,
      );
    }
  }

  private answered(sessionId: string, event: EventOf<'approval.answered'>, at: number): void {
    const { action, scope, message, by } = event.decision;
    const updated = this.answerApproval.run({
      approvalId: event.approvalId,
      sessionId,
      callId: event.callId,
      action,
      scope,
      message: message ?? null,
      by,
      at,
    });
    if (updated.changes === 0) throw this.whyNotAnswered(sessionId, event);
    this.settleStatus.run(sessionId);
  }

  private whyNotAnswered(sessionId: string, event: EventOf<'approval.answered'>): StoreError {
    const id = event.approvalId;
    const found = this.findApproval.get(id);
    if (!found) {
      return new StoreError('not_found', `Approval ${id} was never asked in session ${sessionId}; append approval.asked before approval.answered.`);
    }
    if (found.sessionId !== sessionId || found.callId !== event.callId) {
      return new StoreError(
        'conflict',
        `Approval ${id} belongs to call ${found.callId} of session ${found.sessionId}, not to call ${event.callId} of session ${sessionId}; answer it with the ids it was asked with.`,
      );
    }
    if (found.decision !== null) {
      return new StoreError('conflict', `Approval ${id} of session ${sessionId} was already answered (${found.decision}); an approval is answered once.`);
    }
    return new StoreError(
      'conflict',
      `Approval ${id} of session ${sessionId} is no longer waiting: the session finished before anyone answered. Resume the session to be asked again.`,
    );
  }

  private started(sessionId: string, event: EventOf<'tool.started'>, seq: number, at: number): void {
    const inserted = this.startCall.run(sessionId, event.callId, event.name, seq, at);
    if (inserted.changes === 0) {
      throw new StoreError(
        'conflict',
        `Tool call ${event.callId} of session ${sessionId} is already in the ledger; a call runs once, so report its stored result (or "outcome unknown") instead of running it again.`,
      );
    }
  }

  private finished(sessionId: string, event: EventOf<'tool.finished'>, seq: number, at: number): void {
    const written = this.finishCall.run(sessionId, event.callId, event.name, event.outcome, seq, at);
    if (written.changes === 0) {
      throw new StoreError(
        'conflict',
        `Tool call ${event.callId} of session ${sessionId} already finished; its result is in the ledger and a call finishes once.`,
      );
    }
  }
}

/** The session status the shared reducer would show after `event`; null where it stays as it was. */
function statusAfter(event: SessionEvent): SessionStatus | null {
  switch (event.type) {
    case 'session.started':
    case 'session.resumed':
    case 'user.messaged':
    case 'model.requested':
      return 'working';
    case 'approval.asked':
      return 'waiting';
    case 'session.finished':
      return event.status;
    // approval.answered depends on what else is still pending: settled after the answer is stored.
    default:
      return null;
  }
}

const TITLE_LENGTH = 80;

/** An untitled session is named after the first line of its task. */
function titleFrom(text: string): string {
  const line = text.trim().split('\n', 1)[0]?.trim() ?? '';
  return line.length <= TITLE_LENGTH ? line : `${line.slice(0, TITLE_LENGTH - 1)}…`;
}

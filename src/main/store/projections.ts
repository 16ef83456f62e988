import type { EventOf, SessionEvent } from '../../shared/events';
import type { SessionStatus } from '../../shared/session';
import type { Database, Statement } from './db';
import type { SessionHead, SessionHeads } from './sessionHeads';
import type { SessionTotals } from './sessionTotals';
import { noSuchSession, StoreError } from './storeError';
import type { ToolCallGuard } from './toolCallGuard';

type Params = Record<string, string | number | null>;

/** Events a session's row may trail its log by before a status change also writes the totals. */
const TOTALS_TAIL_LIMIT = 200;

/**
 * Everything an event changes outside the log: the session row (its status, and with it the
 * totals) and the approvals; and the check that keeps each tool call to one start and one result.
 * It runs inside the event log's append transaction, so a projection that refuses (a call started
 * twice, an approval answered twice) leaves no event behind either.
 */
export class Projections {
  private readonly writeStatus: Statement<[Params]>;
  private readonly anyWaiting: Statement<[string], { found: 1 }>;
  private readonly pin: Statement<[Params]>;
  private readonly nameAfterTask: Statement<[Params]>;
  private readonly askApproval: Statement<[Params]>;
  private readonly answerApproval: Statement<[Params]>;
  private readonly findApproval: Statement<
    [string],
    { sessionId: string; callId: string; decision: string | null; expiredAt: number | null }
  >;
  private readonly expireApprovals: Statement<[Params]>;

  constructor(
    private readonly db: Database,
    private readonly heads: SessionHeads,
    private readonly calls: ToolCallGuard,
    private readonly totals: SessionTotals,
  ) {
    // The session row is written only when something on it changes, so most events write nothing
    // but their own row (migrations/0002_lean_append.sql, 0004_derived_from_log.sql). When the
    // status changes, the totals are brought up to date on the way.
    this.writeStatus = db.prepare(
      `UPDATE sessions SET status = @status,
         input_tokens = input_tokens + @inputTokens, output_tokens = output_tokens + @outputTokens,
         cached_input_tokens = cached_input_tokens + @cachedInputTokens, reasoning_tokens = reasoning_tokens + @reasoningTokens,
         -- Responses with no known price leave the total as it was (unknown stays NULL).
         cost_usd = CASE WHEN @costUsd IS NULL THEN cost_usd ELSE coalesce(cost_usd, 0) + @costUsd END,
         totals_seq = @totalsSeq
       WHERE id = @sessionId`,
    );
    this.anyWaiting = db.prepare(
      `SELECT 1 AS found FROM approvals WHERE session_id = ? AND decision IS NULL AND expired_at IS NULL LIMIT 1`,
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
    this.expireApprovals = db.prepare(
      `UPDATE approvals SET expired_at = @at WHERE session_id = @sessionId AND decision IS NULL AND expired_at IS NULL`,
    );
  }

  /**
   * Applies `event` and returns the seq it takes in the session's log (one more than the last
   * stored, known under the write lock, so two writers never take the same one) with the session's
   * head, whose number with the seq makes the event's key. Call inside a write transaction, and
   * `committed` once it committed.
   */
  apply(sessionId: string, event: SessionEvent, at: number): { head: SessionHead; seq: number } {
    const head = this.heads.read(sessionId);
    if (!head) throw noSuchSession(this.db.file, sessionId);
    const seq = head.lastSeq + 1;
    const status = statusAfter(event);
    if (status !== null) this.changeStatus(sessionId, head, status, event.type === 'session.finished');

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
        // Waiting while any other request of the session still is.
        this.changeStatus(sessionId, head, this.anyWaiting.get(sessionId) ? 'waiting' : 'working');
        break;
      case 'tool.started':
      case 'tool.finished':
        this.calls.check(sessionId, head, event);
        break;
      case 'session.finished':
        this.expireApprovals.run({ sessionId, at });
        break;
      default:
        // Everything else (requests, responses and their usage, plans, taints, checkpoints,
        // compactions...) lives in the log alone.
        break;
    }
    return { head, seq };
  }

  /** After the append transaction committed: `head` as `apply` left it, and the seq the event took. */
  committed(sessionId: string, head: SessionHead, seq: number, event: SessionEvent): void {
    this.calls.appended(sessionId, head, seq, event);
    this.heads.committed(sessionId, { ...head, lastSeq: seq });
  }

  /**
   * Writes the session's new status. The row's totals are brought up to date on the way when the
   * run ends, or when the responses since they were last written have piled up (readers add those
   * from the log, so this only bounds what a reader of a long run has to add).
   */
  private changeStatus(sessionId: string, head: SessionHead, status: SessionStatus, endsRun = false): void {
    if (status === head.status) return;
    const behind = head.lastSeq - head.totalsSeq;
    const since = behind > 0 && (endsRun || behind >= TOTALS_TAIL_LIMIT) ? this.totals.after(head.num, head.totalsSeq) : null;
    this.writeStatus.run({
      sessionId,
      status,
      inputTokens: since?.usage.inputTokens ?? 0,
      outputTokens: since?.usage.outputTokens ?? 0,
      cachedInputTokens: since?.usage.cachedInputTokens ?? 0,
      reasoningTokens: since?.usage.reasoningTokens ?? 0,
      costUsd: since?.costUsd ?? null,
      totalsSeq: since ? head.lastSeq : head.totalsSeq,
    });
    head.status = status;
    if (since) head.totalsSeq = head.lastSeq;
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

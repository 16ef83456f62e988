import type { EventOf, SessionEvent } from '../../shared/events';
import type { SessionStatus } from '../../shared/session';
import type { Database, Statement } from './sqlite/database';
import { eventKey } from './eventKeys';
import type { SessionHead, SessionHeads } from './sessionHeads';
import { addTotals, noTotals, totalsOf, type SessionTotals } from './sessionTotals';
import { noSuchSession, StoreError } from './storeError';
import type { ToolCallGuard } from './toolCallGuard';
import type { WaitingApproval } from './waitingApprovals';

type Params = Record<string, string | number | null>;

/** Events a session's row may trail its log by before its totals are written for that alone. */
const TOTALS_TAIL_LIMIT = 200;

/**
 * Everything an event changes outside the log: the session row (its status, the approvals it
 * waits on, and with them the totals) and the settled approvals; and the check that keeps each
 * tool call to one start and one result. It runs inside the event log's append transaction, so a
 * projection that refuses (a call started twice, an approval answered twice) leaves no event
 * behind either.
 */
export class Projections {
  private readonly writeRow: Statement<[Params]>;
  private readonly pin: Statement<[Params]>;
  private readonly nameAfterTask: Statement<[Params]>;
  private readonly moveTo: Statement<[Params]>;
  private readonly askingExists: Statement<[{ num: number; seq: number }], { found: 1 }>;
  private readonly settle: Statement<[Params]>;
  private readonly findSettled: Statement<
    [string],
    { sessionId: string; callId: string; decision: string | null; expiredAt: number | null }
  >;

  constructor(
    private readonly db: Database,
    private readonly heads: SessionHeads,
    private readonly calls: ToolCallGuard,
    private readonly totals: SessionTotals,
  ) {
    // The session row is written only when something on it changes, so most events write nothing
    // but their own row (migrations/0002_lean_append.sql, 0004 and 0005): see updateRow.
    this.writeRow = db.prepare(
      `UPDATE sessions SET status = @status, waiting = @waiting,
         input_tokens = input_tokens + @inputTokens, output_tokens = output_tokens + @outputTokens,
         cached_input_tokens = cached_input_tokens + @cachedInputTokens, reasoning_tokens = reasoning_tokens + @reasoningTokens,
         -- Responses with no known price leave the total as it was (unknown stays NULL).
         cost_usd = CASE WHEN @costUsd IS NULL THEN cost_usd ELSE coalesce(cost_usd, 0) + @costUsd END,
         totals_seq = @totalsSeq
       WHERE id = @sessionId`,
    );
    this.pin = db.prepare(
      `UPDATE sessions SET workspace = @workspace, model = @model, api = @api, base_url = @baseUrl, max_steps = @maxSteps
       WHERE id = @sessionId`,
    );
    this.nameAfterTask = db.prepare(`UPDATE sessions SET title = @title WHERE id = @sessionId AND title = ''`);
    this.moveTo = db.prepare(`UPDATE sessions SET workspace = @workspace WHERE id = @sessionId`);
    // The request, as the person was shown it, is copied from the asking event. One row with
    // VALUES, not INSERT ... SELECT: SQLite checks a single-row insert into a parent table (rules
    // point here) without scanning the child table.
    const asking = (column: string): string =>
      `(SELECT ${column} FROM events WHERE key = ${eventKey('@num', '@seq')} AND type = 'approval.asked')`;
    this.settle = db.prepare(
      `INSERT INTO approvals (id, session_id, call_id, tool, request, decision, scope, message, answered_by,
                              asked_at, answered_at, expired_at)
       VALUES (@approvalId, @sessionId, @callId, ${asking("payload ->> '$.tool'")},
               ${asking("json_object('risk', payload ->> '$.risk', 'summary', payload ->> '$.summary', 'args', payload -> '$.args')")},
               @action, @scope, @message, @by, ${asking('at')}, @answeredAt, @expiredAt)
       ON CONFLICT (id) DO NOTHING`,
    );
    this.askingExists = db.prepare(`SELECT 1 AS found FROM events WHERE key = ${eventKey('@num', '@seq')} AND type = 'approval.asked'`);
    this.findSettled = db.prepare(
      `SELECT session_id AS sessionId, call_id AS callId, decision, expired_at AS expiredAt FROM approvals WHERE id = ?`,
    );
  }

  /**
   * Applies `event` and returns the seq it takes in the session's log (one more than the last
   * stored, known under the write lock, so two writers never take the same one) with the session's
   * head, whose number with the seq makes the event's key. Call inside a write transaction, and
   * `appended` once the event is written (a group that later rolls back makes the store forget it all).
   */
  apply(sessionId: string, event: SessionEvent, at: number): { head: SessionHead; seq: number } {
    const head = this.heads.read(sessionId);
    if (!head) throw noSuchSession(this.db.file, sessionId);
    const seq = head.lastSeq + 1;
    let status = statusAfter(event, head.waiting.length > 0);
    let waiting: readonly WaitingApproval[] | null = null;

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
      case 'worktree.created':
        // A session moved into a worktree works there from now on, as its log says.
        if (event.moved) this.moveTo.run({ sessionId, workspace: event.moved.workspace });
        break;
      case 'approval.asked':
        waiting = this.asked(sessionId, head, event, seq);
        break;
      case 'approval.answered':
        waiting = this.answered(sessionId, head, event, at);
        // Waiting while any other request of the session still is.
        status = waiting.length > 0 ? 'waiting' : 'working';
        break;
      case 'tool.started':
      case 'tool.finished':
        this.calls.check(sessionId, head, event);
        break;
      case 'session.finished':
        // Nobody answered in time: the questions leave the inbox, settled as expired.
        for (const approval of head.waiting) this.settleApproval(sessionId, head, approval, { expiredAt: at });
        waiting = head.waiting.length > 0 ? [] : null;
        break;
      default:
        // Everything else (requests, responses and their usage, plans, taints, checkpoints,
        // compactions...) lives in the log alone.
        break;
    }
    this.updateRow(sessionId, head, { status, waiting, endsRun: event.type === 'session.finished' });
    // After the row: its totals hold up to the event before this one.
    const added = totalsOf(event);
    if (added && head.tail) head.tail = addTotals(head.tail, added);
    return { head, seq };
  }

  /** After the event was written: `head` as `apply` left it, and the seq the event took. */
  appended(sessionId: string, head: SessionHead, seq: number, event: SessionEvent): void {
    this.calls.appended(sessionId, head, seq, event);
    this.heads.keep(sessionId, { ...head, lastSeq: seq });
  }

  /**
   * Writes the session's row when its status or the approvals it waits on change, and brings the
   * row's totals up to date on the way: its page is written anyway, and the head's tail has them
   * without reading the log. The totals are written with nothing else changing too, at the end of
   * a run and once the events since they were last written pile up, so a reader never adds more
   * than that many from the log. A head that does not know its tail (another process appended)
   * reads it from the log, but only for those two.
   */
  private updateRow(
    sessionId: string,
    head: SessionHead,
    change: { status: SessionStatus | null; waiting: readonly WaitingApproval[] | null; endsRun: boolean },
  ): void {
    const status = change.status ?? head.status;
    const rowChanges = status !== head.status || change.waiting !== null;
    const behind = head.lastSeq - head.totalsSeq;
    const writeTotals = behind > 0 && (change.endsRun || behind >= TOTALS_TAIL_LIMIT || (rowChanges && head.tail !== null));
    if (!rowChanges && !writeTotals) return;
    const since = writeTotals ? (head.tail ?? this.totals.after(head.num, head.totalsSeq)) : null;
    const waiting = change.waiting ?? head.waiting;
    this.writeRow.run({
      sessionId,
      status,
      waiting: JSON.stringify(waiting),
      inputTokens: since?.usage.inputTokens ?? 0,
      outputTokens: since?.usage.outputTokens ?? 0,
      cachedInputTokens: since?.usage.cachedInputTokens ?? 0,
      reasoningTokens: since?.usage.reasoningTokens ?? 0,
      costUsd: since?.costUsd ?? null,
      totalsSeq: since ? head.lastSeq : head.totalsSeq,
    });
    head.status = status;
    head.waiting = waiting;
    if (since) {
      head.totalsSeq = head.lastSeq;
      head.tail = noTotals;
    }
  }

  /**
   * The session's list with the new question added. An id still waiting here, or settled in any
   * session, is refused; one waiting in another session is only found when settled (ids are UUIDs,
   * and looking through every session's list would cost each question a scan).
   */
  private asked(sessionId: string, head: SessionHead, event: EventOf<'approval.asked'>, seq: number): readonly WaitingApproval[] {
    if (head.waiting.some((approval) => approval.id === event.approvalId) || this.findSettled.get(event.approvalId)) {
      throw new StoreError(
        'conflict',
        `Approval ${event.approvalId} was already asked (session ${sessionId}); give each approval.asked a new approvalId.`,
      );
    }
    return [...head.waiting, { id: event.approvalId, callId: event.callId, seq }];
  }

  /** Settles the answered approval and returns what the session still waits on. */
  private answered(sessionId: string, head: SessionHead, event: EventOf<'approval.answered'>, at: number): readonly WaitingApproval[] {
    const approval = head.waiting.find((waiting) => waiting.id === event.approvalId);
    if (!approval || approval.callId !== event.callId) throw this.whyNotAnswered(sessionId, event, approval);
    const { action, scope, message, by } = event.decision;
    this.settleApproval(sessionId, head, approval, { action, scope, message: message ?? null, by, answeredAt: at });
    return head.waiting.filter((waiting) => waiting !== approval);
  }

  /** Writes the approval's row as it ends: answered, or expired unanswered; its request is the asking event's. */
  private settleApproval(
    sessionId: string,
    head: SessionHead,
    approval: WaitingApproval,
    outcome: { action: string; scope: string; message: string | null; by: string; answeredAt: number } | { expiredAt: number },
  ): void {
    const answer = 'action' in outcome ? outcome : undefined;
    let settled: { changes: number };
    try {
      settled = this.settle.run({
        approvalId: approval.id,
        sessionId,
        callId: approval.callId,
        num: head.num,
        seq: approval.seq,
        action: answer?.action ?? null,
        scope: answer?.scope ?? null,
        message: answer?.message ?? null,
        by: answer?.by ?? null,
        answeredAt: answer?.answeredAt ?? null,
        expiredAt: 'expiredAt' in outcome ? outcome.expiredAt : null,
      });
    } catch (error) {
      // Without its asking event the row cannot be written (no tool, no request): say why.
      if (this.askingExists.get({ num: head.num, seq: approval.seq })) throw error;
      throw new StoreError(
        'corrupt',
        `Approval ${approval.id} of session ${sessionId} in ${this.db.file} is listed as waiting, but its approval.asked event (seq ${approval.seq}) is not in the log. Restore the database from a backup or delete the session.`,
        { cause: error },
      );
    }
    // Expired unanswered, a question whose id another session already settled leaves nothing to keep.
    if (settled.changes === 0 && answer) {
      throw new StoreError(
        'conflict',
        `Approval ${approval.id} of session ${sessionId} cannot be answered: an approval of another session with the same id was settled already. Give each approval.asked a new approvalId.`,
      );
    }
  }

  private whyNotAnswered(sessionId: string, event: EventOf<'approval.answered'>, waiting: WaitingApproval | undefined): StoreError {
    const id = event.approvalId;
    const settled = this.findSettled.get(id);
    const owner = waiting ? { sessionId, callId: waiting.callId } : settled;
    if (!owner) {
      return new StoreError(
        'not_found',
        `Approval ${id} was never asked in session ${sessionId}; append approval.asked before approval.answered.`,
      );
    }
    if (owner.sessionId !== sessionId || owner.callId !== event.callId) {
      return new StoreError(
        'conflict',
        `Approval ${id} belongs to call ${owner.callId} of session ${owner.sessionId}, not to call ${event.callId} of session ${sessionId}; answer it with the ids it was asked with.`,
      );
    }
    if (settled?.decision) {
      return new StoreError(
        'conflict',
        `Approval ${id} of session ${sessionId} was already answered (${settled.decision}); an approval is answered once.`,
      );
    }
    return new StoreError(
      'conflict',
      `Approval ${id} of session ${sessionId} is no longer waiting: the session finished before anyone answered. Resume the session to be asked again.`,
    );
  }
}

/**
 * The session status the shared reducer would show after `event`; null where it stays as it was.
 * A session that works on while a question of its own is unanswered (after a restart) is waiting.
 */
function statusAfter(event: SessionEvent, questionsWaiting: boolean): SessionStatus | null {
  switch (event.type) {
    case 'session.started':
    case 'session.resumed':
    case 'user.messaged':
    case 'model.requested':
      return questionsWaiting ? 'waiting' : 'working';
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

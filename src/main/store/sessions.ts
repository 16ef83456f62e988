import type { Usage } from '../../shared/conversation';
import type { EventOf } from '../../shared/events';
import type { SessionStatus } from '../../shared/session';
import type { Database, Statement } from './sqlite/database';
import { eventsOf, lastEventOf } from './eventKeys';
import { newId } from './newId';
import { noSuchSession, StoreError } from './storeError';
import type { StretchOfLog } from './sessionHeads';
import { addTotals, type SessionTotals, type Totals } from './sessionTotals';

/** A session as the sidebar and the loop see it; status, totals and lastSeq follow its log. */
export interface SessionRow {
  id: string;
  projectId: string | null;
  title: string;
  workspace: string;
  /** Pinned when the session starts; a resumed session talks to the same model. */
  model: string;
  api: ModelApi;
  baseUrl: string;
  /** What the shared reducer would say after the last event (or what setStatus last set). */
  status: SessionStatus;
  maxSteps: number;
  createdAt: number;
  updatedAt: number;
  /** The seq of the last event in the log; 0 before the first. */
  lastSeq: number;
  /** Tokens over every model response so far. */
  usage: Usage;
  /** US dollars over every priced response so far; null when no response had a known price. */
  costUsd: number | null;
}

type ModelApi = EventOf<'session.started'>['api'];

export interface NewSession {
  /** Defaults to a new short, time-sortable id (see newId). */
  id?: string;
  workspace: string;
  model: string;
  api: ModelApi;
  baseUrl: string;
  maxSteps: number;
  title?: string;
  projectId?: string;
}

type SessionRecord = Omit<SessionRow, 'usage'> & Usage & { num: number; totalsSeq: number };

// The last seq and the time of the last event come from the log (its key finds them at once), so
// appending an event need not write the session row; see migrations/0002_lean_append.sql.
const LAST_EVENT = lastEventOf('s.num');
const COLUMNS = `s.num, s.id, s.project_id AS projectId, s.title, s.workspace, s.model, s.api, s.base_url AS baseUrl, s.status,
  s.max_steps AS maxSteps, s.created_at AS createdAt,
  max(s.updated_at, coalesce((SELECT at ${LAST_EVENT}), 0)) AS updatedAt,
  coalesce((SELECT seq ${LAST_EVENT}), 0) AS lastSeq,
  s.input_tokens AS inputTokens, s.output_tokens AS outputTokens, s.cached_input_tokens AS cachedInputTokens,
  s.reasoning_tokens AS reasoningTokens, s.cost_usd AS costUsd, s.totals_seq AS totalsSeq`;

/** What the event log keeps in memory of the sessions this connection appends to (sessionHeads.ts). */
export interface AppendMemory {
  /** Forgets a session changed here outside the log (deleted, its status set by hand). */
  forget(sessionId: string): void;
  /** The totals the responses after the row's totals_seq add, when kept for exactly that stretch of that session's log. */
  knownTail(sessionId: string, row: StretchOfLog): Totals | undefined;
}

/** The sessions table. Everything an event changes on a session is written by projections.ts. */
export class Sessions {
  private readonly selectOne: Statement<[string], SessionRecord>;
  private readonly selectAll: Statement<[], SessionRecord>;
  private readonly selectByProject: Statement<[string], SessionRecord>;
  private readonly createTx: (input: NewSession) => SessionRow;
  private readonly renameTx: (id: string, title: string) => SessionRow;
  private readonly setStatusTx: (id: string, status: SessionStatus) => SessionRow;
  private readonly deleteTx: (id: string) => void;

  constructor(
    private readonly db: Database,
    now: () => number,
    private readonly totals: SessionTotals,
    private readonly kept: AppendMemory,
  ) {
    this.selectOne = db.prepare(`SELECT ${COLUMNS} FROM sessions s WHERE s.id = ?`);
    this.selectAll = db.prepare(`SELECT ${COLUMNS} FROM sessions s ORDER BY s.created_at DESC, s.id DESC`);
    this.selectByProject = db.prepare(`SELECT ${COLUMNS} FROM sessions s WHERE s.project_id = ? ORDER BY s.created_at DESC, s.id DESC`);
    const projectExists = db.prepare<[string], { found: 1 }>('SELECT 1 AS found FROM projects WHERE id = ?');
    const insert = db.prepare<[Record<string, string | number | null>]>(
      `INSERT INTO sessions (id, project_id, title, workspace, model, api, base_url, max_steps, created_at, updated_at)
       VALUES (@id, @projectId, @title, @workspace, @model, @api, @baseUrl, @maxSteps, @at, @at)
       ON CONFLICT (id) DO NOTHING`,
    );
    const rename = db.prepare<[{ id: string; title: string; at: number }]>(
      'UPDATE sessions SET title = @title, updated_at = @at WHERE id = @id',
    );
    const setStatus = db.prepare<[{ id: string; status: SessionStatus; at: number }]>(
      'UPDATE sessions SET status = @status, updated_at = @at WHERE id = @id',
    );
    const numberOf = db.prepare<[string], { num: number }>('SELECT num FROM sessions WHERE id = ?');
    const remove = db.prepare<[string]>('DELETE FROM sessions WHERE id = ?');
    // No foreign key reaches the log (it would need an index on every append): its key range goes
    // by hand, after the session row, so the append-only trigger lets it by.
    const removeLog = db.prepare<[{ num: number }]>(`DELETE FROM events WHERE ${eventsOf('events', '@num')}`);

    this.createTx = db.writer((input: NewSession) => {
      const id = input.id ?? newId();
      if (input.projectId !== undefined && !projectExists.get(input.projectId)) {
        throw new StoreError(
          'not_found',
          `Cannot create session ${id}: there is no project ${input.projectId} in ${db.file}. Add the project first (store.projects.ensure).`,
        );
      }
      const created = insert.run({
        id,
        projectId: input.projectId ?? null,
        title: input.title ?? '',
        workspace: input.workspace,
        model: input.model,
        api: input.api,
        baseUrl: input.baseUrl,
        maxSteps: input.maxSteps,
        at: now(),
      });
      if (created.changes === 0) {
        throw new StoreError(
          'conflict',
          `Cannot create session ${id}: ${db.file} already has a session with that id. Leave the id out to get a new one.`,
        );
      }
      return this.written(id);
    });
    this.renameTx = db.writer((id: string, title: string) => {
      rename.run({ id, title, at: now() });
      return this.written(id);
    });
    this.setStatusTx = db.writer((id: string, status: SessionStatus) => {
      setStatus.run({ id, status, at: now() });
      return this.written(id);
    });
    this.deleteTx = db.writer((id: string) => {
      const { num } = this.found(id, numberOf.get(id));
      remove.run(id);
      removeLog.run({ num });
    });
  }

  create(input: NewSession): SessionRow {
    return this.createTx(input);
  }

  get(id: string): SessionRow | undefined {
    const record = this.selectOne.get(id);
    return record && this.toRow(record);
  }

  /** Newest first; with a project, only that project's sessions. */
  list(filter: { projectId?: string } = {}): SessionRow[] {
    const records = filter.projectId === undefined ? this.selectAll.all() : this.selectByProject.all(filter.projectId);
    return records.map((record) => this.toRow(record));
  }

  rename(id: string, title: string): SessionRow {
    return this.renameTx(id, title);
  }

  /**
   * Sets the status outside the log, for what no event says (a session found 'working' after a
   * crash, say). The next event that implies a status overrides it.
   */
  setStatus(id: string, status: SessionStatus): SessionRow {
    const row = this.setStatusTx(id, status);
    this.kept.forget(id);
    return row;
  }

  /** Deletes the session with its log (and so its ledger), approvals and session-scoped rules. */
  delete(id: string): void {
    this.deleteTx(id);
    this.kept.forget(id);
  }

  /** The row as just written, read back inside the same transaction; missing means no such session. */
  private written(id: string): SessionRow {
    return this.toRow(this.found(id, this.selectOne.get(id)));
  }

  /** The row with its totals brought up to its last event: the row holds them only as of totals_seq. */
  private toRow(record: SessionRecord): SessionRow {
    const { num, totalsSeq, inputTokens, outputTokens, cachedInputTokens, reasoningTokens, costUsd, ...row } = record;
    const stored: Totals = { usage: { inputTokens, outputTokens, cachedInputTokens, reasoningTokens }, costUsd };
    if (row.lastSeq === totalsSeq) return { ...row, ...stored };
    // This connection usually appended those responses itself (the app, summing a session per event).
    const tail =
      this.kept.knownTail(row.id, { num, createdAt: row.createdAt, totalsSeq, lastSeq: row.lastSeq }) ?? this.totals.after(num, totalsSeq);
    const totals = addTotals(stored, tail);
    return { ...row, ...totals };
  }

  private found<T>(id: string, value: T | undefined): T {
    if (value === undefined) throw noSuchSession(this.db.file, id);
    return value;
  }
}

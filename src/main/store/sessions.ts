import type { Usage } from '../../shared/conversation';
import type { SessionStatus } from '../../shared/session';
import type { Database, Statement } from './db';
import { newId } from './newId';
import { noSuchSession, StoreError } from './storeError';

/** A session as the sidebar and the loop see it; status, totals and lastSeq follow its log. */
export interface SessionRow {
  id: string;
  projectId: string | null;
  title: string;
  workspace: string;
  /** Pinned when the session starts; a resumed session talks to the same model. */
  model: string;
  api: 'responses' | 'chat';
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
}

export interface NewSession {
  /** Defaults to a new short, time-sortable id (see newId). */
  id?: string;
  workspace: string;
  model: string;
  api: 'responses' | 'chat';
  baseUrl: string;
  maxSteps: number;
  title?: string;
  projectId?: string;
}

type SessionRecord = Omit<SessionRow, 'usage'> & Usage;

const COLUMNS = `id, project_id AS projectId, title, workspace, model, api, base_url AS baseUrl, status,
  max_steps AS maxSteps, created_at AS createdAt, updated_at AS updatedAt, last_seq AS lastSeq,
  input_tokens AS inputTokens, output_tokens AS outputTokens, cached_input_tokens AS cachedInputTokens,
  reasoning_tokens AS reasoningTokens`;

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
  ) {
    this.selectOne = db.prepare(`SELECT ${COLUMNS} FROM sessions WHERE id = ?`);
    this.selectAll = db.prepare(`SELECT ${COLUMNS} FROM sessions ORDER BY created_at DESC, id DESC`);
    this.selectByProject = db.prepare(
      `SELECT ${COLUMNS} FROM sessions WHERE project_id = ? ORDER BY created_at DESC, id DESC`,
    );
    const projectExists = db.prepare<[string], { found: 1 }>('SELECT 1 AS found FROM projects WHERE id = ?');
    const insert = db.prepare<[Record<string, string | number | null>], SessionRecord>(
      `INSERT INTO sessions (id, project_id, title, workspace, model, api, base_url, max_steps, created_at, updated_at)
       VALUES (@id, @projectId, @title, @workspace, @model, @api, @baseUrl, @maxSteps, @at, @at)
       ON CONFLICT (id) DO NOTHING
       RETURNING ${COLUMNS}`,
    );
    const rename = db.prepare<[{ id: string; title: string; at: number }], SessionRecord>(
      `UPDATE sessions SET title = @title, updated_at = @at WHERE id = @id RETURNING ${COLUMNS}`,
    );
    const setStatus = db.prepare<[{ id: string; status: SessionStatus; at: number }], SessionRecord>(
      `UPDATE sessions SET status = @status, updated_at = @at WHERE id = @id RETURNING ${COLUMNS}`,
    );
    const remove = db.prepare<[string]>('DELETE FROM sessions WHERE id = ?');

    this.createTx = db.writer((input: NewSession) => {
      const id = input.id ?? newId();
      if (input.projectId !== undefined && !projectExists.get(input.projectId)) {
        throw new StoreError(
          'not_found',
          `Cannot create session ${id}: there is no project ${input.projectId} in ${db.file}. Add the project first (store.projects.ensure).`,
        );
      }
      const created = insert.get({
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
      if (!created) {
        throw new StoreError('conflict', `Cannot create session ${id}: ${db.file} already has a session with that id. Leave the id out to get a new one.`);
      }
      return toRow(created);
    });
    this.renameTx = db.writer((id: string, title: string) => toRow(this.found(id, rename.get({ id, title, at: now() }))));
    this.setStatusTx = db.writer((id: string, status: SessionStatus) =>
      toRow(this.found(id, setStatus.get({ id, status, at: now() }))),
    );
    this.deleteTx = db.writer((id: string) => {
      if (remove.run(id).changes === 0) this.found(id, undefined);
    });
  }

  create(input: NewSession): SessionRow {
    return this.createTx(input);
  }

  get(id: string): SessionRow | undefined {
    const record = this.selectOne.get(id);
    return record && toRow(record);
  }

  /** Newest first; with a project, only that project's sessions. */
  list(filter: { projectId?: string } = {}): SessionRow[] {
    const records = filter.projectId === undefined ? this.selectAll.all() : this.selectByProject.all(filter.projectId);
    return records.map(toRow);
  }

  rename(id: string, title: string): SessionRow {
    return this.renameTx(id, title);
  }

  /**
   * Sets the status outside the log, for what no event says (a session found 'working' after a
   * crash, say). The next event that implies a status overrides it.
   */
  setStatus(id: string, status: SessionStatus): SessionRow {
    return this.setStatusTx(id, status);
  }

  /** Deletes the session with its log, ledger, approvals and session-scoped rules. */
  delete(id: string): void {
    this.deleteTx(id);
  }

  private found<T>(id: string, value: T | undefined): T {
    if (value === undefined) throw noSuchSession(this.db.file, id);
    return value;
  }
}

function toRow(record: SessionRecord): SessionRow {
  const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens, ...row } = record;
  return { ...row, usage: { inputTokens, outputTokens, cachedInputTokens, reasoningTokens } };
}

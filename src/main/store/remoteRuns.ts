import type { Database, Statement } from './sqlite/database';
import { newId } from './newId';
import { StoreError } from './storeError';

/** A runner's token as kept: its secret only as a hash (migrations/0007_remote_runs.sql). */
export interface RunnerTokenRow {
  id: string;
  name: string;
  secretHash: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** A session of this database that mirrors a run on another machine. */
export interface RemoteRunRow {
  sessionId: string;
  runner: string;
  runId: string;
  machine: string;
  repository: string;
  branch: string;
  tetherVersion: string;
  waitMs: number;
  registeredAt: number;
  lastSeenAt: number;
}

/** The person's answer to a remote request, kept until the run says what it did with it. */
export interface RemoteAnswerRow {
  approvalId: string;
  sessionId: string;
  runnerApprovalId: string;
  /** JSON of a DeskDecision. */
  decision: string;
  answeredAt: number;
  takenAt: number | null;
  outcome: 'applied' | 'already' | 'not_waiting' | null;
}

/** "Allow always" for a repository on a runner. */
export interface RunnerRuleRow {
  id: string;
  runner: string;
  repository: string;
  pattern: string;
  createdFromApproval: string | null;
  createdAt: number;
  revokedAt: number | null;
}

type Params = Record<string, string | number | null>;

const TOKEN = `id, name, secret_hash AS secretHash, created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt`;
const RUN = `session_id AS sessionId, runner, run_id AS runId, machine, repository, branch, tether_version AS tetherVersion,
  wait_ms AS waitMs, registered_at AS registeredAt, last_seen_at AS lastSeenAt`;
const ANSWER = `approval_id AS approvalId, session_id AS sessionId, runner_approval_id AS runnerApprovalId, decision,
  answered_at AS answeredAt, taken_at AS takenAt, outcome`;
const RULE = `id, runner, repository, pattern, created_from_approval AS createdFromApproval, created_at AS createdAt, revoked_at AS revokedAt`;

/** The desk's side of remote runs: runner tokens, which sessions are mirrors, the answers sent and the runners' rules. */
export class RemoteRuns {
  private readonly tokenById: Statement<[string], RunnerTokenRow>;
  private readonly liveTokens: Statement<[], RunnerTokenRow>;
  private readonly liveTokenNamed: Statement<[string], RunnerTokenRow>;
  private readonly insertToken: Statement<[Params]>;
  private readonly revokeNamed: Statement<[Params]>;
  private readonly touchToken: Statement<[Params]>;
  private readonly runOf: Statement<[string], RemoteRunRow>;
  private readonly runNamed: Statement<[Params], RemoteRunRow>;
  private readonly allRuns: Statement<[], RemoteRunRow>;
  private readonly insertRun: Statement<[Params]>;
  private readonly seenRun: Statement<[Params]>;
  private readonly answerOf: Statement<[string], RemoteAnswerRow>;
  private readonly untaken: Statement<[string], RemoteAnswerRow>;
  private readonly insertAnswer: Statement<[Params]>;
  private readonly takeAnswer: Statement<[Params]>;
  private readonly ruleOf: Statement<[string], RunnerRuleRow>;
  private readonly rulesFor: Statement<[Params], RunnerRuleRow>;
  private readonly allRules: Statement<[], RunnerRuleRow>;
  private readonly insertRule: Statement<[Params]>;
  private readonly revokeRuleRow: Statement<[Params]>;
  private readonly addTokenTx: (token: Pick<RunnerTokenRow, 'id' | 'name' | 'secretHash'>) => RunnerTokenRow;
  /** One statement as its own write transaction; how many rows it changed. */
  private readonly write: (statement: Statement<[Params]>, params: Params) => number;

  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {
    this.tokenById = db.prepare(`SELECT ${TOKEN} FROM runner_tokens WHERE id = ?`);
    this.liveTokens = db.prepare(`SELECT ${TOKEN} FROM runner_tokens WHERE revoked_at IS NULL ORDER BY name`);
    this.liveTokenNamed = db.prepare(`SELECT ${TOKEN} FROM runner_tokens WHERE revoked_at IS NULL AND name = ?`);
    this.insertToken = db.prepare(`INSERT INTO runner_tokens (id, name, secret_hash, created_at) VALUES (@id, @name, @secretHash, @at)`);
    this.revokeNamed = db.prepare(`UPDATE runner_tokens SET revoked_at = @at WHERE name = @name AND revoked_at IS NULL`);
    this.touchToken = db.prepare(`UPDATE runner_tokens SET last_used_at = @at WHERE id = @id`);
    this.runOf = db.prepare(`SELECT ${RUN} FROM remote_runs WHERE session_id = ?`);
    this.runNamed = db.prepare(`SELECT ${RUN} FROM remote_runs WHERE runner = @runner AND run_id = @runId`);
    this.allRuns = db.prepare(`SELECT ${RUN} FROM remote_runs`);
    this.insertRun = db.prepare(
      `INSERT INTO remote_runs (session_id, runner, run_id, machine, repository, branch, tether_version, wait_ms, registered_at, last_seen_at)
       VALUES (@sessionId, @runner, @runId, @machine, @repository, @branch, @tetherVersion, @waitMs, @at, @at)`,
    );
    this.seenRun = db.prepare(
      `UPDATE remote_runs SET machine = @machine, repository = @repository, branch = @branch, tether_version = @tetherVersion,
         wait_ms = @waitMs, last_seen_at = @at WHERE session_id = @sessionId`,
    );
    this.answerOf = db.prepare(`SELECT ${ANSWER} FROM remote_answers WHERE approval_id = ?`);
    this.untaken = db.prepare(`SELECT ${ANSWER} FROM remote_answers WHERE session_id = ? AND taken_at IS NULL ORDER BY answered_at`);
    this.insertAnswer = db.prepare(
      `INSERT INTO remote_answers (approval_id, session_id, runner_approval_id, decision, answered_at)
       VALUES (@approvalId, @sessionId, @runnerApprovalId, @decision, @at) ON CONFLICT (approval_id) DO NOTHING`,
    );
    this.takeAnswer = db.prepare(
      `UPDATE remote_answers SET taken_at = @at, outcome = @outcome WHERE approval_id = @approvalId AND taken_at IS NULL`,
    );
    this.ruleOf = db.prepare(`SELECT ${RULE} FROM runner_rules WHERE id = ?`);
    this.rulesFor = db.prepare(
      `SELECT ${RULE} FROM runner_rules WHERE runner = @runner AND repository = @repository AND revoked_at IS NULL ORDER BY created_at, id`,
    );
    this.allRules = db.prepare(`SELECT ${RULE} FROM runner_rules WHERE revoked_at IS NULL ORDER BY runner, repository, created_at`);
    this.insertRule = db.prepare(
      `INSERT INTO runner_rules (id, runner, repository, pattern, created_from_approval, created_at)
       VALUES (@id, @runner, @repository, @pattern, @createdFromApproval, @at)`,
    );
    this.revokeRuleRow = db.prepare(`UPDATE runner_rules SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL`);
    this.write = db.writer((statement: Statement<[Params]>, params: Params) => statement.run(params).changes);
    this.addTokenTx = db.writer((token: Pick<RunnerTokenRow, 'id' | 'name' | 'secretHash'>) => {
      if (this.liveTokenNamed.get(token.name)) {
        throw new StoreError(
          'conflict',
          `The runner ${token.name} already has a token. Revoke it first (tether desk tokens revoke ${token.name}), or pick another name.`,
        );
      }
      this.insertToken.run({ ...token, at: this.now() });
      return this.tokenById.get(token.id)!;
    });
  }

  addToken(token: Pick<RunnerTokenRow, 'id' | 'name' | 'secretHash'>): RunnerTokenRow {
    return this.addTokenTx(token);
  }

  token(id: string): RunnerTokenRow | undefined {
    return this.tokenById.get(id);
  }

  tokens(): RunnerTokenRow[] {
    return this.liveTokens.all();
  }

  /** Revokes the runner's live token; how many were revoked (0 or 1). */
  revokeToken(name: string): number {
    return this.write(this.revokeNamed, { name, at: this.now() });
  }

  tokenUsed(id: string): void {
    this.write(this.touchToken, { id, at: this.now() });
  }

  run(sessionId: string): RemoteRunRow | undefined {
    return this.runOf.get(sessionId);
  }

  runNamedBy(runner: string, runId: string): RemoteRunRow | undefined {
    return this.runNamed.get({ runner, runId });
  }

  runs(): RemoteRunRow[] {
    return this.allRuns.all();
  }

  addRun(run: Omit<RemoteRunRow, 'registeredAt' | 'lastSeenAt'>): void {
    this.write(this.insertRun, { ...run, at: this.now() });
  }

  runSeen(sessionId: string, seen: Pick<RemoteRunRow, 'machine' | 'repository' | 'branch' | 'tetherVersion' | 'waitMs'>): void {
    this.write(this.seenRun, { sessionId, ...seen, at: this.now() });
  }

  answer(approvalId: string): RemoteAnswerRow | undefined {
    return this.answerOf.get(approvalId);
  }

  /** Answers the run has not said it took, oldest first: sent again when it connects. */
  untakenAnswers(sessionId: string): RemoteAnswerRow[] {
    return this.untaken.all(sessionId);
  }

  /** Keeps an answer before it is sent; false when the request already had one. */
  addAnswer(answer: Pick<RemoteAnswerRow, 'approvalId' | 'sessionId' | 'runnerApprovalId' | 'decision'>): boolean {
    return this.write(this.insertAnswer, { ...answer, at: this.now() }) === 1;
  }

  answerTaken(approvalId: string, outcome: NonNullable<RemoteAnswerRow['outcome']>): void {
    this.write(this.takeAnswer, { approvalId, outcome, at: this.now() });
  }

  rule(id: string): RunnerRuleRow | undefined {
    return this.ruleOf.get(id);
  }

  rulesOf(runner: string, repository: string): RunnerRuleRow[] {
    return this.rulesFor.all({ runner, repository });
  }

  rules(): RunnerRuleRow[] {
    return this.allRules.all();
  }

  addRule(rule: Pick<RunnerRuleRow, 'runner' | 'repository' | 'pattern' | 'createdFromApproval'>): RunnerRuleRow {
    const id = newId();
    this.write(this.insertRule, { id, ...rule, at: this.now() });
    return this.ruleOf.get(id)!;
  }

  /** Revokes a rule; false when there was none live with that id. */
  revokeRule(id: string): boolean {
    return this.write(this.revokeRuleRow, { id, at: this.now() }) === 1;
  }
}

import type { PolicyAction, Scope } from '../../shared/permissions';
import type { Database, Statement } from './sqlite/database';
import { newId } from './newId';
import { StoreError } from './storeError';

/** How far a stored rule reaches; "once" is an answer, never a rule. */
export type RuleScope = Exclude<Scope, 'once'>;

/** A permission rule a person made ("Allow always", or written in settings). */
export interface RuleRow {
  id: string;
  /** `tool(specifier)`, e.g. `run_command(npm test *)`. */
  pattern: string;
  action: PolicyAction;
  scope: RuleScope;
  /** Where it came from, e.g. 'approval' (the dialog) or 'settings'; the permissions engine decides the words. */
  source: string;
  projectId: string | null;
  sessionId: string | null;
  /** The approval whose "Allow always" created it. */
  createdFromApproval: string | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface NewRule {
  pattern: string;
  action: PolicyAction;
  scope: RuleScope;
  source: string;
  /** Required for scope 'project'. */
  projectId?: string;
  /** Required for scope 'session'. */
  sessionId?: string;
  createdFromApproval?: string;
}

export interface RuleFilter {
  /** With a project and/or session: only the rules that apply there (plus the 'everywhere' ones). */
  projectId?: string;
  sessionId?: string;
  includeRevoked?: boolean;
}

const COLUMNS = `id, pattern, action, scope, source, project_id AS projectId, session_id AS sessionId,
  created_from_approval AS createdFromApproval, created_at AS createdAt, revoked_at AS revokedAt`;

/** Stored permission rules: listed, added and revoked; the permissions engine reads them. */
export class StoredRules {
  private readonly selectOne: Statement<[string], RuleRow>;
  private readonly selectList: Statement<[Record<string, string | number | null>], RuleRow>;
  private readonly addTx: (rule: NewRule) => RuleRow;
  private readonly revokeTx: (id: string) => RuleRow;

  constructor(db: Database, now: () => number) {
    this.selectOne = db.prepare(`SELECT ${COLUMNS} FROM rules WHERE id = ?`);
    this.selectList = db.prepare(
      `SELECT ${COLUMNS} FROM rules
       WHERE (@includeRevoked OR revoked_at IS NULL)
         AND (@everyRule OR scope = 'everywhere'
              OR (scope = 'project' AND project_id = @projectId)
              OR (scope = 'session' AND session_id = @sessionId))
       ORDER BY created_at, rowid`,
    );
    const exists = {
      project: db.prepare<[string], { found: 1 }>('SELECT 1 AS found FROM projects WHERE id = ?'),
      session: db.prepare<[string], { found: 1 }>('SELECT 1 AS found FROM sessions WHERE id = ?'),
      // Settled approvals only: a rule is made from an answer (migrations/0005_waiting_on_session.sql).
      answeredApproval: db.prepare<[string], { found: 1 }>('SELECT 1 AS found FROM approvals WHERE id = ? AND decision IS NOT NULL'),
    };
    const insert = db.prepare<[Record<string, string | number | null>], RuleRow>(
      `INSERT INTO rules (id, pattern, action, scope, source, project_id, session_id, created_from_approval, created_at)
       VALUES (@id, @pattern, @action, @scope, @source, @projectId, @sessionId, @createdFromApproval, @at)
       RETURNING ${COLUMNS}`,
    );
    const linkApproval = db.prepare<[{ ruleId: string; approvalId: string }]>(
      'UPDATE approvals SET rule_id = @ruleId WHERE id = @approvalId',
    );
    const revoke = db.prepare<[{ id: string; at: number }], RuleRow>(
      `UPDATE rules SET revoked_at = COALESCE(revoked_at, @at) WHERE id = @id RETURNING ${COLUMNS}`,
    );

    this.addTx = db.writer((rule: NewRule) => {
      const refuse = (code: 'invalid' | 'not_found', why: string): never => {
        throw new StoreError(code, `Cannot add the rule ${rule.action} ${rule.pattern}: ${why}.`);
      };
      if (rule.scope === 'project' && rule.projectId === undefined) refuse('invalid', 'a project-scoped rule needs its projectId');
      if (rule.scope === 'session' && rule.sessionId === undefined) refuse('invalid', 'a session-scoped rule needs its sessionId');
      if (rule.projectId !== undefined && !exists.project.get(rule.projectId)) {
        refuse('not_found', `there is no project ${rule.projectId} in ${db.file}`);
      }
      if (rule.sessionId !== undefined && !exists.session.get(rule.sessionId)) {
        refuse('not_found', `there is no session ${rule.sessionId} in ${db.file}`);
      }
      if (rule.createdFromApproval !== undefined && !exists.answeredApproval.get(rule.createdFromApproval)) {
        refuse('not_found', `there is no answered approval ${rule.createdFromApproval} in ${db.file} (a rule is made from an answer)`);
      }
      const id = newId();
      const added = insert.get({
        id,
        pattern: rule.pattern,
        action: rule.action,
        scope: rule.scope,
        source: rule.source,
        projectId: rule.projectId ?? null,
        sessionId: rule.sessionId ?? null,
        createdFromApproval: rule.createdFromApproval ?? null,
        at: now(),
      });
      if (rule.createdFromApproval !== undefined) linkApproval.run({ ruleId: id, approvalId: rule.createdFromApproval });
      return added as RuleRow;
    });
    this.revokeTx = db.writer((id: string) => {
      const revoked = revoke.get({ id, at: now() });
      if (!revoked) throw new StoreError('not_found', `There is no rule ${id} in ${db.file}; list the rules to find the one to revoke.`);
      return revoked;
    });
  }

  get(id: string): RuleRow | undefined {
    return this.selectOne.get(id);
  }

  /** Oldest first. Revoked rules are left out unless asked for. */
  list(filter: RuleFilter = {}): RuleRow[] {
    const everyRule = filter.projectId === undefined && filter.sessionId === undefined;
    return this.selectList.all({
      includeRevoked: filter.includeRevoked ? 1 : 0,
      everyRule: everyRule ? 1 : 0,
      projectId: filter.projectId ?? null,
      sessionId: filter.sessionId ?? null,
    });
  }

  add(rule: NewRule): RuleRow {
    return this.addTx(rule);
  }

  /** Revoking twice is harmless: the first revocation time stands. */
  revoke(id: string): RuleRow {
    return this.revokeTx(id);
  }
}

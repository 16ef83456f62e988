import type { PermissionRule } from '../../shared/permissions';
import { settingsFile } from '../settings/appSettings';
import { readManagedPolicy } from '../settings/managedPolicy';
import type { ProjectRow } from '../store/projects';
import type { Store } from '../store/store';
import { loadPermissionRules, rulesIn } from './settings';

/**
 * The rules that apply to a session, and whether its project is trusted: built here once, for a
 * session's engine (sessionPermissions.ts) and for `tether permissions explain`, so the two never
 * disagree about what a call would meet.
 */

export interface SessionRuleSource {
  /** Tether's data folder, where the person's settings.json is. */
  dataDir: string;
  /** The session's folder (canonical). */
  workspace: string;
  /** Where grants and trust are kept; without it (no database yet) there are none. */
  store?: Store;
  /** The session, for its own grants and its project; absent for a question about the folder (explain). */
  sessionId?: string;
  /** A rules file named for this run (`--rules`). */
  cliRulesFile?: string;
}

export interface SessionRuleSet {
  /**
   * The person's settings, the project's `.tether/settings.json`, the `--rules` file, then the grants
   * remembered for this session, its project and everywhere (the built-in defaults are the engine's).
   */
  rules: PermissionRule[];
  /** The person trusts the project: its own allow rules apply (the engine keeps them listed either way). */
  projectTrusted: boolean;
  /** The project the session belongs to (a worktree session's is the folder it was started in). */
  project?: ProjectRow;
}

export function sessionRuleSet(source: SessionRuleSource): SessionRuleSet {
  const { store, sessionId } = source;
  // A worktree session works outside its project's folder: its project is the one it was started in.
  const projectId = sessionId ? store?.sessions.get(sessionId)?.projectId : undefined;
  const project = (projectId ? store?.projects.get(projectId) : undefined) ?? store?.projects.byPath(source.workspace);
  // The managed policy's rules come first and always apply: deny beats ask beats allow whatever the source.
  const policy = readManagedPolicy();
  const managedRules = policy ? rulesIn({ permissions: policy.permissions ?? {} }, policy.file, 'managed') : [];
  const fileRules = loadPermissionRules({
    workspaceRoot: source.workspace,
    userSettings: settingsFile(source.dataDir),
    ...(source.cliRulesFile ? { cliRules: source.cliRulesFile } : {}),
  });
  const rows = store?.rules.list({ ...(sessionId ? { sessionId } : {}), ...(project ? { projectId: project.id } : {}) }) ?? [];
  const remembered = rows
    // The store lists every rule when asked with neither a session nor a project: keep only what reaches here.
    .filter(
      (row) =>
        row.scope === 'everywhere' ||
        (row.scope === 'project' && row.projectId === project?.id) ||
        (row.scope === 'session' && sessionId !== undefined && row.sessionId === sessionId),
    )
    .map((row): PermissionRule => ({
      id: row.id,
      pattern: row.pattern,
      action: row.action,
      source: row.scope === 'session' ? 'session' : 'user',
    }));
  return {
    rules: [...managedRules, ...fileRules, ...remembered],
    projectTrusted: project?.trusted ?? false,
    ...(project ? { project } : {}),
  };
}

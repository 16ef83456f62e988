import type { OutsideContentSetting, PermissionMode, PermissionRule } from '../../shared/permissions';
import { settingsFile, type AppSettings } from '../settings/appSettings';
import type { Store } from '../store/store';
import { createPermissionEngine, type PermissionEngine } from './engine';
import type { Grant } from './grant';
import { initShellParser } from './shell/parser';
import { loadPermissionRules } from './settings';

export interface SessionPermissionOptions {
  store: Store;
  dataDir: string;
  workspace: string;
  sessionId: string;
  mode: PermissionMode;
  outsideContent: OutsideContentSetting;
  /** A rules file named for this run (`--rules`). */
  cliRulesFile?: string;
  /** Whether the sandbox holds the session's commands: what auto mode lets run on its own. */
  commandsFenced?: () => boolean;
}

export interface SessionPermissions {
  engine: PermissionEngine;
  /** Whether the session's project is trusted (its own settings may allow, its MCP servers start). */
  projectTrusted: boolean;
  /** Stores an "Allow always" and puts it in force at once. */
  remember(grant: Grant): void;
}

/**
 * The permission engine for one session, with every rule that applies to it: the built-in defaults,
 * the person's settings, the project's `.tether/settings.json` (its allow rules only once the folder is
 * trusted), a `--rules` file, and the grants remembered in the store for this session, project or everywhere.
 */
export async function createSessionPermissions(options: SessionPermissionOptions): Promise<SessionPermissions> {
  await initShellParser();
  const { store, sessionId } = options;
  // A worktree session works outside its project's folder: its project is the one it was started in.
  const projectId = store.sessions.get(sessionId)?.projectId;
  const project = (projectId ? store.projects.get(projectId) : undefined) ?? store.projects.byPath(options.workspace);
  const fileRules = loadPermissionRules({
    workspaceRoot: options.workspace,
    userSettings: settingsFile(options.dataDir),
    ...(options.cliRulesFile ? { cliRules: options.cliRulesFile } : {}),
  });
  const remembered = store.rules.list({ sessionId, ...(project ? { projectId: project.id } : {}) }).map(
    (row): PermissionRule => ({ id: row.id, pattern: row.pattern, action: row.action, source: row.scope === 'session' ? 'session' : 'user' }),
  );
  const engine = createPermissionEngine({
    workspaceRoot: options.workspace,
    mode: options.mode,
    outsideContent: options.outsideContent,
    rules: [...fileRules, ...remembered],
    projectTrusted: project?.trusted ?? false,
    ...(options.commandsFenced ? { commandsFenced: options.commandsFenced } : {}),
  });
  return {
    engine,
    projectTrusted: project?.trusted ?? false,
    remember({ approvalId, rule, scope }) {
      const row = store.rules.add({
        pattern: rule,
        action: 'allow',
        scope,
        source: 'approval',
        // Only a session's own grant belongs to it: rules go with their session when it is deleted,
        // and a project's or everywhere "always" must outlive the session it was given in.
        ...(scope === 'session' ? { sessionId } : {}),
        ...(project ? { projectId: project.id } : {}),
        createdFromApproval: approvalId,
      });
      engine.addRule({ id: row.id, pattern: row.pattern, action: 'allow', source: scope === 'session' ? 'session' : 'user' });
    },
  };
}

/** The mode and outside-content setting a run starts with: the person's settings, unless the run says otherwise. */
export function permissionDefaults(settings: AppSettings): { mode: PermissionMode; outsideContent: OutsideContentSetting } {
  return { mode: settings.mode ?? 'ask', outsideContent: settings.outsideContent ?? 'ask' };
}

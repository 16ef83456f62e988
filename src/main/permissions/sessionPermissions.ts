import type { OutsideContentSetting, PermissionMode } from '../../shared/permissions';
import type { AppSettings } from '../settings/appSettings';
import type { Store } from '../store/store';
import { createPermissionEngine, type PermissionEngine } from './engine';
import type { Grant } from './grant';
import { sessionRuleSet } from './sessionRules';

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
  /** The fence's own writable places besides the workspace, as a command names them (callItems.ts). */
  fencedPlaces?: () => readonly string[];
}

export interface SessionPermissions {
  engine: PermissionEngine;
  /** Whether the session's project is trusted (its own settings may allow, its MCP servers start). */
  projectTrusted: boolean;
  /** Stores an "Allow always" and puts it in force at once. */
  remember(grant: Grant): void;
}

/**
 * The permission engine for one session, with every rule that applies to it (sessionRules.ts: the
 * person's settings, the project's `.tether/settings.json`, whose allow rules count once the folder is
 * trusted, a `--rules` file, the grants remembered for this session, project or everywhere; the
 * engine adds the built-in defaults), and the keeper of the grants its people give.
 */
export async function createSessionPermissions(options: SessionPermissionOptions): Promise<SessionPermissions> {
  const { store, sessionId } = options;
  const { rules, projectTrusted, project } = sessionRuleSet({
    store,
    dataDir: options.dataDir,
    workspace: options.workspace,
    sessionId,
    ...(options.cliRulesFile ? { cliRulesFile: options.cliRulesFile } : {}),
  });
  const engine = createPermissionEngine({
    workspaceRoot: options.workspace,
    mode: options.mode,
    outsideContent: options.outsideContent,
    rules,
    projectTrusted,
    ...(options.commandsFenced ? { commandsFenced: options.commandsFenced } : {}),
    ...(options.fencedPlaces ? { fencedPlaces: options.fencedPlaces } : {}),
  });
  return {
    engine,
    projectTrusted,
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

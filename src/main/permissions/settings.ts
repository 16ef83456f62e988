import type { PermissionRule, RuleAction, RuleSource } from '../../shared/permissions';
import { readJsonValue } from '../settings/jsonFile';
import { parseRule, RuleSyntaxError } from './ruleSyntax';
import { projectSettingsPath, SettingsError, SettingsFile } from '../settings/settingsFile';

/**
 * Permission settings files: the user's global settings, the project's `.tether/settings.json`, and
 * a `--rules` file given to the CLI, all of the shape
 *   { "permissions": { "allow": [...], "ask": [...], "deny": [...] } }
 * (other top-level keys belong to other settings and are left alone). A file that is not valid JSON,
 * has an unknown key under "permissions" (a typo like "denny" must not silently drop a deny), or holds
 * a rule that cannot be read is an error naming the file and the problem: it never loads halfway.
 */

const ACTIONS: readonly RuleAction[] = ['deny', 'ask', 'allow'];

/**
 * Reads the rules in one settings file. A missing file is no rules, unless `required` (a file the
 * person named, like `--rules`), when it is an error.
 */
export function readPermissionRules(file: string, source: RuleSource, options: { required?: boolean } = {}): PermissionRule[] {
  const json = readJsonValue(file, (problem) => new SettingsError(file, problem));
  if (json !== undefined) return rulesIn(json, file, source);
  if (options.required) throw new SettingsError(file, 'does not exist; check the path you gave.');
  return [];
}

/** The rules in a settings file's JSON; `file` names it in errors. */
export function rulesIn(settings: unknown, file: string, source: RuleSource): PermissionRule[] {
  let json = settings;
  // A rules file (`--rules`) may hold the three lists bare; a settings file nests them under "permissions".
  if (isBareRuleLists(json)) json = { permissions: json };
  const parsed = SettingsFile.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the top level';
      return issue.code === 'unrecognized_keys'
        ? `${where} has unknown key(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} (only "allow", "ask" and "deny" go under "permissions")`
        : `${where} ${issue.message}`;
    });
    throw new SettingsError(
      file,
      `is not valid permission settings: ${problems.join('; ')}. Expected {"permissions": {"allow": [], "ask": [], "deny": []}}.`,
    );
  }
  const permissions = parsed.data.permissions ?? {};
  const rules: PermissionRule[] = [];
  for (const action of ACTIONS) {
    (permissions[action] ?? []).forEach((pattern, index) => {
      try {
        parseRule(pattern);
      } catch (error) {
        if (!(error instanceof RuleSyntaxError)) throw error;
        throw new SettingsError(
          file,
          `has a rule that cannot be read at permissions.${action}[${index}]: ${JSON.stringify(pattern)}: ${error.problem}. Fix or remove that rule.`,
        );
      }
      rules.push({ pattern: pattern.trim(), action, source });
    });
  }
  return rules;
}

function isBareRuleLists(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json) || 'permissions' in json) return false;
  return ACTIONS.some((action) => action in json);
}

export interface RuleFiles {
  workspaceRoot: string;
  /** The user's global settings file, if there is one. */
  userSettings?: string;
  /** A rules file named on the command line (`--rules`); it must exist. */
  cliRules?: string;
}

/**
 * Every rule from the files: user, then project, then CLI. Project allow rules are returned too;
 * the engine applies them only once the folder is trusted (so `permissions explain` can show them).
 */
export function loadPermissionRules(files: RuleFiles): PermissionRule[] {
  return [
    ...(files.userSettings ? readPermissionRules(files.userSettings, 'user') : []),
    ...readPermissionRules(projectSettingsPath(files.workspaceRoot), 'project'),
    ...(files.cliRules ? readPermissionRules(files.cliRules, 'cli', { required: true }) : []),
  ];
}

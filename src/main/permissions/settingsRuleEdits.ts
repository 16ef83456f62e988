import type { RuleAction } from '../../shared/permissions';
import { AppSettings, settingsFile } from '../settings/appSettings';
import { editJsonFile, readJsonFile } from '../settings/jsonFile';
import { SettingsError } from '../settings/settingsFile';
import { rulesIn } from './settings';
import { parseRule, RuleSyntaxError } from './ruleSyntax';

/**
 * The rules of the person's own settings.json (`permissions.allow`, `ask`, `deny`), as Settings lists
 * them and changes them. A change is read by the same parser that loads the file for every session,
 * so a rule that is written is one that loads; everything else in the file is left as it was.
 */
export interface SettingsRuleLists {
  allow: string[];
  ask: string[];
  deny: string[];
}

/** A rule the person typed that cannot go into the file; the message says why and what to write. */
export class SettingsRuleError extends Error {
  override readonly name = 'SettingsRuleError';
}

export function settingsRuleLists(dataDir: string): SettingsRuleLists {
  const file = settingsFile(dataDir);
  const settings = readJsonFile(file, AppSettings, { whenMissing: () => ({}), fail: (problem) => new SettingsError(file, problem) });
  return lists(settings);
}

/** Adds `rule` to the file's `action` list; returns the lists as the file now holds them. */
export function addSettingsRule(dataDir: string, action: RuleAction, rule: string): SettingsRuleLists {
  const pattern = rule.trim();
  try {
    parseRule(pattern);
  } catch (error) {
    if (error instanceof RuleSyntaxError) throw new SettingsRuleError(error.message);
    throw error;
  }
  return change(dataDir, (current) => {
    if (current[action].includes(pattern)) throw new SettingsRuleError(`${pattern} is already one of your ${action} rules.`);
    return { ...current, [action]: [...current[action], pattern] };
  });
}

/** Takes `rule` out of the file's `action` list; returns the lists as the file now holds them. */
export function removeSettingsRule(dataDir: string, action: RuleAction, rule: string): SettingsRuleLists {
  return change(dataDir, (current) => {
    if (!current[action].includes(rule))
      throw new SettingsRuleError(`${rule} is not one of your ${action} rules (the file may have changed); reload Settings.`);
    return { ...current, [action]: current[action].filter((pattern) => pattern !== rule) };
  });
}

function change(dataDir: string, next: (current: SettingsRuleLists) => SettingsRuleLists): SettingsRuleLists {
  const file = settingsFile(dataDir);
  const settings = editJsonFile(
    file,
    AppSettings,
    { whenMissing: () => ({}), fail: (problem) => new SettingsError(file, problem) },
    (json) => {
      const permissions = { ...(isObject(json.permissions) ? json.permissions : {}) };
      const wanted = next(lists({ permissions: permissions as AppSettings['permissions'] }));
      for (const action of ['allow', 'ask', 'deny'] as const) {
        if (wanted[action].length > 0 || action in permissions) permissions[action] = wanted[action];
      }
      // What every session loads from this file, read as they read it: a change that would not load is not written.
      rulesIn({ permissions }, file, 'user');
      json.permissions = permissions;
    },
  );
  return lists(settings);
}

function lists(settings: Pick<AppSettings, 'permissions'>): SettingsRuleLists {
  const permissions = settings.permissions ?? {};
  return { allow: [...(permissions.allow ?? [])], ask: [...(permissions.ask ?? [])], deny: [...(permissions.deny ?? [])] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

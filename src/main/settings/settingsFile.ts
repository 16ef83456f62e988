import path from 'node:path';
import { z } from 'zod';

/**
 * The permission settings files' shape (the user's global settings, the project's
 * `.tether/settings.json`, a `--rules` file), where a project keeps its own, and the error a file that
 * cannot be used gives. Settings (base) holds the shape so that the app's settings can carry the
 * same lists; permissions/settings.ts reads the rules out of them.
 */

const RuleList = z.array(z.string(), { error: 'must be a list of rule strings' });

export const PermissionSettings = z.strictObject({
  allow: RuleList.optional(),
  ask: RuleList.optional(),
  deny: RuleList.optional(),
});
export type PermissionSettings = z.infer<typeof PermissionSettings>;

export const SettingsFile = z.looseObject({
  permissions: PermissionSettings.optional(),
});
export type SettingsFile = z.infer<typeof SettingsFile>;

/** A settings file that cannot be used; `file` is the path, the message says what to fix. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`The settings file ${file} ${problem}`);
  }
}

/** Where a project keeps its settings. */
export function projectSettingsPath(workspaceRoot: string): string {
  return path.join(workspaceRoot, '.tether', 'settings.json');
}

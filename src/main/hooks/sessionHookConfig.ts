import { settingsFile } from '../settings/appSettings';
import { readManagedPolicy } from '../settings/managedPolicy';
import { projectSettingsPath } from '../settings/settingsFile';
import { hooksIn, readHooks, type ConfiguredHook } from './hookSettings';

/**
 * The hooks a session's run has: the managed policy's (always, whatever the folder's trust), the
 * person's (their settings.json in Tether's data folder), then the project's (`.tether/settings.json`,
 * which SessionHooks runs only once the folder is trusted).
 */
export function sessionHookConfig(dataDir: string, workspace: string): ConfiguredHook[] {
  const policy = readManagedPolicy();
  const managed = policy?.hooks !== undefined ? hooksIn({ hooks: policy.hooks }, policy.file, 'managed') : [];
  return [...managed, ...readHooks(settingsFile(dataDir), 'user'), ...readHooks(projectSettingsPath(workspace), 'project')];
}

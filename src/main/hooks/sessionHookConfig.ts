import { settingsFile } from '../settings/appSettings';
import { projectSettingsPath } from '../settings/settingsFile';
import { readHooks, type ConfiguredHook } from './hookSettings';

/**
 * The hooks a session's run has: the person's (their settings.json in Tether's data folder), then the
 * project's (`.tether/settings.json`, which SessionHooks runs only once the folder is trusted).
 */
export function sessionHookConfig(dataDir: string, workspace: string): ConfiguredHook[] {
  return [...readHooks(settingsFile(dataDir), 'user'), ...readHooks(projectSettingsPath(workspace), 'project')];
}

import path from 'node:path';
import { ShellEnvironment } from '../workspace/commandEnvironment';
import { CommandLimits } from '../process/commandLimits';
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from './jsonFile';
import { ModelApi } from '../../shared/conversation';
import { OutsideContentSetting, PermissionMode } from '../../shared/permissions';
import { PermissionSettings, SettingsError } from './settingsFile';

/**
 * The person's own settings, in <dataDir>/settings.json: where the model is, how many steps a run may
 * take, the default mode, the outside-content setting, and their permission rules. Never the API key:
 * that lives in the OS keychain (Electron's safeStorage) or the environment.
 */
/** What settings may say about one model: its context window, and its prices in US dollars per million tokens. */
export const ModelOverride = z.strictObject({
  contextWindow: z.number().int().positive().optional(),
  inputPrice: z.number().nonnegative().optional(),
  cachedInputPrice: z.number().nonnegative().optional(),
  outputPrice: z.number().nonnegative().optional(),
});
export type ModelOverride = z.infer<typeof ModelOverride>;

export const AppSettings = z.looseObject({
  model: z
    .strictObject({
      baseUrl: z.url().optional(),
      api: ModelApi.optional(),
      model: z.string().min(1).optional(),
      /**
       * The origin (scheme, host, port) the key typed into the app was saved for: it is sent to that
       * origin only, so pointing the app at another server never carries the key there. Not a secret.
       */
      keyOrigin: z.string().optional(),
    })
    .optional(),
  maxSteps: z.number().int().positive().optional(),
  mode: PermissionMode.exclude(['unleashed']).optional(),
  outsideContent: OutsideContentSetting.optional(),
  permissions: PermissionSettings.optional(),
  /**
   * What Tether should believe about a model, by its id as the session pins it, over the built-in
   * defaults (src/main/model/modelCatalog.ts): its context window, and its prices in US dollars per
   * million tokens. A model with no price here or there shows its cost as unknown.
   */
  models: z.record(z.string().min(1), ModelOverride).optional(),
  /**
   * What commands find in their environment (secrets are always left out): see
   * src/main/workspace/commandEnvironment.ts. Only the person's own settings say this; a project
   * cannot open a door to a secret.
   */
  shellEnvironment: ShellEnvironment.optional(),
  /** What each command may take of the machine; defaults when absent (process/commandLimits.ts). */
  commandLimits: CommandLimits.optional(),
  /** The share of the context window past which the conversation is compacted before the next request (default 0.85). */
  compactAt: z.number().min(0.3).max(0.98).optional(),
});
export type AppSettings = z.infer<typeof AppSettings>;

export function settingsFile(dataDir: string): string {
  return path.join(dataDir, 'settings.json');
}

export function readAppSettings(dataDir: string): AppSettings {
  const file = settingsFile(dataDir);
  return readJsonFile(file, AppSettings, { whenMissing: () => ({}), fail: (problem) => new SettingsError(file, problem) });
}

/** Writes the settings whole, through a temporary file, so a crash never leaves half a file. */
export function writeAppSettings(dataDir: string, settings: AppSettings): void {
  writeJsonFile(settingsFile(dataDir), settings);
}

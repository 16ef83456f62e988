import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { OutsideContentSetting, PermissionMode } from '../../shared/permissions';
import { PermissionSettings, SettingsError } from '../permissions/settings';

/**
 * The person's own settings, in <dataDir>/settings.json: where the model is, how many steps a run may
 * take, the default mode, the outside-content setting, and their permission rules. Never the API key:
 * that lives in the OS keychain (Electron's safeStorage) or the environment.
 */
export const AppSettings = z.looseObject({
  model: z
    .strictObject({
      baseUrl: z.url().optional(),
      api: z.enum(['responses', 'chat']).optional(),
      model: z.string().min(1).optional(),
    })
    .optional(),
  maxSteps: z.number().int().positive().optional(),
  mode: PermissionMode.exclude(['unleashed']).optional(),
  outsideContent: OutsideContentSetting.optional(),
  permissions: PermissionSettings.optional(),
});
export type AppSettings = z.infer<typeof AppSettings>;

export function settingsFile(dataDir: string): string {
  return path.join(dataDir, 'settings.json');
}

export function readAppSettings(dataDir: string): AppSettings {
  const file = settingsFile(dataDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SettingsError(file, `cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(file, `is not valid JSON (${(error as Error).message}); fix it or move it away.`);
  }
  const parsed = AppSettings.safeParse(json);
  if (!parsed.success) throw new SettingsError(file, `has a setting Tether cannot use:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Writes the settings whole, through a temporary file, so a crash never leaves half a file. */
export function writeAppSettings(dataDir: string, settings: AppSettings): void {
  const file = settingsFile(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

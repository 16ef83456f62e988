import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../settings/jsonFile';
import { SandboxFence, SandboxUnavailableChoice } from '../../shared/sandbox';

/**
 * The person's sandbox settings, in <dataDir>/sandbox.json: each project's additions to the fence
 * (keyed by the project's folder) and what runs when no sandbox is available. They live in the data
 * folder, never in the repository, so a repository cannot widen its own fence.
 */
export const SandboxSettings = z.object({
  unavailable: SandboxUnavailableChoice.default('ask'),
  projects: z.record(z.string(), SandboxFence).default({}),
});
export type SandboxSettings = z.infer<typeof SandboxSettings>;

export function sandboxSettingsFile(dataDir: string): string {
  return path.join(dataDir, 'sandbox.json');
}

export function readSandboxSettings(dataDir: string): SandboxSettings {
  const file = sandboxSettingsFile(dataDir);
  return readJsonFile(file, SandboxSettings, {
    whenMissing: () => SandboxSettings.parse({}),
    fail: (problem) => new Error(`The sandbox settings ${file} ${problem}`),
  });
}

/** Writes the settings whole, through a temporary file, so a crash never leaves half a file. */
export function writeSandboxSettings(dataDir: string, settings: SandboxSettings): void {
  writeJsonFile(sandboxSettingsFile(dataDir), settings);
}

/** The fence the person added for a project folder (empty when they added nothing). */
export function projectFence(settings: SandboxSettings, projectPath: string): SandboxFence {
  return settings.projects[projectPath] ?? SandboxFence.parse({});
}

import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../settings/jsonFile';

/**
 * Which projects give each new session its own git worktree, in <dataDir>/worktrees.json (a file of
 * its own, so the person's settings.json stays theirs). Keyed by project id.
 */
export const WorktreeSettingsFile = z.object({
  projects: z.record(z.string(), z.object({ enabled: z.boolean() })),
});
export type WorktreeSettingsFile = z.infer<typeof WorktreeSettingsFile>;

export function worktreeSettingsFile(dataDir: string): string {
  return path.join(dataDir, 'worktrees.json');
}

export function readWorktreeSettings(dataDir: string): WorktreeSettingsFile {
  const file = worktreeSettingsFile(dataDir);
  return readJsonFile(file, WorktreeSettingsFile, {
    whenMissing: () => ({ projects: {} }),
    // Worktrees are then off for every project until it is fixed or moved away.
    fail: (problem) => new Error(`The worktree settings ${file} ${problem}`),
  });
}

/** Writes the whole file through a temporary one, so a crash never leaves half of it. */
export function writeWorktreeSettings(dataDir: string, settings: WorktreeSettingsFile): void {
  writeJsonFile(worktreeSettingsFile(dataDir), settings);
}

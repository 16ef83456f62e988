import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/repos');
const made: string[] = [];

/** A fresh temporary folder, removed by `removeTempDirs` (call it in afterEach/afterAll). */
export function tempDir(prefix = 'tether-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A copy of test/fixtures/repos/<name> in a fresh temporary folder. */
export function fixtureRepo(name: string): string {
  const dir = tempDir(`tether-${name}-`);
  cpSync(path.join(fixtures, name), dir, { recursive: true });
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A fresh folder outside /tmp (under /var/tmp), removed by `removeTempDirs`: a place the sandbox keeps
 * read-only. Inside the sandbox /tmp is each session's own, so a folder in the real /tmp is not "outside
 * the fence" to a command: it simply is not there.
 */
export function outsideTempDir(prefix = 'tether-outside-'): string {
  const dir = mkdtempSync(path.join('/var/tmp', prefix));
  made.push(dir);
  return dir;
}

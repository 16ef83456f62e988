import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isProcessFolderName, processFolder } from './processFolders';

/**
 * A session's private /tmp: a folder in Tether's data folder that its sandboxed commands see at
 * /tmp (and as TMPDIR), writable, kept from one command to the next (agents write in one call and
 * read in the next) and from one run of the session to the next, never the real /tmp: nothing a
 * command leaves there is where the person's own tools look. It goes with the session: when the
 * session is deleted, and, on every host, when Tether starts and finds the session gone or idle for
 * SESSION_TEMP_DAYS (a session nobody deletes, `tether run`'s among them, does not keep its scratch
 * files for ever).
 */

/** How long a session's /tmp outlives the session's last activity. */
export const SESSION_TEMP_DAYS = 7;

/** Where the private /tmp folders live. */
export function tempRoot(dataDir: string): string {
  return path.join(dataDir, 'sandbox', 'tmp');
}

/** The folder a session's commands see at /tmp (made by ensureSessionTemp). */
export function sessionTempDir(dataDir: string, sessionId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`"${sessionId}" is not a session id a folder can be named after.`);
  return path.join(tempRoot(dataDir), sessionId);
}

/**
 * A private /tmp no session owns (a project server's): in this process's folder (processFolders.ts),
 * so that another Tether process starting meanwhile leaves it alone, and one starting after a crash
 * removes it.
 */
export function runTempDir(dataDir: string): string {
  return path.join(processFolder(tempRoot(dataDir)), randomUUID());
}

/**
 * Makes the folder (again, when it was deleted) and returns it. Only the person may enter it (0700).
 * The data folder is out of every command's reach, so the path to it cannot have been changed by one.
 */
export function ensureSessionTemp(folder: string): string {
  try {
    const stat = fs.lstatSync(folder);
    if (stat.isDirectory()) return folder;
    fs.rmSync(folder, { force: true });
  } catch {
    // Not there yet.
  }
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.chmodSync(folder, 0o700);
  return folder;
}

/**
 * Within the private /tmp, the folders bubblewrap makes as mount points for fence roots that lie
 * under the real /tmp (a workspace there, a test's data folder) must be plain folders: a symbolic
 * link an earlier command put in their place would move the mount elsewhere in the next sandbox.
 * Each such name on the way is made a folder again (the command's own file there is removed).
 */
export function clearMountPath(folder: string, underTmp: string): void {
  const relative = path.relative('/tmp', underTmp);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return;
  let current = folder;
  for (const part of relative.split(path.sep)) {
    current = path.join(current, part);
    try {
      const stat = fs.lstatSync(current);
      if (stat.isDirectory()) continue;
      fs.rmSync(current, { force: true });
    } catch {
      // Not there: bubblewrap makes it.
    }
    return;
  }
}

/** Removes a session's private /tmp and everything in it. */
export function removeSessionTemp(dataDir: string, sessionId: string): void {
  try {
    fs.rmSync(sessionTempDir(dataDir, sessionId), { recursive: true, force: true });
  } catch {
    // Not a session id a folder was named after: there is nothing to remove.
  }
}

/**
 * Removes the private /tmp of every session `keep` does not keep (gone, or idle too long). Run when
 * Tether starts; returns the ids removed.
 */
export function pruneSessionTemps(dataDir: string, keep: (sessionId: string) => boolean): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(tempRoot(dataDir));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const sessionId of entries) {
    // A process's folder is no session's: it goes when its process is gone (sandboxLeftovers.ts).
    if (isProcessFolderName(sessionId) || keep(sessionId)) continue;
    fs.rmSync(path.join(tempRoot(dataDir), sessionId), { recursive: true, force: true });
    removed.push(sessionId);
  }
  return removed;
}

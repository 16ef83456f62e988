import fs from 'node:fs';
import path from 'node:path';

/**
 * Refs moved as git moves loose refs, without a git process (a snapshot moves one or two, and a
 * `git update-ref` cost as much as the snapshot's own work): each ref is locked by creating
 * `<ref>.lock` exclusively, its value checked under the lock, the new value written to the lock file
 * and the lock renamed over the ref. A git, or another Tether, moving the same refs takes the same
 * locks, so neither loses the other's update.
 */

export interface RefUpdate {
  /** The full name, e.g. `refs/tether/latest`. */
  name: string;
  /** What the ref is to point at. */
  commit: string;
  /** What the ref must point at now: a commit, or null for "must not exist yet". Unset: whatever it is. */
  expected?: string | null;
}

/** Another process moved a ref, or holds its lock, between the caller's read and this update. */
export class RefConflict extends Error {
  override readonly name = 'RefConflict';
}

const LOCK_WAIT_MS = 1000;
const LOCK_RETRY_MS = 25;

/**
 * Applies the updates together: all of them, or (when a ref moved or stays locked) none.
 * Returns false, changing nothing, when the repository keeps one of these refs in a way this does not
 * write (packed into packed-refs, or a reftable): then git should be asked.
 */
export async function updateLooseRefs(gitDir: string, updates: readonly RefUpdate[]): Promise<boolean> {
  if (fs.existsSync(path.join(gitDir, 'reftable')) || updates.some((update) => isPacked(gitDir, update.name))) return false;
  const held: string[] = [];
  try {
    for (const update of updates) held.push(await lock(path.join(gitDir, ...update.name.split('/'))));
    for (const update of updates) {
      if (update.expected === undefined) continue;
      const current = readLooseRef(gitDir, update.name);
      if (current !== update.expected) {
        throw new RefConflict(`${update.name} is at ${current ?? 'nothing'} but was expected at ${update.expected ?? 'nothing'}.`);
      }
    }
    updates.forEach((update, index) => fs.writeFileSync(held[index]!, `${update.commit}\n`));
    // From here the refs move one by one, as git's own loose refs do.
    for (const [index, update] of updates.entries()) {
      fs.renameSync(held[index]!, path.join(gitDir, ...update.name.split('/')));
    }
    held.length = 0;
    return true;
  } finally {
    for (const lockFile of held) fs.rmSync(lockFile, { force: true });
  }
}

/** The commit a loose ref file holds, or null when there is none. */
function readLooseRef(gitDir: string, name: string): string | null {
  try {
    return fs.readFileSync(path.join(gitDir, ...name.split('/')), 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function isPacked(gitDir: string, name: string): boolean {
  try {
    return fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8').includes(` ${name}\n`);
  } catch {
    return false;
  }
}

/** Creates `<refFile>.lock`, waiting a short while for another process's lock to go, as git does. */
async function lock(refFile: string): Promise<string> {
  const lockFile = `${refFile}.lock`;
  fs.mkdirSync(path.dirname(refFile), { recursive: true });
  for (let waited = 0; ; waited += LOCK_RETRY_MS) {
    try {
      fs.closeSync(fs.openSync(lockFile, 'wx'));
      return lockFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (waited >= LOCK_WAIT_MS) {
        throw new RefConflict(`${lockFile} is held by another process; if none is running, remove the stale lock file.`);
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
}

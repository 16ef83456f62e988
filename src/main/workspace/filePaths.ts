import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a path leads, and whether it is inside a folder: the one place these are decided, for the path
 * guard (paths.ts), the permission engine, the shell analysis, the fence, instruction files, the
 * repositories a command leaves, and the static files `tether serve` sends.
 */

/** Linux gives up after 40 links in one lookup; so do we, instead of looping forever. */
export const MAX_SYMLINK_HOPS = 40;

/** A path whose symbolic links lead round in a loop (or through more than MAX_SYMLINK_HOPS): it leads nowhere. */
export class SymlinkLoopError extends Error {
  override readonly name = 'SymlinkLoopError';
  constructor(
    readonly given: string,
    /** The link where the lookup gave up. */
    readonly at: string,
  ) {
    super(`${given} goes through too many symbolic links (a loop?) at ${at}`);
  }
}

/**
 * Whether `target` is `folder` or inside it. Both are absolute; neither needs to exist. A name that
 * only starts with two dots (`..cache`) is inside; `..` itself, or `../x`, is not.
 */
export function isInside(target: string, folder: string): boolean {
  const relative = path.relative(folder, target);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/**
 * Where an absolute path leads when the kernel opens it: name by name from the root, each symbolic
 * link followed where it stands, so a `..` after a link climbs from where the link points
 * (`link/../x`, with link pointing elsewhere, is x beside the link's target), a relative link counts
 * from its own folder, and a dangling link is followed to the missing place it names (a file created
 * through it lands there). Once a name is missing the rest is appended as written. Throws
 * SymlinkLoopError when the links loop.
 */
export function physicalPath(absolute: string): string {
  try {
    // What exists entirely is the kernel's own answer, at once.
    return fs.realpathSync.native(absolute);
  } catch {
    // Some name is missing, dangling, looping or unreadable: walk it name by name below.
  }
  const pending = absolute.split('/').reverse();
  let current: string = path.sep;
  let hops = 0;
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(next);
    } catch {
      // Missing (or unreadable): nothing further can be followed; the rest is where it would be.
      return path.join(next, ...pending.reverse());
    }
    if (!stat.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) throw new SymlinkLoopError(absolute, next);
    const target = fs.readlinkSync(next);
    if (path.isAbsolute(target)) current = path.sep;
    pending.push(...target.split('/').reverse());
  }
  return current;
}

/**
 * Where a path leads once its `..` are folded as written (`path.resolve`), each symbolic link along
 * it then followed, dangling ones included: how the file tools' paths are resolved (paths.ts opens
 * exactly this), and where a path with no `..` leads for the kernel too. Throws SymlinkLoopError.
 */
export function canonicalPath(absolute: string): string {
  return physicalPath(path.resolve(absolute));
}

/** The real path of an existing folder, or what is wrong: nothing there, or not a folder. */
export function realFolder(folder: string): { path: string } | { problem: 'missing' | 'not-a-folder' } {
  let real: string;
  try {
    real = fs.realpathSync.native(path.resolve(folder));
  } catch {
    return { problem: 'missing' };
  }
  return fs.statSync(real).isDirectory() ? { path: real } : { problem: 'not-a-folder' };
}

/** Whether anything is at `target` itself (a dangling link counts): lstat, never following it. */
export function pathExists(target: string): boolean {
  try {
    fs.lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

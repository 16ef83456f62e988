import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isInside, pathExists } from '../workspace/filePaths';
import { unusualEntries, type UnusualWalk } from './unusualEntries';

/**
 * Protected paths that do not exist yet (`.tether`, the names git reads in `.git` that are not there:
 * `hooks`, `config.worktree`, `modules`, `commondir`), kept from commands without a placeholder. The
 * sandbox runtime covers such a path with an empty read-only file that bubblewrap makes on the host,
 * and commands see it (`git status` lists `?? .tether`, `git add -A` and `git stash -u` fail on it);
 * an existing protected path is still bound read-only, which leaves no trace.
 *
 * Instead, while a command runs, the folder above each missing path is watched (inotify), and a path
 * that appears is moved out of the workspace at once, into Tether's data folder, where nothing runs
 * it; after the command every path is checked once more (a watch can overflow). The command is done
 * by then: bubblewrap's PID namespace ends every process it started with it. The move keeps what was
 * written (the result names where it went); it is not deleted.
 *
 * What this costs: for the moment between a command making such a path and the watch moving it, the
 * path exists in the workspace, where the person's own git or a new session could read it; and a path
 * the person makes themselves while a command runs (a submodule added by hand in `.git/modules`) is
 * moved as well, since nothing tells who made it. Both are said in the README.
 */

export interface ProtectedPath {
  path: string;
  /** Why it is protected, for the fence hit: "git's machinery", "Tether's project settings". */
  why: string;
}

/** A protected path a command made, and where it went. */
export interface MovedPath extends ProtectedPath {
  /** Where it is now, in Tether's data folder; undefined when it could not be moved (then it was deleted). */
  movedTo?: string;
  /** Set when it could be neither moved nor deleted: it is still there. */
  problem?: string;
}

/**
 * A folder where a command may make only some names: a git directory, where git reads more names
 * than any list of the dangerous ones holds. A name it made that `keeps` refuses is moved out when the
 * command ends, like a protected path; one that was there before the command is bound read-only already.
 */
export interface GuardedFolder {
  folder: string;
  keeps: (name: string) => boolean;
  /** Why a name made there is moved, for the fence hit. */
  why: string;
  /**
   * Where a command may leave no symbolic link, FIFO, socket or device (unusualEntries.ts): one made
   * while it ran, at the top or in a folder `walks` allows, is moved out when it ends. A program that
   * writes its own files there in place writes through a link on the person's next action.
   */
  unusual?: UnusualWalk;
}

export interface AbsentPathWatch {
  /** Stops watching after a last look, and says what was moved while the command ran. */
  close(): MovedPath[];
}

/**
 * Watches the missing paths among `paths` while a command runs; what appears is moved into
 * `quarantine`. When it ends, a name made in a guarded folder that the folder does not keep is
 * moved as well.
 */
export function watchAbsentPaths(
  paths: readonly ProtectedPath[],
  quarantine: string,
  guarded: readonly GuardedFolder[] = [],
): AbsentPathWatch {
  const absent = paths.filter((entry) => !pathExists(entry.path));
  const before = guarded.map((entry) => new Set(namesIn(entry.folder)));
  // What was made while the command ran is known by its change time, which nothing can set back
  // (a rename sets it too): no walk before the command.
  const began = Date.now() - CLOCK_SLACK_MS;
  const moved: MovedPath[] = [];
  const watchers = new Map<string, fs.FSWatcher>();
  const look = (): void => {
    for (const entry of absent) {
      if (pathExists(entry.path)) moved.push(moveAside(entry, quarantine));
      else watch(deepestExisting(entry.path));
    }
  };
  const watch = (folder: string | undefined): void => {
    if (!folder || watchers.has(folder)) return;
    try {
      const watcher = fs.watch(folder, { persistent: false }, () => look());
      // A folder that goes away (the workspace, under a test) ends its watch; the last look still runs.
      watcher.on('error', () => watchers.delete(folder));
      watchers.set(folder, watcher);
    } catch {
      // Cannot be watched (gone already): the look after the command still covers it.
    }
  };
  look();
  return {
    close() {
      look();
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      guarded.forEach(({ folder, keeps, why, unusual }, index) => {
        const made = new Map<string, string>();
        for (const name of namesIn(folder)) if (!before[index]!.has(name) && !keeps(name)) made.set(name, why);
        if (unusual)
          for (const name of unusualEntries(folder, unusual))
            if (!made.has(name) && changedSince(path.join(folder, name), began)) made.set(name, unusual.why);
        for (const [name, reason] of made) moved.push(moveAside({ path: path.join(folder, name), why: reason }, quarantine));
      });
      return moved.splice(0);
    },
  };
}

/** Moves a path a command made out of the workspace, into a folder of its own under `quarantine`. */
export function moveAside(entry: ProtectedPath, quarantine: string): MovedPath {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = path.join(quarantine, `${stamp}-${randomBytes(3).toString('hex')}`, entry.path.replace(/^\/+/, '').replace(/\//g, '__'));
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    try {
      fs.renameSync(entry.path, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // The data folder is on another disk: copy, links as they are, then remove.
      fs.cpSync(entry.path, target, { recursive: true, verbatimSymlinks: true });
      fs.rmSync(entry.path, { recursive: true, force: true });
    }
    return { ...entry, movedTo: target };
  } catch (error) {
    const why = (error as Error).message;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !pathExists(entry.path))
      return { ...entry, problem: 'it was gone before it could be moved' };
    try {
      fs.rmSync(entry.path, { recursive: true, force: true });
      return { ...entry, problem: `it could not be moved (${why}), so it was deleted` };
    } catch (removal) {
      return { ...entry, problem: `it could be neither moved (${why}) nor deleted (${(removal as Error).message}); remove it yourself` };
    }
  }
}

/** The quarantine folder in Tether's data folder. */
export function quarantineDir(dataDir: string): string {
  return path.join(dataDir, 'sandbox', 'quarantine');
}

/** One line for the fence hit: what was made, and what became of it. */
export function describeMoved(entry: MovedPath, workspace: string): string {
  const shown = isInside(entry.path, workspace) ? path.relative(workspace, entry.path) || '.' : entry.path;
  const fate = entry.movedTo
    ? `Tether moved what the command made there out of the workspace, to ${entry.movedTo}`
    : `Tether could not keep what the command made there: ${entry.problem ?? 'unknown'}`;
  return `the write fence: ${shown} is protected from commands (${entry.why}); ${fate}`;
}

function deepestExisting(target: string): string | undefined {
  for (let folder = path.dirname(target); ; folder = path.dirname(folder)) {
    if (pathExists(folder)) return folder;
    if (path.dirname(folder) === folder) return undefined;
  }
}

/** File times tick coarsely (a few ms): an entry changed this long before the command began counts as changed by it. */
const CLOCK_SLACK_MS = 50;

function changedSince(target: string, since: number): boolean {
  const changed = fs.lstatSync(target, { throwIfNoEntry: false })?.ctimeMs;
  return changed !== undefined && changed >= since;
}

function namesIn(folder: string): string[] {
  try {
    return fs.readdirSync(folder);
  } catch {
    return [];
  }
}

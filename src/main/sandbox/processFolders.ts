import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Folders one Tether process keeps in the data folder while it runs (each profile's execute-only
 * supervisor, each profile's derived ~/.gitconfig, a project server's private /tmp) live under a
 * folder named after that process: `process-<pid>-<start>-<host>`. The process removes what it made
 * when it is done with it, but a crash, a kill or a power cut leaves it behind; any later process
 * can then tell the folder's owner is gone and remove it (pruneProcessFolders), while a second
 * Tether process running at the same time never loses a folder it is using.
 *
 * The owner is gone when its pid is free, or (on Linux) taken by a process that started at another
 * moment: a reused pid. A folder made on another machine (a data folder on a shared home) is never
 * judged: that machine's processes cannot be seen from here. Whenever liveness cannot be told, the
 * folder is kept: a leftover costs a little disk; a folder removed under a live process fails its
 * commands.
 */

/** The prefix that tells a process's folder from the other entries of the same parent. */
const PREFIX = 'process-';
const OWNED = /^process-(\d+)-(\d*)-([0-9a-f]{8})$/;

/**
 * Folders from before owners were named (`sandbox/supervisor/<uuid>`): no owner can be asked, so they
 * go once nothing touched them for this long. A Tether of an older version still running beside
 * this one would hold its folders no longer than its profile stays current, far less than this.
 */
export const UNOWNED_LEFTOVER_DAYS = 7;

/** A process as a folder names it. */
export interface ProcessIdentity {
  pid: number;
  /** When it started, in clock ticks since boot (/proc/<pid>/stat); '' where that cannot be read. */
  start: string;
  /** A short hash of the machine's name. */
  host: string;
}

/** This process's folder under `parent` (not made: whoever writes into it makes it). */
export function processFolder(parent: string): string {
  return path.join(parent, processFolderName(thisProcess()));
}

export function processFolderName(owner: ProcessIdentity): string {
  return `${PREFIX}${owner.pid}-${owner.start}-${owner.host}`;
}

/** Whether an entry's name is a process's folder (anything else in the parent is someone else's business). */
export function isProcessFolderName(name: string): boolean {
  return OWNED.test(name);
}

let own: ProcessIdentity | undefined;

function thisProcess(): ProcessIdentity {
  own ??= { pid: process.pid, start: startOf(process.pid) ?? '', host: hostTag() };
  return own;
}

/**
 * This machine: its name and, where there is one, its machine id. Two machines of one name sharing a
 * home folder (many are called `ubuntu`) would otherwise judge, and remove, each other's live folders.
 */
function hostTag(): string {
  return createHash('sha256').update(`${os.hostname()}\n${machineId()}`).digest('hex').slice(0, 8);
}

function machineId(): string {
  for (const file of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      return fs.readFileSync(file, 'utf8').trim();
    } catch {
      // Not on this system: the next, or the name alone.
    }
  }
  return '';
}

/** Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces and parentheses). */
function startOf(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that named a folder may still be running: true whenever that cannot be told. */
function ownerMayRun(name: string): boolean {
  const match = OWNED.exec(name);
  if (!match) return true;
  const [, pidText, start, host] = match;
  const me = thisProcess();
  if (host !== me.host) return true;
  const pid = Number(pidText);
  if (pid === me.pid) return start === me.start || !me.start;
  if (start && me.start) {
    const running = startOf(pid);
    // Unreadable but there: not ours to judge.
    return running === undefined ? fs.existsSync(`/proc/${pid}`) : running === start;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

interface PruneOptions {
  /**
   * Whether the parent's other entries are folders from before owners were named, removed once
   * nothing touched them for UNOWNED_LEFTOVER_DAYS; false where they are someone else's (sessions' /tmp).
   */
  unownedAreLeftovers: boolean;
  now?: number;
}

/** Removes, under `parent`, the folders of processes that are gone (and old unowned leftovers); returns the names removed. */
export function pruneProcessFolders(parent: string, options: PruneOptions): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(parent);
  } catch {
    return [];
  }
  const oldest = (options.now ?? Date.now()) - UNOWNED_LEFTOVER_DAYS * 24 * 60 * 60 * 1000;
  const removed: string[] = [];
  for (const name of entries) {
    const entry = path.join(parent, name);
    const stale = isProcessFolderName(name) ? !ownerMayRun(name) : options.unownedAreLeftovers && modifiedBefore(entry, oldest);
    if (!stale) continue;
    try {
      fs.rmSync(entry, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Another process removing the same leftover at the same moment, or not ours to remove: left as it is.
    }
  }
  return removed;
}

function modifiedBefore(entry: string, time: number): boolean {
  try {
    return fs.lstatSync(entry).mtimeMs < time;
  } catch {
    return false;
  }
}

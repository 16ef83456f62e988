import fs from 'node:fs';
import path from 'node:path';

/**
 * The entries of a folder, at any depth, that are neither files nor folders: symbolic links, FIFOs,
 * sockets and devices. In a git folder git makes none of them, and each is a way out: git writes
 * some of its files in place, through a link (a reflog line appended to whatever `logs/HEAD` points
 * at, a loose object written into the folder `objects/17` points at), `gc` prunes through one, and a
 * FIFO named `FETCH_HEAD` holds the person's next `git fetch` for ever.
 *
 * Looked for before and after every command, so the walk is kept cheap: a folder's listing is kept
 * with its change time and reused while that is unchanged, so between commands that leave a
 * repository alone it costs a stat per folder. A listing taken within RACY_MS of the folder's last
 * change is not trusted (file times tick coarsely, so a change in the same tick would not show; git
 * itself calls this "racy") and is taken again the next time.
 */

export interface UnusualWalk {
  /** Which entries at the top are walked into (the rest is bound read-only, or not the walk's business). */
  walks: (name: string) => boolean;
  /** Which entries at the top may be unusual (a `HEAD` git once made a link). */
  mayBe: (name: string) => boolean;
  /** Why one made there is moved, for the fence hit. */
  why: string;
}

/** The unusual entries under `folder`, relative to it; a folder that is itself a link is never entered. */
export function unusualEntries(folder: string, walk: UnusualWalk): string[] {
  const found: string[] = [];
  let top: fs.Dirent[];
  try {
    top = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of top) {
    if (isUnusual(entry)) {
      if (!walk.mayBe(entry.name)) found.push(entry.name);
    } else if (entry.isDirectory() && walk.walks(entry.name)) {
      below(path.join(folder, entry.name), entry.name, found);
    }
  }
  return found;
}

const RACY_MS = 2000;

interface Listing {
  /** The folder's inode and change time when listed. */
  key: string;
  listedAt: number;
  unusual: string[];
  folders: string[];
}

const listings = new Map<string, Listing>();

function below(absolute: string, relative: string, found: string[]): void {
  const listing = listingOf(absolute);
  if (!listing) return;
  for (const name of listing.unusual) found.push(path.join(relative, name));
  for (const name of listing.folders) below(path.join(absolute, name), path.join(relative, name), found);
}

function listingOf(absolute: string): Listing | undefined {
  let stat: fs.BigIntStats | undefined;
  try {
    stat = fs.lstatSync(absolute, { bigint: true });
  } catch {
    stat = undefined;
  }
  if (!stat?.isDirectory()) {
    listings.delete(absolute);
    return undefined;
  }
  const key = `${stat.dev}:${stat.ino}:${stat.mtimeNs}:${stat.ctimeNs}`;
  const kept = listings.get(absolute);
  if (kept && kept.key === key && kept.listedAt - Number(stat.ctimeMs) > RACY_MS) return kept;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(absolute, { withFileTypes: true });
  } catch {
    listings.delete(absolute);
    return undefined;
  }
  const listing: Listing = {
    key,
    listedAt: Date.now(),
    unusual: entries.filter(isUnusual).map((entry) => entry.name),
    folders: entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
  };
  listings.set(absolute, listing);
  return listing;
}

function isUnusual(entry: fs.Dirent): boolean {
  return entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice();
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FolderMatches } from '../../../shared/contract';

const DEFAULT_LIMIT = 50;
/** Entries read from one folder at most: a folder of a million files answers from its first ones. */
const MAX_SCANNED = 20_000;

/**
 * The folders that complete what the person typed in "Open a folder…": the folder up to the last
 * slash is read, and its sub-folders whose names start with the rest are offered (case-insensitive),
 * as they would be typed, each ending in a slash. `~` stands for the home folder. Hidden folders
 * show only when the typed name starts with a dot. Links to folders count as folders; broken links,
 * link loops and files never show. A relative path, `~user`, or a folder that cannot be read gives
 * nothing. Only names are read, never contents.
 */
export async function completeFolders(
  typed: string,
  options: { home?: string; limit?: number; maxScanned?: number } = {},
): Promise<FolderMatches> {
  const home = options.home ?? os.homedir();
  const limit = options.limit ?? DEFAULT_LIMIT;
  const none: FolderMatches = { folders: [], truncated: false };
  if (typed.includes('\0')) return none;
  const written = typed === '~' ? '~/' : typed;
  if (!written.startsWith('~/') && !path.isAbsolute(written)) return none;
  // What is typed up to the last slash is the folder to read; the rest is the start of a name.
  const cut = written.lastIndexOf('/') + 1;
  const shownParent = written.slice(0, cut);
  const prefix = written.slice(cut).toLowerCase();
  const parent = shownParent.startsWith('~/') ? path.join(home, shownParent.slice(2)) : path.resolve(shownParent);

  let folder: Awaited<ReturnType<typeof fs.opendir>>;
  try {
    folder = await fs.opendir(parent);
  } catch {
    return none;
  }
  const names: string[] = [];
  let scanned = 0;
  let truncated = false;
  try {
    for await (const entry of folder) {
      if (++scanned > (options.maxScanned ?? MAX_SCANNED)) {
        truncated = true;
        break;
      }
      const name = entry.name;
      if (name.startsWith('.') && !prefix.startsWith('.')) continue;
      if (!name.toLowerCase().startsWith(prefix)) continue;
      if (entry.isDirectory() || (entry.isSymbolicLink() && (await isFolder(path.join(parent, name))))) names.push(name);
    }
  } finally {
    // Leaving the loop early closes the handle; closing it again after a full read is refused, which is fine.
    await folder.close().catch(() => undefined);
  }
  names.sort((a, b) => a.localeCompare(b));
  if (names.length > limit) truncated = true;
  return { folders: names.slice(0, limit).map((name) => `${shownParent}${name}/`), truncated };
}

/** Whether a link leads to a folder; a broken link or a loop (ELOOP) does not. */
async function isFolder(absolute: string): Promise<boolean> {
  try {
    return (await fs.stat(absolute)).isDirectory();
  } catch {
    return false;
  }
}

import fs from 'node:fs';
import path from 'node:path';

/**
 * Removes the folders in `parent` that a process made for itself and did not remove because it was
 * killed (its exit handler never ran): `named` matches such a folder's name and captures the pid of
 * the process that made it. Folders of this process, or of one still running, stay.
 */
export function removeOrphanedFolders(parent: string, named: RegExp): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(named.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

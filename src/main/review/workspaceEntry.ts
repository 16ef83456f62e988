import fs from 'node:fs';

/** What stands at a path in the workspace, as a revert (or its undoing) finds and leaves it. */
export type WorkspaceEntry =
  { kind: 'missing' } | { kind: 'file'; bytes: Buffer; mode: number } | { kind: 'symlink'; target: string } | { kind: 'other' };

/** The entry at `absolute`, never following a symbolic link. */
export function readEntry(absolute: string): WorkspaceEntry {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(absolute);
  } catch {
    return { kind: 'missing' };
  }
  if (stat.isSymbolicLink()) return { kind: 'symlink', target: fs.readlinkSync(absolute) };
  if (stat.isFile()) return { kind: 'file', bytes: fs.readFileSync(absolute), mode: stat.mode };
  return { kind: 'other' };
}

/** Whether two entries hold the same thing: kind, bytes and permission bits, or link target. */
export function sameEntry(a: WorkspaceEntry, b: WorkspaceEntry): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.bytes.equals(b.bytes) && (a.mode & 0o7777) === (b.mode & 0o7777);
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target;
  return a.kind === b.kind && a.kind !== 'other';
}

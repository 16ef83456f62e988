import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RequestError } from '../../shared/requestError';
import { insideWorkspace, type Reverted } from './revertFile';
import { readEntry, sameEntry, type WorkspaceEntry } from './workspaceEntry';

/** What an undone revert put back, for the log (the model is told) and the person. */
export interface RevertUndone {
  path: string;
  hunks: Reverted['hunks'];
  note: string;
}

interface Remembered extends Reverted {
  id: string;
}

/**
 * The way back from a session's latest revert: the file's bytes (and mode, or link) as the revert
 * found them, kept in memory. Only the latest revert of each session can be undone, and only while
 * the file is still exactly as the revert left it, so an undo never overwrites anything written
 * since (by the agent, a command or the person). Lost when Tether restarts: the file is then as the
 * revert left it, which is what the log says.
 */
export class RevertUndos {
  private readonly latest = new Map<string, Remembered>();

  /** Keeps the way back from `reverted`, replacing the session's previous one; returns its id. */
  remember(sessionId: string, reverted: Reverted): string {
    const id = randomUUID();
    this.latest.set(sessionId, { ...reverted, id });
    return id;
  }

  /** Puts the file back as the revert `undoId` found it, or says clearly why it cannot. */
  undo(sessionId: string, undoId: string): RevertUndone {
    const remembered = this.latest.get(sessionId);
    if (!remembered || remembered.id !== undoId) {
      throw new RequestError(
        'not_found',
        'That revert can no longer be undone: only a session’s latest revert can be, until Tether restarts. The diff shows the files as they are.',
      );
    }
    const { path: relative, undo } = remembered;
    insideWorkspace(undo.workspace, relative, relative);
    if (!sameEntry(readEntry(undo.absolute), undo.after)) {
      this.latest.delete(sessionId);
      throw new RequestError(
        'conflict',
        `${relative} changed after it was reverted, so the revert was not undone: undoing it would overwrite that change. The diff shows the file as it is now.`,
      );
    }
    restore(undo.absolute, undo.before);
    this.latest.delete(sessionId);
    return { path: relative, hunks: remembered.hunks, note: remembered.note };
  }

  /** Forgets the session's way back (the session is deleted). */
  forget(sessionId: string): void {
    this.latest.delete(sessionId);
  }
}

/** Makes `absolute` hold `entry` exactly: bytes and permission bits, a link, or nothing. */
function restore(absolute: string, entry: WorkspaceEntry): void {
  const now = readEntry(absolute);
  if (entry.kind === 'other')
    throw new RequestError('conflict', `${absolute} was not a regular file before the revert; it was left as it is.`);
  // A link is replaced, never written through; a file that the revert created is removed.
  if (now.kind === 'symlink' || (now.kind === 'file' && entry.kind !== 'file')) fs.unlinkSync(absolute);
  if (entry.kind === 'missing') return;
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  if (entry.kind === 'symlink') {
    fs.symlinkSync(entry.target, absolute);
    return;
  }
  fs.writeFileSync(absolute, entry.bytes);
  fs.chmodSync(absolute, entry.mode & 0o7777);
}

import fs from 'node:fs';
import { applyPatch, structuredPatch } from 'diff';
import type { WorktreeMoved } from '../../../shared/contract';
import type { EventOf } from '../../../shared/events';
import type { OwnEntry, OwnFileChange } from '../../review/ownChanges';
import { insideWorkspace, revertTo } from '../../review/revertFile';
import type { SessionWorktrees } from './sessionWorktrees';
import { readEntry, type WorkspaceEntry } from '../../review/workspaceEntry';
import type { Store } from '../../store/store';
import { RequestError } from '../../../shared/requestError';
import type { SessionDiffs } from './sessionDiffs';
import type { SessionShadowRepos } from '../../checkpoints/sessionShadowRepos';

export interface SessionMoveDeps {
  store: Store;
  diffs: SessionDiffs;
  worktrees: SessionWorktrees;
  shadowRepos: SessionShadowRepos;
  /** Appends the move to the session's log and tells the UI. */
  record(sessionId: string, event: EventOf<'worktree.created'>): void;
}

/**
 * Moves a session that works in a shared folder into a git worktree of its own (a new branch from
 * the repository's HEAD), as new worktree sessions have: its own changes that still stand (what its
 * live diff lists) are carried into the worktree and taken out of the folder, where everyone else's
 * work stays as it is. From then on it works, and its diff and checkpoints live, in the worktree.
 *
 * Nothing is changed when a change cannot be carried (the worktree's file, from the last commit,
 * differs where the session changed it) or when a file changed since the diff was worked out: the
 * worktree is removed again and the refusal names the files.
 */
export async function moveToWorktree(deps: SessionMoveDeps, sessionId: string): Promise<WorktreeMoved> {
  const session = deps.store.sessions.get(sessionId);
  if (!session) throw new RequestError('not_found', `There is no session ${sessionId}; it may have been deleted.`);
  if (!session.projectId)
    throw new RequestError('invalid_input', 'This session belongs to no project, so it has no repository to make a worktree in.');
  const from = session.workspace;
  const { changes } = await deps.diffs.standing(sessionId);
  const changedSince = changes.filter((change) => !matches(readEntry(insideWorkspace(from, change.path, change.path)), change.current));
  if (changedSince.length > 0) {
    throw new RequestError(
      'conflict',
      `${list(changedSince.map((change) => change.path))} changed since this session's changes were worked out; nothing was moved. Try again.`,
    );
  }

  const made = await deps.worktrees.makeFor(sessionId, session.projectId, from);
  let moved: { before: string; after: string };
  try {
    const repo = await deps.shadowRepos.forFolder(session.projectId, made.workspace);
    const before = (await repo.snapshot(`session ${sessionId} moved here: before its changes`)).commit;
    const refused = changes.filter((change) => !carry(made.workspace, change));
    if (refused.length > 0) {
      throw new RequestError(
        'conflict',
        `This session's changes to ${list(refused.map((change) => change.path))} cannot be carried into a worktree made from the last commit (${made.event.baseCommit.slice(0, 8)}): the committed file differs where the session changed it. Nothing was moved; commit or undo the other changes to those files first, or keep working here.`,
      );
    }
    moved = { before, after: (await repo.snapshot(`session ${sessionId} moved here: its changes`)).commit };
    await repo.ref(`sessions/${sessionId}/base`, before);
  } catch (error) {
    await deps.worktrees.abandon(made.event).catch(() => undefined);
    throw error;
  }

  // Out of the shared folder: only the session's own lines, as a revert takes them out.
  const leftBehind: string[] = [];
  for (const change of changes) {
    try {
      revertTo(from, change.path, treeEntry(change.origin), { kind: 'file' }, treeEntry(change.current));
    } catch {
      leftBehind.push(change.path);
    }
  }
  deps.record(sessionId, { ...made.event, moved: { from, workspace: made.workspace, ...moved } });
  return { branch: made.event.branch, path: made.event.path, carried: changes.map((change) => change.path), leftBehind };
}

/** Writes the session's change to `change.path` into the worktree; false when the worktree's file does not take it. */
function carry(workspace: string, change: OwnFileChange): boolean {
  const absolute = insideWorkspace(workspace, change.path, change.path);
  const there = readEntry(absolute);
  if (matches(there, change.origin)) {
    if (!matches(there, change.current))
      revertTo(workspace, change.path, treeEntry(change.current), { kind: 'file' }, treeEntry(change.origin));
    return true;
  }
  // The committed file differs from what the session found (others' uncommitted work): put the session's hunks on it.
  if (!change.text || there.kind !== 'file' || change.current === null) return false;
  const text = exactText(there.bytes);
  if (text === null) return false;
  const merged = applyPatch(text, structuredPatch(change.path, change.path, change.text.origin, change.text.current));
  if (merged === false) return false;
  fs.writeFileSync(absolute, merged);
  return true;
}

function matches(entry: WorkspaceEntry, own: OwnEntry | null): boolean {
  if (own === null) return entry.kind === 'missing';
  if (own.mode === '120000') return entry.kind === 'symlink' && entry.target === own.bytes.toString('utf8');
  return entry.kind === 'file' && entry.bytes.equals(own.bytes) && ((entry.mode & 0o111) !== 0) === (own.mode === '100755');
}

function treeEntry(entry: OwnEntry | null): { mode: string; bytes: Buffer } | null {
  return entry ? { mode: entry.mode, bytes: entry.bytes } : null;
}

function exactText(bytes: Buffer): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return Buffer.from(text, 'utf8').equals(bytes) ? text : null;
  } catch {
    return null;
  }
}

function list(paths: string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}

import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AppState } from '../../stores/appState';
import { isActive } from '../../stores/selectors';
import { useApp } from '../../stores/useApp';

/** Other sessions working (or waiting for the person) in this session's folder, by title. Use with useShallow. */
export function liveSessionsSharingFolder(state: AppState, sessionId: string): string[] {
  const session = state.sessions[sessionId];
  if (!session) return [];
  return Object.values(state.sessions)
    .filter((other) => other.id !== sessionId && other.workspace === session.workspace && isActive(other.status))
    .map((other) => other.title || 'untitled');
}

/**
 * Says when another live session works in the same folder (no worktree between them): its changes
 * are in the files but not in this list, which shows only this session's own. Offers to move this
 * session into a git worktree of its own, asking once more, inline, before it acts.
 */
export function SharedFolderNotice({ sessionId, busy }: { sessionId: string; busy: string | null }) {
  const others = useApp(useShallow((state) => liveSessionsSharingFolder(state, sessionId)));
  const changed = useApp((state) => state.diffs[sessionId]?.files.length ?? 0);
  const pending = useApp((state) => state.reviewPending[sessionId] ?? null);
  const moveToWorktree = useApp((state) => state.moveToWorktree);
  const [confirming, setConfirming] = useState(false);
  if (others.length === 0) return null;

  const named = others.map((title) => `“${title}”`).join(', ');
  const who = others.length === 1 ? `Another session (${named}) is` : `${others.length} other sessions (${named}) are`;
  const blocked = busy !== null ? 'The agent is working: stop it or let it finish, then move it.' : null;
  return (
    <div className="shared-folder" role="note" data-testid="shared-folder">
      <div className="shared-folder-line">
        <span className="shared-folder-text" data-testid="shared-folder-text">
          {who} working in this folder; {others.length === 1 ? 'its' : 'their'} changes are not shown here.
        </span>
        <button
          type="button"
          data-testid="move-to-worktree"
          aria-pressed={confirming}
          disabled={blocked !== null || pending !== null}
          title={blocked ?? 'Work in a git worktree and branch of its own, so the sessions stop sharing files'}
          onClick={() => setConfirming(!confirming)}
        >
          Move this session to a worktree
        </button>
      </div>
      {confirming && (
        <div
          className="shared-folder-confirm"
          data-testid="move-to-worktree-confirm"
          onKeyDown={(event) => event.key === 'Escape' && setConfirming(false)}
        >
          <span>
            A new worktree and branch from the last commit.{' '}
            {changed === 0
              ? 'This session has no changes to carry'
              : `This session’s changes (${changed === 1 ? '1 file' : `${changed} files`}) go with it and leave this folder`}
            ; the other {others.length === 1 ? 'session’s' : 'sessions’'} changes stay.
          </span>
          <button
            type="button"
            className="primary"
            data-testid="move-to-worktree-button"
            autoFocus
            onClick={() => {
              setConfirming(false);
              void moveToWorktree(sessionId);
            }}
          >
            Move
          </button>
          <button type="button" className="ghost" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}

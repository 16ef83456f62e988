import { useState, type FormEvent } from 'react';
import type { WorktreeFinish } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';

type Action = WorktreeFinish['action'];

const verbs: Record<Action, string> = { merge: 'Merge', squash: 'Squash', discard: 'Discard' };
const done: Record<Action, string> = { merge: 'merged', squash: 'squashed', discard: 'discarded' };

/**
 * A worktree session's branch and how it ends: merged or squashed into the repository's current
 * branch, or discarded. Each asks once more, inline, before it acts.
 */
export function WorktreeBar({ sessionId, busy }: { sessionId: string; busy: string | null }) {
  const worktree = useApp((state) => state.logs[sessionId]?.state.worktree);
  const title = useApp((state) => state.sessions[sessionId]?.title ?? '');
  const pending = useApp((state) => state.reviewPending[sessionId] ?? null);
  const finishWorktree = useApp((state) => state.finishWorktree);
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [message, setMessage] = useState('');

  if (!worktree) return null;
  const short = worktree.baseCommit.slice(0, 8);

  if (worktree.finished) {
    const commit = worktree.finished.commit ? ` as ${worktree.finished.commit.slice(0, 10)}` : '';
    return (
      <div className="worktree-bar finished" data-testid="worktree-bar" data-state={worktree.finished.action}>
        <span className="worktree-branch mono">{worktree.branch}</span>
        <span className="faint">
          {done[worktree.finished.action]}
          {commit}; worktree removed
        </span>
      </div>
    );
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!confirming) return;
    const action = confirming;
    setConfirming(null);
    void finishWorktree(sessionId, action, action === 'discard' ? undefined : message.trim() || undefined);
  }

  const disabled = busy !== null || pending !== null;
  return (
    <div className="worktree-bar" data-testid="worktree-bar" data-state="open">
      <div className="worktree-line">
        <span className="worktree-icon" aria-hidden="true">
          ⎇
        </span>
        <span className="worktree-branch mono" title={worktree.path}>
          {worktree.branch}
        </span>
        <span className="faint worktree-base" title={`Made from ${worktree.baseCommit} in ${worktree.repo}`}>
          worktree from {short}
        </span>
        <span className="spacer" />
        {(['merge', 'squash', 'discard'] as const).map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'discard' ? 'danger' : undefined}
            data-testid={`worktree-${action}`}
            aria-pressed={confirming === action}
            disabled={disabled}
            title={busy ?? undefined}
            onClick={() => setConfirming(confirming === action ? null : action)}
          >
            {verbs[action]}
          </button>
        ))}
      </div>
      {confirming && (
        <form
          className="worktree-confirm"
          data-testid="worktree-confirm"
          onSubmit={handleSubmit}
          onKeyDown={(event) => event.key === 'Escape' && setConfirming(null)}
        >
          {confirming === 'discard' ? (
            <span>Delete the worktree and branch {worktree.branch}, with everything on it?</span>
          ) : (
            <label className="worktree-message">
              <span>{confirming === 'squash' ? 'One commit on the current branch:' : 'Merge commit message:'}</span>
              <input
                autoFocus
                data-testid="worktree-message"
                value={message}
                placeholder={title}
                onChange={(event) => setMessage(event.target.value)}
              />
            </label>
          )}
          <button
            type="submit"
            className={confirming === 'discard' ? 'danger' : 'primary'}
            data-testid="worktree-confirm-button"
            autoFocus={confirming === 'discard'}
          >
            {verbs[confirming]}
          </button>
          <button type="button" className="ghost" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}

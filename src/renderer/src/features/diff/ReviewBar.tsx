import type { DiffScope } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';

/** The review scope (last turn or whole session) and "Accept all", which moves that scope's base to now. */
export function ReviewBar({ sessionId, count }: { sessionId: string; count: number }) {
  const scope = useApp((state) => state.diffScope[sessionId] ?? 'session');
  const pending = useApp((state) => state.reviewPending[sessionId] ?? null);
  const setDiffScope = useApp((state) => state.setDiffScope);
  const acceptChanges = useApp((state) => state.acceptChanges);
  const choose = (next: DiffScope) => void setDiffScope(sessionId, next);

  return (
    <div className="review-bar">
      <div className="segmented" role="group" aria-label="Review scope">
        <button
          type="button"
          aria-pressed={scope === 'turn'}
          data-testid="diff-scope-turn"
          title="Changes since your last message"
          onClick={() => choose('turn')}
        >
          Last turn
        </button>
        <button
          type="button"
          aria-pressed={scope === 'session'}
          data-testid="diff-scope-session"
          title="Changes since the session started (or was last accepted)"
          onClick={() => choose('session')}
        >
          Session
        </button>
      </div>
      {pending && (
        <span className="faint" role="status">
          {pending}
        </span>
      )}
      <span className="spacer" />
      <button
        type="button"
        data-testid="diff-accept"
        disabled={count === 0 || pending !== null}
        title={
          scope === 'turn'
            ? 'Accept the last turn’s changes: they leave this list'
            : 'Accept every change so far: the list starts again from now'
        }
        onClick={() => void acceptChanges(sessionId)}
      >
        Accept all
      </button>
    </div>
  );
}

import { useApp } from '../../stores/useApp';

/**
 * "Undo" beside the notice of a revert or an accept, while the way back holds: a revert until the
 * next review action or change (main puts the file back only while it is as the revert left it), an
 * accept until the next review action (it wrote nothing, so its undoing writes nothing either).
 */
export function UndoReviewButton({ sessionId, busy }: { sessionId: string; busy: string | null }) {
  const revert = useApp((state) => state.lastRevert[sessionId]);
  const accept = useApp((state) => state.lastAccept[sessionId]);
  const pending = useApp((state) => state.reviewPending[sessionId] ?? null);
  const undoRevert = useApp((state) => state.undoRevert);
  const undoAccept = useApp((state) => state.undoAccept);
  if (revert) {
    return (
      <button
        type="button"
        className="review-undo"
        data-testid="undo-revert"
        disabled={busy !== null || pending !== null}
        title={busy ?? `Put ${revert.path} back as it was before this revert`}
        onClick={() => void undoRevert(sessionId)}
      >
        Undo
      </button>
    );
  }
  if (!accept) return null;
  return (
    <button
      type="button"
      className="review-undo"
      data-testid="undo-accept"
      disabled={pending !== null}
      title={`Put ${accept.note} back in the list of changes`}
      onClick={() => void undoAccept(sessionId)}
    >
      Undo
    </button>
  );
}

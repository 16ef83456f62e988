import { useApp } from '../../stores/useApp';

/** "Undo" beside the notice of a revert, while main still holds the way back (until the next review action or change). */
export function UndoRevertButton({ sessionId, busy }: { sessionId: string; busy: string | null }) {
  const last = useApp((state) => state.lastRevert[sessionId]);
  const pending = useApp((state) => state.reviewPending[sessionId] ?? null);
  const undoRevert = useApp((state) => state.undoRevert);
  if (!last) return null;
  return (
    <button
      type="button"
      className="review-undo"
      data-testid="undo-revert"
      disabled={busy !== null || pending !== null}
      title={busy ?? `Put ${last.path} back as it was before this revert`}
      onClick={() => void undoRevert(sessionId)}
    >
      Undo
    </button>
  );
}

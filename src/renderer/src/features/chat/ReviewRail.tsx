import { plural } from '../../lib/format';
import { useApp } from '../../stores/useApp';
import { IconButton } from '../../ui/IconButton';

/** The folded review column's stand-in: what it holds, and the ways to open it (as a column, or full width). */
export function ReviewRail({ sessionId }: { sessionId: string }) {
  const files = useApp((state) => state.diffs[sessionId]?.files.length ?? 0);
  const steps = useApp((state) => state.logs[sessionId]?.state.plan.length ?? 0);
  const toggleReview = useApp((state) => state.toggleReview);
  const setReviewFullWidth = useApp((state) => state.setReviewFullWidth);
  const label = files > 0 ? `Changes: ${plural(files, 'file')}` : steps > 0 ? `Plan: ${plural(steps, 'step')}` : 'No changes yet';

  return (
    <aside className="pane-rail review-rail" aria-label="Plan and changes (folded)" data-testid="review-rail">
      <IconButton
        icon="panelRight"
        aria-expanded="false"
        data-testid="review-open"
        onClick={() => toggleReview(false)}
        label={`Show the plan and changes (${label})`}
        title="Show the plan and changes"
      >
        <span className="rail-label">{label}</span>
      </IconButton>
      {files > 0 && (
        <IconButton
          icon="expand"
          label="Review the changes full width"
          title="Review the changes full width, in the conversation’s place"
          data-testid="review-rail-full-width"
          onClick={() => setReviewFullWidth(true)}
        />
      )}
    </aside>
  );
}

import type { AppState } from '../../stores/appState';

/**
 * Whether the review column (plan and changes) shows: as the person last left it, or, until they
 * choose, only while the session has something in it, so an empty column never takes the
 * conversation's room.
 */
export function selectReviewShown(state: AppState, sessionId: string): boolean {
  const collapsed = state.layout.reviewCollapsed;
  if (collapsed !== undefined) return !collapsed;
  return reviewCount(state, sessionId) > 0 || Boolean(state.logs[sessionId]?.state.worktree);
}

/** What the column would show: plan steps and changed files. */
export function reviewCount(state: AppState, sessionId: string): number {
  return (state.logs[sessionId]?.state.plan.length ?? 0) + (state.diffs[sessionId]?.files.length ?? 0);
}

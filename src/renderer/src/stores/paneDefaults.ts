import type { AppState } from './appState';

/*
 * Whether a session's side panes show: as the person last left them or, until they choose, only while
 * they have something in them, so an empty pane never takes the conversation's room.
 */

/**
 * The review column (plan and changes): shown once there is a plan, a change or a worktree, and
 * while it says what a review action did (a revert that emptied the list keeps its Undo in view);
 * in a window too narrow for it beside the conversation, only once the person opens it. Full width,
 * it is what the session view shows.
 */
export function selectReviewShown(state: AppState, sessionId: string): boolean {
  if (state.reviewFullWidth) return true;
  const collapsed = state.layout.reviewCollapsed;
  if (collapsed !== undefined) return !collapsed;
  if (!state.roomyWindow) return false;
  return reviewCount(state, sessionId) > 0 || Boolean(state.logs[sessionId]?.state.worktree) || state.reviewNotice[sessionId] !== undefined;
}

/** What the review column would show: plan steps and changed files. */
export function reviewCount(state: AppState, sessionId: string): number {
  return (state.logs[sessionId]?.state.plan.length ?? 0) + (state.diffs[sessionId]?.files.length ?? 0);
}

/** The terminal: open once the session has run a command. */
export function selectTerminalShown(state: AppState, sessionId: string): boolean {
  return state.layout.terminalOpen ?? (state.terminals[sessionId]?.blocks.length ?? 0) > 0;
}

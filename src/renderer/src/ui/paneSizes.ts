/**
 * The bounds panes are sized within, so that no drag, saved size or small window can squeeze a pane
 * out of use: the conversation keeps room to read and type, the diff room to read a hunk.
 */
export const paneBounds = {
  sidebar: { min: 180, max: 420 },
  review: { min: 280 },
  /** What the conversation keeps beside the review column. */
  conversation: { min: 360 },
  terminal: { min: 80 },
  /** What the conversation and review column keep above the terminal. */
  top: { min: 300 },
} as const;

/** The width of a splitter between two panes, in CSS pixels. */
export const SPLITTER_PX = 6;

export function clamp(value: number, min: number, max: number): number {
  // A window too small for both bounds favours the minimum: the pane stays usable, the page scrolls.
  return Math.round(Math.max(min, Math.min(max, value)));
}

export function clampSidebar(width: number): number {
  return clamp(width, paneBounds.sidebar.min, paneBounds.sidebar.max);
}

/** The review column's width in a workspace `workspaceWidth` wide: the conversation keeps its minimum. */
export function clampReview(width: number, workspaceWidth: number): number {
  return clamp(width, paneBounds.review.min, workspaceWidth - paneBounds.conversation.min - SPLITTER_PX);
}

/** The terminal's height in a workspace `workspaceHeight` tall: the panes above keep their minimum. */
export function clampTerminal(height: number, workspaceHeight: number): number {
  return clamp(height, paneBounds.terminal.min, workspaceHeight - paneBounds.top.min - SPLITTER_PX);
}

/** A size a keyboard step moves: small, or large with Shift. */
export function keyStep(shift: boolean): number {
  return shift ? 64 : 16;
}

/**
 * Which part of a long conversation is drawn. Drawing every entry of a 5,000-event session means
 * tens of thousands of elements and seconds of layout before the first frame, for a view that shows
 * its last few entries. So a session opens on its last FIRST_WINDOW items (several screens), and each
 * scroll near the top adds EARLIER_PAGE more above. Items are counted as the log holds them: a tool
 * result is an item drawn inside its call's card.
 */
export const FIRST_WINDOW = 160;
export const EARLIER_PAGE = 160;

/** The index of the first item drawn when a conversation of `count` items opens. */
export function firstWindowStart(count: number): number {
  return Math.max(0, count - FIRST_WINDOW);
}

/** The first item drawn once the person asks for what comes before `start`. */
export function earlierWindowStart(start: number): number {
  return Math.max(0, start - EARLIER_PAGE);
}

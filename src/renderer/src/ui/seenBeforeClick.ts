import { useLayoutEffect, useRef, type MouseEvent, type PointerEvent } from 'react';

/**
 * How long a control that comes on screen where the pointer may already be must have been there
 * before a click on it counts: long enough to be seen, as browsers hold their permission prompts.
 * A request's answer buttons wait as long (features/permission/requestGuard.ts).
 */
export const SEEN_MS = 500;

/**
 * Whether a click decides: one made with the keyboard (no pointer) does; one made with the pointer
 * only if its press began on the control, at least {@link SEEN_MS} after it came on screen (not the
 * second half of a double-click aimed at what was there a moment before).
 */
export function clickCounts(click: { viaPointer: boolean; pressedAt: number | undefined; shownAt: number }): boolean {
  if (!click.viaPointer) return true;
  return click.pressedAt !== undefined && click.pressedAt - click.shownAt >= SEEN_MS;
}

/**
 * The handlers for a button that appears in place of what was just clicked (a warning's "Save
 * anyway"): `onClick` runs only for a click that {@link clickCounts}.
 */
export function useClickOnceSeen(onClick: () => void) {
  const shownAt = useRef(0);
  const pressedAt = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    shownAt.current = performance.now();
  }, []);
  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      pressedAt.current = event.timeStamp;
    },
    onClick(event: MouseEvent<HTMLElement>) {
      const pressed = pressedAt.current;
      pressedAt.current = undefined;
      // A click from the keyboard (Enter or Space on the focused button) has no pointer: detail is 0.
      if (clickCounts({ viaPointer: event.detail > 0, pressedAt: pressed, shownAt: shownAt.current })) onClick();
    },
  };
}

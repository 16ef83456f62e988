import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { requestGuard } from './requestGuard';

/**
 * Where a request's answer buttons stand, for the click half of the request guard. A page tells no
 * one when an element moves (a pane opening beside it, the task box growing under it, the window
 * resized), so this looks every frame: one read of a few buttons' boxes, while the request is on
 * screen. When they stand somewhere new, or the page comes back in front after being hidden or in
 * the background, the guard hears of it and the buttons are shown arming again for half a second
 * (`SEEN_MS`); a click during that time is not taken. A press or a click also looks at once, so
 * a move in the frame before it is never missed.
 *
 * It also follows whether what "Allow always" creates (the rule box and its scope, or the host it
 * adds to the fence) is wholly in sight, so neither Shift+A nor the button creates a rule the person
 * cannot see.
 */
export interface AnswerPlacement {
  /** Clicks count: the buttons have stood where they are, in sight, long enough. */
  armed: boolean;
  /** Counts each time the buttons start arming, so the arming bar starts again. */
  arming: number;
  /** Looks now (at the time of an event): a press or a click calls this before it is judged. */
  look(at: number): void;
}

/** The selector of a request's answer buttons, inside its actions footer. */
export const ANSWER_BUTTON = '[data-answer]';

export function useAnswerPlacement(
  id: string,
  actions: RefObject<HTMLElement | null>,
  terms: RefObject<HTMLElement | null>,
  /** Changes whenever the terms element may have been replaced (it is observed again). */
  termsKey: unknown,
): AnswerPlacement {
  const [armed, setArmed] = useState(false);
  const [arming, setArming] = useState(0);
  const where = useRef('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const rearm = useCallback(() => {
    const armedAt = requestGuard.armedAt(id);
    if (armedAt === undefined) return;
    clearTimeout(timer.current);
    setArmed(false);
    setArming((count) => count + 1);
    timer.current = setTimeout(() => setArmed(true), Math.max(0, armedAt - performance.now()));
  }, [id]);

  const look = useCallback(
    (at: number) => {
      const footer = actions.current;
      if (!footer) return;
      const now = placementOf(footer);
      if (now === where.current) return;
      where.current = now;
      requestGuard.placed(id, at, 'moved');
      rearm();
    },
    [actions, id, rearm],
  );

  useEffect(() => {
    let frame = requestAnimationFrame(function tick(time) {
      look(time);
      frame = requestAnimationFrame(tick);
    });
    // Back in front (another tab, another window, a minimised one): seen anew from now.
    function handleShown(event: Event) {
      if (document.visibilityState !== 'visible') return;
      requestGuard.placed(id, event.type === 'focus' ? event.timeStamp : performance.now(), 'shown');
      rearm();
    }
    document.addEventListener('visibilitychange', handleShown);
    window.addEventListener('focus', handleShown);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer.current);
      document.removeEventListener('visibilitychange', handleShown);
      window.removeEventListener('focus', handleShown);
    };
  }, [id, look, rearm]);

  useEffect(() => {
    const element = terms.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      requestGuard.ruleSight(id, undefined);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1);
        if (!entry) return;
        const body = element.closest('.dialog-body');
        // Taller than the part of the request that scrolls: filling that part is as much as can be seen at once.
        const room = Math.min(entry.boundingClientRect.height, body?.clientHeight ?? Number.POSITIVE_INFINITY);
        const whole = entry.isIntersecting && (entry.intersectionRatio >= 0.999 || entry.intersectionRect.height >= room - 1);
        requestGuard.ruleSight(id, whole ? entry.time : undefined);
      },
      { threshold: [0, 0.25, 0.5, 0.75, 0.9, 0.99, 1] },
    );
    observer.observe(element);
    // A scope chosen or the rule edited, with all of it in sight, is the person reading it.
    function handleWorkedIn() {
      if (element && whollyInSight(element)) requestGuard.ruleRead(id);
    }
    element.addEventListener('pointerdown', handleWorkedIn);
    element.addEventListener('input', handleWorkedIn);
    return () => {
      observer.disconnect();
      element.removeEventListener('pointerdown', handleWorkedIn);
      element.removeEventListener('input', handleWorkedIn);
      requestGuard.ruleSight(id, undefined);
    };
  }, [id, terms, termsKey]);

  return { armed, arming, look };
}

/** Whether all of an element is within the window and every box around it that clips what it shows. */
function whollyInSight(element: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight || box.right > window.innerWidth) return false;
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const style = getComputedStyle(parent);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const clip = parent.getBoundingClientRect();
    if (box.top < clip.top - 1 || box.bottom > clip.bottom + 1 || box.left < clip.left - 1 || box.right > clip.right + 1) return false;
  }
  return true;
}

/** The boxes of the answer buttons, as one string: equal strings, same places. */
function placementOf(footer: HTMLElement): string {
  let placement = '';
  for (const button of footer.querySelectorAll(ANSWER_BUTTON)) {
    const box = button.getBoundingClientRect();
    placement += `${Math.round(box.left)},${Math.round(box.top)},${Math.round(box.width)},${Math.round(box.height)};`;
  }
  return placement;
}

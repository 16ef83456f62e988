import type { LiveEvent } from '../../../shared/events';

/** Runs a callback soon, once: requestAnimationFrame in the window, anything in tests. */
export type Schedule = (callback: () => void) => void;

export interface LiveBatcher {
  push(event: LiveEvent): void;
  /** Applies whatever is queued now, so a stored event never overtakes the live bytes before it. */
  flush(): void;
}

/**
 * Streamed text arrives a token at a time (hundreds a second); the store is told once per frame,
 * with everything that came in since, so the window redraws at most at the screen's rate.
 */
export function createLiveBatcher(apply: (batch: LiveEvent[]) => void, schedule: Schedule): LiveBatcher {
  let queue: LiveEvent[] = [];
  let scheduled = false;

  function flush(): void {
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    apply(batch);
  }

  return {
    push(event) {
      queue.push(event);
      if (scheduled) return;
      scheduled = true;
      schedule(() => {
        scheduled = false;
        flush();
      });
    },
    flush,
  };
}

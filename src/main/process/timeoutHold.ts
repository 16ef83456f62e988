/**
 * Holds a timeout while something waits for a person: a command whose connection waits for the
 * answer to a network question is not using its time, so its timeout (and its call's) stands still
 * until the answer comes. Holds nest (a command may wait on several questions at once); the clock
 * runs again when the last one is let go.
 */
export class TimeoutHold {
  private holds = 0;
  private readonly listeners = new Set<(held: boolean) => void>();

  get held(): boolean {
    return this.holds > 0;
  }

  /** Stops the clock until the returned function is called (calling it twice lets go once). */
  hold(): () => void {
    this.holds += 1;
    if (this.holds === 1) this.tell(true);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0) this.tell(false);
    };
  }

  /** Holds the clock while `work` runs. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    const release = this.hold();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Hears each change between held and running; returns how to stop listening. */
  onChange(listener: (held: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(held: boolean): void {
    for (const listener of [...this.listeners]) listener(held);
  }
}

// setTimeout fires at once for delays that do not fit in 32 bits.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Calls `onTimeout` once `ms` have passed while not held. Without a hold it is a plain timer.
 * Returns how to cancel it.
 */
export function pausableTimeout(ms: number, onTimeout: () => void, hold?: TimeoutHold): () => void {
  let remaining = Math.max(ms, 0);
  let startedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const start = (): void => {
    if (done || timer) return;
    startedAt = performance.now();
    timer = setTimeout(
      () => {
        done = true;
        stopListening?.();
        onTimeout();
      },
      Math.min(remaining, MAX_TIMER_MS),
    );
  };
  const pause = (): void => {
    if (!timer) return;
    clearTimeout(timer);
    timer = undefined;
    remaining = Math.max(0, remaining - (performance.now() - startedAt));
  };
  const stopListening = hold?.onChange((held) => (held ? pause() : start()));
  if (!hold?.held) start();
  return () => {
    done = true;
    clearTimeout(timer);
    timer = undefined;
    stopListening?.();
  };
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pausableTimeout, TimeoutHold } from './timeoutHold';

describe('pausableTimeout', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('fires after its time when nothing holds it', () => {
    const fired = vi.fn();
    pausableTimeout(1000, fired, new TimeoutHold());
    vi.advanceTimersByTime(999);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledOnce();
  });

  it('stands still while held (holds nest) and runs on with what was left', () => {
    const hold = new TimeoutHold();
    const fired = vi.fn();
    pausableTimeout(1000, fired, hold);
    vi.advanceTimersByTime(600);
    const first = hold.hold();
    const second = hold.hold();
    vi.advanceTimersByTime(5000);
    first();
    first(); // letting go twice counts once
    vi.advanceTimersByTime(5000);
    expect(fired).not.toHaveBeenCalled();
    second();
    vi.advanceTimersByTime(399);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledOnce();
  });

  it('starts held when the hold is already taken, and never fires once cancelled', async () => {
    const hold = new TimeoutHold();
    const fired = vi.fn();
    const work = hold.during(() => new Promise<void>((resolve) => setTimeout(resolve, 3000)));
    const cancel = pausableTimeout(1000, fired, hold);
    await vi.advanceTimersByTimeAsync(3000);
    await work;
    vi.advanceTimersByTime(500);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(fired).not.toHaveBeenCalled();
  });
});

import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../shared/events';
import { formatEvent } from './formatEvent';

const line = (event: SessionEvent) => formatEvent({ sessionId: 's', seq: 1, at: 0, event });

describe('formatEvent: retries', () => {
  it('names the next try out of how many, as the app does', () => {
    expect(line({ type: 'model.retrying', attempt: 1, delayMs: 4000, reason: 'refused', maxAttempts: 5 })).toEqual([
      '↻ retrying (2/5) in 4.0 s: refused',
    ]);
    // A log written before the count was recorded.
    expect(line({ type: 'model.retrying', attempt: 3, delayMs: 1500, reason: '503' })).toEqual(['↻ retrying (4) in 1.5 s: 503']);
  });
});

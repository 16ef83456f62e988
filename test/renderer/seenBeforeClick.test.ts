import { describe, expect, it } from 'vitest';
import { clickCounts, SEEN_MS } from '../../src/renderer/src/ui/seenBeforeClick';

// A control that comes on screen where the pointer may already be ("Save anyway" in place of Save)
// takes a pointer click only once it has been seen; the keyboard always.

describe('clickCounts', () => {
  const shownAt = 1_000;
  it('refuses a pointer click pressed before the control was seen, or whose press began elsewhere', () => {
    expect(clickCounts({ viaPointer: true, pressedAt: shownAt + 216, shownAt })).toBe(false);
    expect(clickCounts({ viaPointer: true, pressedAt: shownAt - 50, shownAt })).toBe(false);
    expect(clickCounts({ viaPointer: true, pressedAt: undefined, shownAt })).toBe(false);
  });

  it('takes a pointer click pressed once it was seen, and a keyboard click at any time', () => {
    expect(clickCounts({ viaPointer: true, pressedAt: shownAt + SEEN_MS, shownAt })).toBe(true);
    expect(clickCounts({ viaPointer: false, pressedAt: undefined, shownAt })).toBe(true);
  });
});

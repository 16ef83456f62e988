import { describe, expect, it } from 'vitest';
import {
  INTENT_MS,
  QUIET_MS,
  SEEN_MS,
  RequestGuard,
  isEditable,
  isReachShortcut,
  isTypingKey,
  type ElementLike,
} from '../../src/renderer/src/features/permission/requestGuard';

// No stray key or click decides: a key answers a permission request only when the request has focus,
// nobody typed elsewhere in the last second, and (for Enter and Space) a request that came during
// typing was reached on purpose; a click only when its press began after the buttons had been seen
// where they stand. The guard is plain logic over a clock; these drive the clock by hand.

function clock(start = 10_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A request that appeared while the person was typing: they typed, and 100 ms later it came. */
function appearedMidTyping() {
  const time = clock();
  const guard = new RequestGuard(time.now);
  guard.typed();
  time.advance(100);
  guard.appeared('r1');
  return { time, guard };
}

describe('the typing guard', () => {
  it('takes no key typed 200 ms after the last typed one, even with the request focused and reached', () => {
    const { time, guard } = appearedMidTyping();
    time.advance(SEEN_MS);
    guard.intent('shortcut');
    guard.reach('r1');
    guard.typed();
    time.advance(200);
    expect(guard.verdict('r1', { kind: 'letter', focusInside: true })).toEqual({ answers: false, refusal: 'typing' });
    expect(guard.verdict('r1', { kind: 'enter', focusInside: true })).toEqual({ answers: false, refusal: 'typing' });
    expect(guard.untilQuiet()).toBe(QUIET_MS - 200);
  });

  it('takes no letter while the request does not have focus, however long the pause', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    time.advance(60_000);
    for (const kind of ['letter', 'enter', 'space'] as const) {
      expect(guard.verdict('r1', { kind, focusInside: false })).toEqual({ answers: false, refusal: 'not-focused' });
    }
  });

  it('takes no Enter or Space for a request that appeared mid-typing until focus was moved in on purpose', () => {
    const { time, guard } = appearedMidTyping();
    expect(guard.appearedDuringTyping('r1')).toBe(true);
    time.advance(5_000);
    // Focus got in without a deliberate act (say a script focused it): Enter and Space still do not answer.
    guard.focusEntered('r1');
    expect(guard.reached('r1')).toBe(false);
    expect(guard.verdict('r1', { kind: 'enter', focusInside: true })).toEqual({ answers: false, refusal: 'not-reached' });
    expect(guard.verdict('r1', { kind: 'space', focusInside: true })).toEqual({ answers: false, refusal: 'not-reached' });
    // A click on it (or Tab) just before focus arrives is deliberate.
    guard.intent('pointer');
    time.advance(50);
    guard.focusEntered('r1');
    expect(guard.reached('r1')).toBe(true);
    expect(guard.verdict('r1', { kind: 'enter', focusInside: true })).toEqual({ answers: true });
  });

  it('counts focus as reached only soon after the deliberate act', () => {
    const { time, guard } = appearedMidTyping();
    guard.intent('tab');
    time.advance(INTENT_MS + 1);
    guard.focusEntered('r1');
    expect(guard.reached('r1')).toBe(false);
  });

  it("lets 'a' answer once focus was moved in and a second passed since the last typed key", () => {
    const { time, guard } = appearedMidTyping();
    guard.intent('shortcut');
    guard.reach('r1');
    expect(guard.verdict('r1', { kind: 'letter', focusInside: true })).toEqual({ answers: false, refusal: 'typing' });
    time.advance(QUIET_MS);
    expect(guard.verdict('r1', { kind: 'letter', focusInside: true })).toEqual({ answers: true });
    expect(guard.verdict('r1', { kind: 'enter', focusInside: true })).toEqual({ answers: true });
  });

  it('lets keys answer a request that came while nobody typed, once it has focus and has been up a moment', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.typed();
    time.advance(QUIET_MS + 1);
    guard.appeared('r1');
    expect(guard.appearedDuringTyping('r1')).toBe(false);
    expect(guard.verdict('r1', { kind: 'letter', focusInside: true })).toEqual({ answers: false, refusal: 'too-soon' });
    time.advance(SEEN_MS);
    // No deliberate act recorded, yet Enter answers: it did not come during typing, and it has focus.
    expect(guard.verdict('r1', { kind: 'enter', focusInside: true })).toEqual({ answers: true });
    expect(guard.verdict('r1', { kind: 'space', focusInside: true })).toEqual({ answers: true });
  });

  it('takes no key held down', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    time.advance(5_000);
    expect(guard.verdict('r1', { kind: 'letter', focusInside: true, repeat: true })).toEqual({ answers: false, refusal: 'held' });
  });

  it('keeps what it learnt per request, and forgets a request once it is gone', () => {
    const { time, guard } = appearedMidTyping();
    time.advance(QUIET_MS * 3);
    guard.appeared('r2');
    expect(guard.appearedDuringTyping('r2')).toBe(false);
    // Appearing again (a re-render) does not rewrite when or how it came.
    guard.appeared('r1');
    expect(guard.appearedDuringTyping('r1')).toBe(true);
    guard.gone('r1');
    expect(guard.verdict('r1', { kind: 'letter', focusInside: true })).toEqual({ answers: false, refusal: 'not-focused' });
  });
});

describe('the click half of the guard', () => {
  it('takes no click pressed within half a second of the request appearing, and takes one after', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    time.advance(216);
    expect(guard.clickVerdict('r1', { pressedAt: time.now() })).toEqual({ answers: false, refusal: 'click-appeared' });
    time.advance(SEEN_MS - 216);
    expect(guard.clickVerdict('r1', { pressedAt: time.now() })).toEqual({ answers: true });
  });

  it('judges a click by when its press began, not by when it was let go', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    const pressedAt = time.advance(100);
    time.advance(5_000);
    expect(guard.clickVerdict('r1', { pressedAt })).toEqual({ answers: false, refusal: 'click-appeared' });
    // A press that began before the request came (it was let go over it) never counts either.
    expect(guard.clickVerdict('r1', { pressedAt: 9_000 })).toEqual({ answers: false, refusal: 'click-appeared' });
    // Nor a click whose press began outside the request.
    expect(guard.clickVerdict('r1', { pressedAt: undefined })).toEqual({ answers: false, refusal: 'click-appeared' });
  });

  it('starts the half second again when the buttons move, and refuses a press that began before the move', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    time.advance(2_000);
    const pressedBefore = time.now();
    const movedAt = time.advance(50);
    guard.placed('r1', movedAt, 'moved');
    time.advance(SEEN_MS * 4);
    expect(guard.clickVerdict('r1', { pressedAt: pressedBefore })).toEqual({ answers: false, refusal: 'click-moved' });
    expect(guard.clickVerdict('r1', { pressedAt: movedAt + 100 })).toEqual({ answers: false, refusal: 'click-moved' });
    expect(guard.clickVerdict('r1', { pressedAt: movedAt + SEEN_MS })).toEqual({ answers: true });
    expect(guard.armedAt('r1')).toBe(movedAt + SEEN_MS);
  });

  it('counts settling in its first moments as appearing, and the window coming to the front as shown anew', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    // The first frame puts the buttons where they will stand: still "just appeared".
    guard.placed('r1', time.advance(16), 'moved');
    expect(guard.clickVerdict('r1', { pressedAt: time.advance(100) })).toEqual({ answers: false, refusal: 'click-appeared' });
    time.advance(10_000);
    guard.placed('r1', time.now(), 'shown');
    expect(guard.clickVerdict('r1', { pressedAt: time.advance(80) })).toEqual({ answers: false, refusal: 'click-shown' });
    // A placement older than the one it knows changes nothing.
    guard.placed('r1', time.now() - 5_000, 'moved');
    expect(guard.armedAt('r1')).toBe(time.now() - 80 + SEEN_MS);
  });

  it('ignores typing elsewhere: a click is aimed', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    time.advance(SEEN_MS);
    guard.typed();
    expect(guard.clickVerdict('r1', { pressedAt: time.now() })).toEqual({ answers: true });
    expect(guard.verdict('r1', { kind: 'letter', focusInside: true })).toEqual({ answers: false, refusal: 'typing' });
  });

  it('lets neither Shift+A nor the Allow always button create a rule that has not been in sight for half a second', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    time.advance(2_000);
    const key = { kind: 'letter' as const, focusInside: true, createsRule: true };
    expect(guard.verdict('r1', key)).toEqual({ answers: false, refusal: 'rule-unseen' });
    expect(guard.clickVerdict('r1', { pressedAt: time.now(), createsRule: true })).toEqual({ answers: false, refusal: 'rule-unseen' });
    // Allow once creates nothing: it needs no rule in sight.
    expect(guard.clickVerdict('r1', { pressedAt: time.now() })).toEqual({ answers: true });
    guard.ruleSight('r1', time.now());
    time.advance(SEEN_MS - 1);
    expect(guard.verdict('r1', key)).toEqual({ answers: false, refusal: 'rule-unseen' });
    time.advance(1);
    expect(guard.verdict('r1', key)).toEqual({ answers: true });
    expect(guard.clickVerdict('r1', { pressedAt: time.now(), createsRule: true })).toEqual({ answers: true });
    // Scrolled out of sight again: refused again.
    guard.ruleSight('r1', undefined);
    expect(guard.verdict('r1', key)).toEqual({ answers: false, refusal: 'rule-unseen' });
  });

  it('counts a scope chosen or the rule edited in sight as the rule read, at once', () => {
    const time = clock();
    const guard = new RequestGuard(time.now);
    guard.appeared('r1');
    time.advance(2_000);
    guard.ruleSight('r1', time.now());
    guard.ruleRead('r1');
    expect(guard.clickVerdict('r1', { pressedAt: time.now(), createsRule: true })).toEqual({ answers: true });
  });
});

function element(tagName: string, options: { type?: string; contentEditable?: boolean; inside?: string[] } = {}): ElementLike {
  return {
    tagName,
    isContentEditable: options.contentEditable ?? false,
    getAttribute: (name) => (name === 'type' ? (options.type ?? null) : null),
    closest: (selector) => (options.inside?.some((name) => selector.includes(name)) ? {} : null),
  };
}

describe('what counts as typing', () => {
  it('is a text field, a textarea, contenteditable, the terminal or Monaco, and not a button or a checkbox', () => {
    expect(isEditable(element('TEXTAREA'))).toBe(true);
    expect(isEditable(element('INPUT'))).toBe(true);
    expect(isEditable(element('input', { type: 'search' }))).toBe(true);
    expect(isEditable(element('DIV', { contentEditable: true }))).toBe(true);
    expect(isEditable(element('DIV', { inside: ['.xterm'] }))).toBe(true);
    expect(isEditable(element('DIV', { inside: ['.monaco-editor'] }))).toBe(true);
    expect(isEditable(element('INPUT', { type: 'checkbox' }))).toBe(false);
    expect(isEditable(element('INPUT', { type: 'radio' }))).toBe(false);
    expect(isEditable(element('BUTTON'))).toBe(false);
    expect(isEditable(null)).toBe(false);
  });

  it('is a key that puts or removes text, not a shortcut or a move', () => {
    const key = (key: string, mods: { ctrlKey?: boolean; metaKey?: boolean } = {}) =>
      isTypingKey({ key, ctrlKey: false, metaKey: false, ...mods });
    for (const typed of ['a', 'D', ' ', 'é', 'Enter', 'Backspace', 'Delete', 'Process']) expect(key(typed)).toBe(true);
    for (const other of ['F6', 'Tab', 'ArrowUp', 'Shift', 'Escape']) expect(key(other)).toBe(false);
    expect(key('a', { ctrlKey: true })).toBe(false);
    expect(key('v', { metaKey: true })).toBe(false);
  });

  it('reaches the request with F6 or Ctrl/Cmd+Shift+A, and with nothing a sentence contains', () => {
    const press = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) =>
      isReachShortcut({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
    expect(press('F6')).toBe(true);
    expect(press('A', { ctrlKey: true, shiftKey: true })).toBe(true);
    expect(press('A', { metaKey: true, shiftKey: true })).toBe(true);
    expect(press('a')).toBe(false);
    expect(press('A', { shiftKey: true })).toBe(false);
    expect(press('a', { ctrlKey: true })).toBe(false);
    expect(press('F6', { shiftKey: true })).toBe(false);
  });
});

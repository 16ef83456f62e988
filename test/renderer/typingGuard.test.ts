import { describe, expect, it } from 'vitest';
import {
  ARM_MS,
  INTENT_MS,
  QUIET_MS,
  TypingGuard,
  isEditable,
  isReachShortcut,
  isTypingKey,
  type ElementLike,
} from '../../src/renderer/src/features/permission/typingGuard';

// No stray key decides: a key answers a permission request only when the request has focus, nobody
// typed elsewhere in the last second, and (for Enter and Space) a request that came during typing was
// reached on purpose. The guard is plain logic over a clock; these drive the clock by hand.

function clock(start = 10_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A request that appeared while the person was typing: they typed, and 100 ms later it came. */
function appearedMidTyping() {
  const time = clock();
  const guard = new TypingGuard(time.now);
  guard.typed();
  time.advance(100);
  guard.appeared('r1');
  return { time, guard };
}

describe('the typing guard', () => {
  it('takes no key typed 200 ms after the last typed one, even with the request focused and reached', () => {
    const { time, guard } = appearedMidTyping();
    time.advance(ARM_MS);
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
    const guard = new TypingGuard(time.now);
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
    const guard = new TypingGuard(time.now);
    guard.typed();
    time.advance(QUIET_MS + 1);
    guard.appeared('r1');
    expect(guard.appearedDuringTyping('r1')).toBe(false);
    expect(guard.verdict('r1', { kind: 'letter', focusInside: true })).toEqual({ answers: false, refusal: 'too-soon' });
    time.advance(ARM_MS);
    // No deliberate act recorded, yet Enter answers: it did not come during typing, and it has focus.
    expect(guard.verdict('r1', { kind: 'enter', focusInside: true })).toEqual({ answers: true });
    expect(guard.verdict('r1', { kind: 'space', focusInside: true })).toEqual({ answers: true });
  });

  it('takes no key held down', () => {
    const time = clock();
    const guard = new TypingGuard(time.now);
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

import { SEEN_MS } from '../../ui/seenBeforeClick';

/**
 * No stray key or click decides (house rule 10). A permission request can come on screen while the
 * person is typing somewhere else, or where their pointer already is: the letter they type next was
 * meant for that field, and the click they make next (the second half of a slow double-click, say)
 * was meant for what was there a moment ago, perhaps the request before this one. This keeps the
 * facts a request's answers are judged by, for keys and clicks alike:
 *
 * - when the person last typed in an editable field outside any request (input, textarea,
 *   contenteditable, the xterm terminal, Monaco);
 * - for each request on screen, when it appeared, whether the person was typing then, whether they
 *   have since moved focus into it by a deliberate act (a click on it, Tab, the reach shortcut), and
 *   since when its answer buttons have stood where they are (appeared, moved, or shown again after the
 *   page was hidden or the window in the background).
 *
 * A key answers a request only if the request (or something in it) has focus, nobody typed outside
 * it in the last second, it has been on screen for {@link SEEN_MS}, the key is not held down, and, for
 * Enter and Space, the request did not appear during typing or was reached deliberately since.
 * A click answers only if its press began after the buttons had stood still, on screen, for
 * {@link SEEN_MS} (what browsers wait before a permission prompt takes input), and they have not moved
 * since: a press that began before the request appeared, or before it last moved, never counts, however
 * long it was held. What "Allow always" would create must also have been in sight that long, for its
 * key and its button alike.
 *
 * The rules are plain logic over a clock ({@link RequestGuard}); {@link installRequestGuard} feeds
 * them from the page's events, and answerPlacement.ts from where the request's buttons are.
 */

/** How long after the last typed key no key answers a request. */
export const QUIET_MS = 1000;
/**
 * How long a request (for a click: its answer buttons where they are now; for Allow always: the rule
 * it creates) must have been on screen before it takes an answer: long enough to be seen, as browsers
 * hold their permission prompts. The same wait as any control that comes where the pointer may be.
 */
export { SEEN_MS };
/** How soon after a deliberate act (click, Tab, the shortcut) focus must arrive to count as reached. */
export const INTENT_MS = 1000;

/** A request's own region: typing in its fields is meant for it and does not count as typing elsewhere. */
export const REQUEST_REGION = '[data-key-guard="request"]';

/** The kinds of key that can answer a request (not Esc: it only goes back, and leaves the request waiting). */
export type AnswerKey = 'letter' | 'enter' | 'space';

/**
 * Why an answer was not taken. Keys: not focused, typing elsewhere, too soon after it appeared, held,
 * Enter not reached. Clicks: pressed before or too soon after the request appeared, moved or was shown
 * again (`click-*`). Allow always: the rule it creates was not in sight long enough (`rule-unseen`).
 */
export type Refusal =
  'not-focused' | 'typing' | 'too-soon' | 'held' | 'not-reached' | 'click-appeared' | 'click-moved' | 'click-shown' | 'rule-unseen';

export type Verdict = { answers: true } | { answers: false; refusal: Refusal };

export interface KeyPress {
  kind: AnswerKey;
  /** The request, or an element inside it, has focus. */
  focusInside: boolean;
  /** An auto-repeat of a key held down. */
  repeat?: boolean;
  /** The key would create a rule (Shift+A, Enter in the rule box): what it creates must have been seen. */
  createsRule?: boolean;
}

export interface Click {
  /** When the press that made the click began (the pointerdown's timeStamp); undefined when it began outside the request. */
  pressedAt: number | undefined;
  /** The click would create a rule (Allow always): what it creates must have been seen. */
  createsRule?: boolean;
}

export type Intent = 'pointer' | 'tab' | 'shortcut';

/** Why a request's buttons count as new to the eye: it came, they moved, or the page was hidden or in the background. */
export type Settled = 'appeared' | 'moved' | 'shown';

interface Shown {
  at: number;
  duringTyping: boolean;
  reached: boolean;
  /** Since when the answer buttons have stood where they are, on a page in front, and why they count as new then. */
  placedAt: number;
  placed: Settled;
  /** Since when what Allow always creates has been wholly in sight; undefined while it is not. */
  ruleInSight?: number;
}

export class RequestGuard {
  private lastTyped = Number.NEGATIVE_INFINITY;
  private lastIntent = Number.NEGATIVE_INFINITY;
  private readonly shown = new Map<string, Shown>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    readonly quietMs = QUIET_MS,
    readonly seenMs = SEEN_MS,
  ) {}

  /** A key was typed (or text put) into an editable field outside any request. */
  typed(): void {
    this.lastTyped = this.now();
  }

  /** The person typed outside any request within the last {@link QUIET_MS}. */
  typing(): boolean {
    return this.now() - this.lastTyped < this.quietMs;
  }

  /** How long until the typing pause is long enough for a key to answer (0: it is). */
  untilQuiet(): number {
    return Math.max(0, this.lastTyped + this.quietMs - this.now());
  }

  /** A request came on screen. Whether the person was typing is taken now and kept. */
  appeared(id: string): void {
    if (this.shown.has(id)) return;
    const at = this.now();
    this.shown.set(id, { at, duringTyping: this.typing(), reached: false, placedAt: at, placed: 'appeared' });
  }

  gone(id: string): void {
    this.shown.delete(id);
  }

  appearedDuringTyping(id: string): boolean {
    return this.shown.get(id)?.duringTyping ?? false;
  }

  /**
   * The request's answer buttons stand somewhere new as of `at` (a frame's time, or an event's): they
   * moved, or the page came back in front after being hidden. A click needs them seen there anew.
   */
  placed(id: string, at: number, why: Exclude<Settled, 'appeared'>): void {
    const shown = this.shown.get(id);
    if (!shown || at < shown.placedAt) return;
    shown.placedAt = at;
    // Still arriving: a request that settles within its first moments appeared; it did not move.
    if (shown.placed !== 'appeared' || at - shown.at >= this.seenMs || why === 'shown') shown.placed = why;
  }

  /** When clicks start to count, given where the buttons stand now. */
  armedAt(id: string): number | undefined {
    const shown = this.shown.get(id);
    return shown && shown.placedAt + this.seenMs;
  }

  /** What Allow always creates came wholly into sight at `at`, or went out of it (undefined). */
  ruleSight(id: string, at: number | undefined): void {
    const shown = this.shown.get(id);
    // Still in sight: it has been since the earlier of the two.
    if (shown) shown.ruleInSight = at === undefined ? undefined : Math.min(shown.ruleInSight ?? at, at);
  }

  /**
   * The person worked in what Allow always creates (chose a scope, edited the rule) while it was wholly
   * in sight: they have seen it, however short a time it has been there.
   */
  ruleRead(id: string): void {
    const shown = this.shown.get(id);
    if (shown) shown.ruleInSight = Math.min(shown.ruleInSight ?? Number.POSITIVE_INFINITY, this.now() - this.seenMs);
  }

  /** A deliberate act that may move focus into a request: a pointer on it, Tab, the reach shortcut. */
  intent(_kind: Intent): void {
    this.lastIntent = this.now();
  }

  /** The person moved focus into the request on purpose (the reach shortcut does this itself). */
  reach(id: string): void {
    const shown = this.shown.get(id);
    if (shown) shown.reached = true;
  }

  /**
   * Focus moved into the request from outside. It counts as reached only right after a deliberate
   * act; focus that arrived any other way (a script, a future auto-focus) does not.
   */
  focusEntered(id: string): void {
    if (this.now() - this.lastIntent < INTENT_MS) this.reach(id);
  }

  reached(id: string): boolean {
    return this.shown.get(id)?.reached ?? false;
  }

  /** Whether this key press may answer the request. */
  verdict(id: string, press: KeyPress): Verdict {
    const shown = this.shown.get(id);
    if (!shown || !press.focusInside) return { answers: false, refusal: 'not-focused' };
    if (press.repeat) return { answers: false, refusal: 'held' };
    if (this.typing()) return { answers: false, refusal: 'typing' };
    if (this.now() - shown.at < this.seenMs) return { answers: false, refusal: 'too-soon' };
    if ((press.kind === 'enter' || press.kind === 'space') && shown.duringTyping && !shown.reached)
      return { answers: false, refusal: 'not-reached' };
    if (press.createsRule && !this.ruleSeen(shown)) return { answers: false, refusal: 'rule-unseen' };
    return { answers: true };
  }

  /**
   * Whether this click may answer the request: its press began once the buttons had stood where they
   * are, in sight, for {@link SEEN_MS}. Typing elsewhere does not matter to a click: it is aimed.
   */
  clickVerdict(id: string, click: Click): Verdict {
    const shown = this.shown.get(id);
    if (!shown) return { answers: false, refusal: 'not-focused' };
    const pressedAt = click.pressedAt;
    if (pressedAt === undefined || pressedAt - shown.placedAt < this.seenMs) {
      return { answers: false, refusal: `click-${shown.placed}` };
    }
    if (click.createsRule && !this.ruleSeen(shown)) return { answers: false, refusal: 'rule-unseen' };
    return { answers: true };
  }

  private ruleSeen(shown: Shown): boolean {
    return shown.ruleInSight !== undefined && this.now() - shown.ruleInSight >= this.seenMs;
  }
}

/** What {@link isEditable} needs of an element, so the rule can be checked without a DOM. */
export interface ElementLike {
  tagName: string;
  isContentEditable?: boolean;
  getAttribute(name: string): string | null;
  closest(selector: string): unknown;
}

const textInputTypes = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']);

/** A field a person types text into: a text input, a textarea, contenteditable, the terminal, Monaco. */
export function isEditable(element: ElementLike | null | undefined): boolean {
  if (!element || typeof element.tagName !== 'string') return false;
  const tag = element.tagName.toUpperCase();
  if (tag === 'TEXTAREA') return true;
  if (tag === 'INPUT') return textInputTypes.has((element.getAttribute('type') ?? '').toLowerCase());
  if (element.isContentEditable) return true;
  return element.closest('.xterm, .monaco-editor') != null;
}

/** A key that puts text in a field or changes it (not a shortcut, not a move). */
export function isTypingKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey'>): boolean {
  if (event.ctrlKey || event.metaKey) return false;
  return (
    event.key.length === 1 ||
    event.key === 'Enter' ||
    event.key === 'Backspace' ||
    event.key === 'Delete' ||
    event.key === 'Process' ||
    event.key === 'Dead'
  );
}

function inRequest(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(REQUEST_REGION) !== null;
}

function asElement(target: EventTarget | null): Element | null {
  return target instanceof Element ? target : null;
}

/** The page's one guard. */
export const requestGuard = new RequestGuard();

/**
 * Feeds the guard from the page: typing in editable fields outside a request, pointers on a
 * request, Tab. Capture phase, before any handler can stop the event. Returns the way to stop.
 * (Where each request's buttons stand, and whether the page is in front, answerPlacement.ts watches.)
 */
export function installRequestGuard(target: Window = window, guard: RequestGuard = requestGuard): () => void {
  function handleKeyDown(event: KeyboardEvent) {
    if (event.key === 'Tab') guard.intent('tab');
    if (!isTypingKey(event) || inRequest(event.target)) return;
    if (isEditable(asElement(event.target))) guard.typed();
  }
  function handleInput(event: Event) {
    if (!inRequest(event.target) && isEditable(asElement(event.target))) guard.typed();
  }
  function handlePointerDown(event: PointerEvent) {
    if (inRequest(event.target)) guard.intent('pointer');
  }
  target.addEventListener('keydown', handleKeyDown, true);
  target.addEventListener('input', handleInput, true);
  target.addEventListener('pointerdown', handlePointerDown, true);
  return () => {
    target.removeEventListener('keydown', handleKeyDown, true);
    target.removeEventListener('input', handleInput, true);
    target.removeEventListener('pointerdown', handlePointerDown, true);
  };
}

/** On a Mac the shortcut is shown with ⌘; either Ctrl or Cmd works everywhere. */
const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

/** The keys that move focus to a waiting request (and back), as the request's hint shows them. */
export const reachKeys = { first: 'F6', second: mac ? '⌘⇧A' : 'Ctrl+Shift+A', aria: 'F6 Control+Shift+A Meta+Shift+A' };

/** F6 (the key that moves between a window's parts) or Ctrl/Cmd+Shift+A: move focus to the request. */
export function isReachShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  if (event.key === 'F6') return !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey;
  return (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === 'a';
}

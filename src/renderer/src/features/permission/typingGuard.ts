/**
 * No stray key decides (house rule 10). A permission request can come on screen while the person is
 * typing somewhere else (a message in the task box, say); the letter they type next was meant for
 * that field, not for the request. This keeps the facts a request's keys are judged by:
 *
 * - when the person last typed in an editable field outside any request (input, textarea,
 *   contenteditable, the xterm terminal, Monaco);
 * - for each request on screen, when it appeared, whether the person was typing then, and whether
 *   they have since moved focus into it by a deliberate act (a click on it, Tab, the reach shortcut).
 *
 * A key answers a request only if the request (or something in it) has focus, nobody typed outside
 * it in the last second, it has been on screen a moment, the key is not held down, and, for Enter
 * and Space, the request did not appear during typing or was reached deliberately since. Clicks on
 * its buttons are not keys and always count.
 *
 * The rules are plain logic over a clock ({@link TypingGuard}); {@link installTypingGuard} feeds them
 * from the page's events.
 */

/** How long after the last typed key no key answers a request. */
export const QUIET_MS = 1000;
/** How long after a request appears no key answers it, whatever else holds. */
export const ARM_MS = 400;
/** How soon after a deliberate act (click, Tab, the shortcut) focus must arrive to count as reached. */
export const INTENT_MS = 1000;

/** A request's own region: typing in its fields is meant for it and does not count as typing elsewhere. */
export const REQUEST_REGION = '[data-key-guard="request"]';

/** The kinds of key that can answer a request (not Esc: it only goes back, and leaves the request waiting). */
export type AnswerKey = 'letter' | 'enter' | 'space';

/** Why a key did not answer. */
export type Refusal = 'not-focused' | 'typing' | 'too-soon' | 'held' | 'not-reached';

export type Verdict = { answers: true } | { answers: false; refusal: Refusal };

export interface KeyPress {
  kind: AnswerKey;
  /** The request, or an element inside it, has focus. */
  focusInside: boolean;
  /** An auto-repeat of a key held down. */
  repeat?: boolean;
}

export type Intent = 'pointer' | 'tab' | 'shortcut';

interface Shown {
  at: number;
  duringTyping: boolean;
  reached: boolean;
}

export class TypingGuard {
  private lastTyped = Number.NEGATIVE_INFINITY;
  private lastIntent = Number.NEGATIVE_INFINITY;
  private readonly shown = new Map<string, Shown>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    readonly quietMs = QUIET_MS,
    readonly armMs = ARM_MS,
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
    if (!this.shown.has(id)) this.shown.set(id, { at: this.now(), duringTyping: this.typing(), reached: false });
  }

  gone(id: string): void {
    this.shown.delete(id);
  }

  appearedDuringTyping(id: string): boolean {
    return this.shown.get(id)?.duringTyping ?? false;
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
    if (this.now() - shown.at < this.armMs) return { answers: false, refusal: 'too-soon' };
    if ((press.kind === 'enter' || press.kind === 'space') && shown.duringTyping && !shown.reached)
      return { answers: false, refusal: 'not-reached' };
    return { answers: true };
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
export const typingGuard = new TypingGuard();

/**
 * Feeds the guard from the page: typing in editable fields outside a request, pointers on a
 * request, Tab. Capture phase, before any handler can stop the event. Returns the way to stop.
 */
export function installTypingGuard(target: Window = window, guard: TypingGuard = typingGuard): () => void {
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

import { REQUEST_REGION } from './requestGuard';

/**
 * Where the person was before they went to a permission request: where focus goes back when they
 * answer it from the keyboard, press Esc, or press the reach shortcut again.
 */
let lastOutside: HTMLElement | null = null;

/** Follows focus outside requests; returns the way to stop. Installed once, by the window. */
export function trackFocusOutsideRequests(target: Document = document): () => void {
  function handleFocusIn(event: FocusEvent) {
    if (event.target instanceof HTMLElement && !event.target.closest(REQUEST_REGION)) lastOutside = event.target;
  }
  target.addEventListener('focusin', handleFocusIn);
  return () => target.removeEventListener('focusin', handleFocusIn);
}

/** Puts focus back where the person was (the task box when that place is gone). */
export function returnFocus(): void {
  const target = lastOutside?.isConnected ? lastOutside : document.querySelector<HTMLElement>('[data-testid="task-box"]');
  if (target) target.focus();
  else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
}

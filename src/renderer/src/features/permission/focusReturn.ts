import { REQUEST_REGION } from './requestGuard';

/**
 * Where the person was before they went to a permission request: where focus goes back when they
 * answer it from the keyboard, press Esc, or press the reach shortcut again. Kept with the session
 * whose view it was in, since N can take the person to another session's request: going back then
 * goes back to that session, not to whatever box the new view has.
 */
let lastOutside: { element: HTMLElement; sessionId: string | undefined } | null = null;

const SESSION_VIEW = '[data-testid="session-view"]';
const TASK_BOX = '[data-testid="task-box"]';

/** Follows focus outside requests; returns the way to stop. Installed once, by the window. */
export function trackFocusOutsideRequests(target: Document = document): () => void {
  function handleFocusIn(event: FocusEvent) {
    if (!(event.target instanceof HTMLElement) || event.target.closest(REQUEST_REGION)) return;
    lastOutside = { element: event.target, sessionId: event.target.closest<HTMLElement>(SESSION_VIEW)?.dataset.sessionId };
  }
  target.addEventListener('focusin', handleFocusIn);
  return () => target.removeEventListener('focusin', handleFocusIn);
}

/**
 * Puts focus back where the person was (the task box when that place is gone). With `openSession`
 * (Esc, the reach shortcut: "back"), a place in another session's view goes back to that session,
 * then to that place or its task box; without it (after an answer) focus stays in the view shown.
 */
export function returnFocus(openSession?: (sessionId: string) => void): void {
  const was = lastOutside;
  const shown = document.querySelector<HTMLElement>(SESSION_VIEW)?.dataset.sessionId;
  if (openSession && was?.sessionId !== undefined && was.sessionId !== shown) {
    const sessionId = was.sessionId;
    openSession(sessionId);
    // The view is drawn on the next frames: focus what the person had, or that session's task box, once it is there.
    let frames = 0;
    const settle = () => {
      const view = document.querySelector<HTMLElement>(SESSION_VIEW);
      if (view?.dataset.sessionId === sessionId) {
        (was.element.isConnected ? was.element : view.querySelector<HTMLElement>(TASK_BOX))?.focus();
      } else if (frames++ < 30) requestAnimationFrame(settle);
    };
    requestAnimationFrame(settle);
    return;
  }
  const target = was?.element.isConnected ? was.element : document.querySelector<HTMLElement>(TASK_BOX);
  if (target) target.focus();
  else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
}

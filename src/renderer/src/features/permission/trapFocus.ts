import type { KeyboardEvent } from 'react';

const focusable =
  'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], summary, [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab cycling inside a modal, as an accessible dialog must. */
export function trapFocus(event: KeyboardEvent, container: HTMLElement | null): void {
  if (!container) return;
  const elements = [...container.querySelectorAll<HTMLElement>(focusable)].filter(
    (element) => element.offsetParent !== null || element === document.activeElement,
  );
  if (elements.length === 0) {
    event.preventDefault();
    container.focus();
    return;
  }
  const first = elements[0]!;
  const last = elements[elements.length - 1]!;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

import { useLayoutEffect, type RefObject } from 'react';
import { isEditable, REQUEST_REGION } from './typingGuard';

/** A box on screen, in viewport pixels. */
export interface Box {
  top: number;
  left: number;
  right: number;
  bottom: number;
}

/** Distances of the request's place from the viewport's edges. */
export interface Insets {
  top: number;
  left: number;
  right: number;
  bottom: number;
}

/**
 * Where a request goes: over the main area (beside the sidebar), on the side of the field the
 * person types in (the task box) that has more room, so that field stays in view and in reach.
 */
export function placeRequest(viewport: { width: number; height: number }, area: Box | null, field: Box | null, margin = 12): Insets {
  // Plain copies: a DOMRect's sides are getters, which spreading would drop.
  const base: Box = area
    ? { top: area.top, left: area.left, right: area.right, bottom: area.bottom }
    : { top: 0, left: 0, right: viewport.width, bottom: viewport.height };
  let region = base;
  const overlaps = field && field.bottom > base.top && field.top < base.bottom && field.right > base.left && field.left < base.right;
  if (field && overlaps) {
    const above = field.top - base.top;
    const below = base.bottom - field.bottom;
    region = above >= below ? { ...base, bottom: field.top } : { ...base, top: field.bottom };
  }
  return {
    top: Math.max(0, region.top) + margin,
    left: Math.max(0, region.left) + margin,
    right: Math.max(0, viewport.width - region.right) + margin,
    bottom: Math.max(0, viewport.height - region.bottom) + margin,
  };
}

/** The field to keep clear: the one the person types in, else the task box. */
function typingField(): Element | null {
  const active = document.activeElement;
  if (active && !active.closest(REQUEST_REGION) && isEditable(active)) return active.closest('.task-box, form') ?? active;
  return document.querySelector('.app-body > main .task-box');
}

/**
 * Keeps the request's layer clear of the field the person types in, as the window, the layout and
 * the field change. It sets CSS variables on the layer; nothing re-renders.
 */
export function useRequestPlacement(layer: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    let last = '';
    function place() {
      const element = layer.current;
      if (!element) return;
      const insets = placeRequest(
        { width: window.innerWidth, height: window.innerHeight },
        document.querySelector('.app-body > main')?.getBoundingClientRect() ?? null,
        typingField()?.getBoundingClientRect() ?? null,
      );
      const key = `${insets.top},${insets.left},${insets.right},${insets.bottom}`;
      if (key === last) return;
      last = key;
      for (const side of ['top', 'left', 'right', 'bottom'] as const) element.style.setProperty(`--request-${side}`, `${insets[side]}px`);
    }
    place();
    // The layout moves without telling anyone (a session switched, the terminal opened, the box grew):
    // a cheap look now and then, and at once on the events that usually move it.
    const timer = setInterval(place, 300);
    window.addEventListener('resize', place);
    document.addEventListener('focusin', place);
    document.addEventListener('input', place, true);
    return () => {
      clearInterval(timer);
      window.removeEventListener('resize', place);
      document.removeEventListener('focusin', place);
      document.removeEventListener('input', place, true);
    };
  }, [layer]);
}

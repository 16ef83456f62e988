import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { keyStep } from './paneSizes';

interface SplitterProps {
  /** 'vertical': a bar between side-by-side panes, dragged left and right. */
  orientation: 'vertical' | 'horizontal';
  /** What it resizes, for a screen reader and the tooltip: "Resize the sidebar". */
  label: string;
  /** The pane's size now, in pixels (0 before it is laid out). */
  measure(): number;
  /** The size the pane may have, from the container's size now. */
  bounds(): { min: number; max: number };
  /** +1 when moving the pointer right (or down) grows the pane, -1 when it shrinks it. */
  direction: 1 | -1;
  onResize(size: number): void;
  /** Double click: back to the default size. */
  onReset(): void;
  testId: string;
}

/**
 * The bar between two panes: drag it, or focus it and use the arrow keys (Shift: bigger steps, Home
 * and End: smallest and largest), or double-click it for the default size. It is a focusable
 * separator with its value, as the WAI-ARIA window splitter pattern describes.
 */
export function Splitter({ orientation, label, measure, bounds, direction, onResize, onReset, testId }: SplitterProps) {
  const drag = useRef<{ start: number; size: number } | null>(null);
  const element = useRef<HTMLDivElement>(null);
  const coordinate = (event: PointerEvent) => (orientation === 'vertical' ? event.clientX : event.clientY);

  function resize(size: number) {
    const { min, max } = bounds();
    const next = Math.round(Math.max(min, Math.min(max, size)));
    onResize(next);
    element.current?.setAttribute('aria-valuenow', String(next));
  }

  function handlePointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { start: coordinate(event), size: measure() };
  }
  function handlePointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!drag.current) return;
    resize(drag.current.size + direction * (coordinate(event) - drag.current.start));
  }
  function handlePointerUp(event: PointerEvent<HTMLDivElement>) {
    if (!drag.current) return;
    drag.current = null;
    event.currentTarget.releasePointerCapture(event.pointerId);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const grow = orientation === 'vertical' ? (direction === 1 ? 'ArrowRight' : 'ArrowLeft') : direction === 1 ? 'ArrowDown' : 'ArrowUp';
    const shrink = orientation === 'vertical' ? (direction === 1 ? 'ArrowLeft' : 'ArrowRight') : direction === 1 ? 'ArrowUp' : 'ArrowDown';
    const { min, max } = bounds();
    let next: number | null = null;
    if (event.key === grow) next = measure() + keyStep(event.shiftKey);
    else if (event.key === shrink) next = measure() - keyStep(event.shiftKey);
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End') next = max;
    if (next === null) return;
    event.preventDefault();
    resize(next);
  }

  // Before the panes are laid out these read 0; they are set again on the first move.
  const { min, max } = bounds();
  return (
    <div
      ref={element}
      className={`splitter splitter-${orientation}`}
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={measure()}
      tabIndex={0}
      title={`${label}: drag, or use the arrow keys; double-click for the default size`}
      data-testid={testId}
      onPointerDown={handlePointerDown}
      onPointerMove={handlePointerMove}
      onPointerUp={handlePointerUp}
      onPointerCancel={handlePointerUp}
      onKeyDown={handleKeyDown}
      onDoubleClick={onReset}
    />
  );
}

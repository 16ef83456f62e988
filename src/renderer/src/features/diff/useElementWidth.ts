import { useLayoutEffect, useState, type RefObject } from 'react';

/** An element's width in CSS pixels, followed as it changes (null until it is laid out). */
export function useElementWidth(element: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return undefined;
    setWidth(Math.round(target.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

import { useEffect } from 'react';
import { useApp } from '../stores/useApp';

/** "(2 waiting) Tether": the taskbar says a session needs the person even when the window is behind others. */
export function useWindowTitle(): void {
  const waiting = useApp((state) => state.inbox.length);
  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting} waiting) Tether` : 'Tether';
  }, [waiting]);
}

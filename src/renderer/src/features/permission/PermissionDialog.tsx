import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../stores/useApp';
import { selectCurrentApproval } from '../../stores/selectors';
import { ApprovalDialog } from './ApprovalDialog';

/**
 * The "Permission required" dialog for the oldest request waiting in any session, one at a time,
 * in order. Focus moves into it only once it is on screen, and goes back where it was (the task
 * box, say) when the queue is empty.
 */
export function PermissionDialog() {
  const current = useApp(useShallow(selectCurrentApproval));
  const lastOutside = useRef<HTMLElement | null>(null);
  const showing = current !== null;

  // Where the person was before a dialog took focus: where focus goes back when none is left.
  useEffect(() => {
    function handleFocusIn(event: FocusEvent) {
      if (event.target instanceof HTMLElement && !event.target.closest('[role="dialog"]')) lastOutside.current = event.target;
    }
    document.addEventListener('focusin', handleFocusIn);
    return () => document.removeEventListener('focusin', handleFocusIn);
  }, []);

  useEffect(() => {
    if (showing) return;
    const target = lastOutside.current;
    if (target?.isConnected && document.activeElement === document.body) target.focus();
  }, [showing]);

  if (!current) return null;
  return <ApprovalDialog key={current.entry.approvalId} current={current} />;
}

import { useCallback, useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../stores/useApp';
import { selectCurrentApproval } from '../../stores/selectors';
import { ApprovalDialog } from './ApprovalDialog';
import { installTypingGuard, reachKeys, REQUEST_REGION } from './typingGuard';

/**
 * The "Permission required" request for the oldest one waiting in any session, one at a time, in
 * order. It never takes focus and never blocks the rest of the window: it is announced (politely,
 * so a screen reader does not cut into typing) and says how to reach it. After a request answered
 * from the keyboard, focus goes back where the person was (the task box, say).
 */
export function PermissionDialog() {
  const current = useApp(useShallow(selectCurrentApproval));
  const lastOutside = useRef<HTMLElement | null>(null);

  // The guard needs to know about typing before any request appears.
  useEffect(() => installTypingGuard(), []);

  // Where the person was outside any request: where focus goes back to.
  useEffect(() => {
    function handleFocusIn(event: FocusEvent) {
      if (event.target instanceof HTMLElement && !event.target.closest(REQUEST_REGION)) lastOutside.current = event.target;
    }
    document.addEventListener('focusin', handleFocusIn);
    return () => document.removeEventListener('focusin', handleFocusIn);
  }, []);

  const returnFocus = useCallback(() => {
    const target = lastOutside.current?.isConnected ? lastOutside.current : document.querySelector<HTMLElement>('[data-testid="task-box"]');
    if (target) target.focus();
    else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  }, []);

  const announcement = current ? `Permission required: ${current.approval.tool}, ${current.approval.summary}. Press ${reachKeys.first} to answer.` : '';
  return (
    <>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="permission-announcer">
        {announcement}
      </p>
      {current && <ApprovalDialog key={current.entry.approvalId} current={current} returnFocus={returnFocus} />}
    </>
  );
}

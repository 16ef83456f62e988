import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../stores/useApp';
import { selectSessionApproval } from '../../stores/selectors';
import { ApprovalDialog } from './ApprovalDialog';

/**
 * The permission request of the session in view, docked between its conversation and its task box.
 * One at a time: the oldest, or the one the person picked from the inbox; the others wait in the
 * inbox, and Next goes through them, in this session and the others.
 */
export function SessionRequest({ sessionId }: { sessionId: string }) {
  const current = useApp(useShallow((state) => selectSessionApproval(state, sessionId)));
  if (!current) return null;
  return (
    <div className="session-request" data-testid="session-request">
      <ApprovalDialog key={current.entry.approvalId} current={current} />
    </div>
  );
}

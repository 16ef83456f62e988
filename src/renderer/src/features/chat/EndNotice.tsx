import { useApp } from '../../stores/useApp';
import { statusLabel } from '../../stores/selectors';

/** Why the session stopped, when it did not simply answer. */
export function EndNotice({ sessionId }: { sessionId: string }) {
  const status = useApp((state) => state.logs[sessionId]?.state.status);
  const reason = useApp((state) => state.logs[sessionId]?.state.endReason);
  if (!status || !reason || status === 'working' || status === 'waiting' || status === 'new') return null;
  return (
    <div className={`end-notice status-${status}`} data-testid="end-notice" role="status">
      <span className="status-text">{statusLabel(status)}</span>
      {status !== 'done' && <span>: {reason}</span>}
    </div>
  );
}

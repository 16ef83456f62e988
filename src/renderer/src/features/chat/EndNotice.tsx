import { useApp } from '../../stores/useApp';

/** The session answered. Other stops are kept where they happened (EndingNotice). */
export function EndNotice({ sessionId }: { sessionId: string }) {
  const status = useApp((state) => state.logs[sessionId]?.state.status);
  if (status !== 'done') return null;
  return (
    <div className="end-notice status-done" data-testid="end-notice" role="status">
      <span className="status-text">done</span>
    </div>
  );
}

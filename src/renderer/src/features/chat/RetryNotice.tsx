import { useEffect, useState } from 'react';
import { useApp } from '../../stores/useApp';
import { useNow } from '../../lib/useNow';
import { retryLabel } from './failureText';
import './failure.css';

/** While a model request is tried again: which try, out of how many, how long until it, and why. */
export function RetryNotice({ sessionId }: { sessionId: string }) {
  const retrying = useApp((state) => state.logs[sessionId]?.state.retrying);
  // The countdown runs from when this window heard of the retry: the two clocks need not agree.
  const [since, setSince] = useState(() => Date.now());
  useEffect(() => setSince(Date.now()), [retrying]);
  const now = useNow(250, retrying !== undefined);
  if (!retrying) return null;
  return (
    <div className="retry-notice" data-testid="retry-notice" role="status">
      <span className="status-dot" aria-hidden="true" />
      <strong>{retryLabel(retrying, retrying.delayMs - (now - since))}</strong>
      <span className="retry-reason">{retrying.reason}</span>
    </div>
  );
}

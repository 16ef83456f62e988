import type { PendingApproval } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';
import { formatAge } from '../../lib/format';
import { useNow } from '../../lib/useNow';

export function InboxItem({ entry }: { entry: PendingApproval }) {
  const summary = useApp((state) => state.logs[entry.sessionId]?.state.approvals[entry.approvalId]?.summary);
  const risk = useApp((state) => state.logs[entry.sessionId]?.state.approvals[entry.approvalId]?.risk);
  const selectSession = useApp((state) => state.selectSession);
  const now = useNow(30_000);

  function handleOpen() {
    selectSession(entry.sessionId);
  }

  return (
    <li data-testid="inbox-item" data-approval-id={entry.approvalId} data-session-id={entry.sessionId}>
      <button type="button" className={`inbox-item${risk ? ` risk-${risk}` : ''}`} onClick={handleOpen}>
        <span className="inbox-summary">{summary ?? 'Loading the request…'}</span>
        <span className="inbox-meta faint">
          {entry.sessionTitle || 'Untitled session'} · {formatAge(entry.askedAt, now)}
        </span>
      </button>
    </li>
  );
}

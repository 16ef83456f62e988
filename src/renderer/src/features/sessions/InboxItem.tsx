import type { PendingApproval } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';
import { formatAge } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { partRiskLabels } from '../../../../shared/commandParts';
import { toolTraits } from '../../../../shared/toolCatalog';
import { requestRisk, toolRiskLabels } from '../permission/requestRisk';

/** One waiting request: what it is, how risky, where and since when; opening it goes to it in its session. */
export function InboxItem({ entry }: { entry: PendingApproval }) {
  const approval = useApp((state) => state.logs[entry.sessionId]?.state.approvals[entry.approvalId]);
  const sessionTitle = useApp((state) => state.sessions[entry.sessionId]?.title || entry.sessionTitle || 'Untitled session');
  const shown = useApp(
    (state) =>
      state.view === 'main' &&
      state.selectedSessionId === entry.sessionId &&
      (state.pickedApprovals[entry.sessionId] ?? state.inbox.find((other) => other.sessionId === entry.sessionId)?.approvalId) ===
        entry.approvalId,
  );
  const runner = useApp((state) => state.sessions[entry.sessionId]?.remote?.runner ?? entry.runner);
  const openApproval = useApp((state) => state.openApproval);
  const now = useNow(30_000);
  // The same risk the request shows: a command's riskiest part, else the tool's.
  const risk = approval ? requestRisk(approval) : undefined;
  const riskWords = risk ? (risk.part ? partRiskLabels[risk.part] : toolRiskLabels[risk.colour]) : undefined;

  return (
    <li
      data-testid="inbox-item"
      data-approval-id={entry.approvalId}
      data-session-id={entry.sessionId}
      data-risk={risk?.part ?? risk?.colour}
    >
      <button
        type="button"
        className={`inbox-item${risk ? ` risk-${risk.colour}` : ''}${shown ? ' shown' : ''}`}
        aria-current={shown ? 'true' : undefined}
        title="Open this request in its session"
        onClick={() => openApproval(entry, { reach: true })}
      >
        {/* What is asked comes first and wraps to two lines (a narrow sidebar cut it to "echo hi > /…"); all of it is the title. */}
        <span
          className={`inbox-summary${approval && toolTraits(approval.tool)?.rules === 'command' ? ' mono' : ''}`}
          title={approval?.summary}
          data-testid="inbox-summary"
        >
          {approval?.summary ?? 'Loading the request…'}
        </span>
        <span className="inbox-meta faint">
          {riskWords && <span className="inbox-risk">{riskWords}</span>}
          <span className="inbox-age">{formatAge(entry.askedAt, now)}</span>
        </span>
        <span className="inbox-meta faint">
          {approval && <span className="mono inbox-tool">{approval.tool}</span>}
          {runner && (
            <span className="inbox-runner" data-testid="inbox-runner">
              {runner}
            </span>
          )}
          <span className="inbox-session" title={sessionTitle}>
            {sessionTitle}
          </span>
        </span>
      </button>
    </li>
  );
}

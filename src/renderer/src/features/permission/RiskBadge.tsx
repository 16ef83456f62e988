import { partRiskLabels } from '../../../../shared/commandParts';
import type { ApprovalView } from '../../../../shared/session';
import { requestRisk, toolRiskLabels } from './requestRisk';

/** The request's risk: a command's riskiest part ("sends data out"), else the tool's ("edit · changes files"). */
export function RiskBadge({ approval }: { approval: Pick<ApprovalView, 'risk' | 'parts'> }) {
  const risk = requestRisk(approval);
  if (risk.part) {
    return (
      <span
        className={`risk-badge risk-${risk.colour}`}
        data-testid="permission-risk"
        data-risk={approval.risk}
        data-part-risk={risk.part}
        title="What the riskiest part of the command does"
      >
        {partRiskLabels[risk.part]}
      </span>
    );
  }
  return (
    <span className={`risk-badge risk-${risk.colour}`} data-testid="permission-risk" data-risk={approval.risk}>
      {approval.risk} · {toolRiskLabels[approval.risk]}
    </span>
  );
}

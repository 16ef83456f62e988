import { highestPartRisk, type PartRisk } from '../../../../shared/commandParts';
import type { Risk } from '../../../../shared/permissions';
import type { ApprovalView } from '../../../../shared/session';
import { argsObject, stringArg } from '../../lib/toolArgs';

/**
 * How risky a request looks to a person: for a command, its riskiest part (what main worked out for
 * each part), else the tool's own risk. Display only: the engine decided whether to ask.
 */

/** The tool's risk, in words, for requests without parts. */
export const toolRiskLabels: Record<Risk, string> = {
  none: 'no risk',
  read: 'reads files',
  edit: 'changes files',
  exec: 'runs a command',
  egress: 'sends data out',
};

/** The colour family (the `risk-*` classes) a part's risk is drawn in. */
const partRiskColours: Record<PartRisk, Risk> = { reads: 'read', writes: 'edit', runs: 'exec', deletes: 'egress', sends: 'egress' };

export interface RequestRisk {
  /** The `risk-*` class: the colour the request and its badge are drawn in. */
  colour: Risk;
  /** The riskiest part's risk, for a command with parts. */
  part?: PartRisk;
}

export function requestRisk(approval: Pick<ApprovalView, 'risk' | 'parts'>): RequestRisk {
  const part = approval.parts ? highestPartRisk(approval.parts) : undefined;
  return part ? { colour: partRiskColours[part], part } : { colour: approval.risk };
}

/**
 * The request's one-line summary. A command is shown whole, once, in its own block below; the line
 * above it only says what kind of request this is, so the command is not printed twice.
 */
export function requestSummary(approval: Pick<ApprovalView, 'args' | 'summary'>): string {
  const args = argsObject(approval.args);
  const command = stringArg(args, 'command');
  if (command === undefined) return approval.summary;
  const cwd = stringArg(args, 'cwd');
  return cwd && cwd !== '.' ? `wants to run the command below, in ${cwd}` : 'wants to run the command below';
}

import type { PolicyAction } from '../../shared/permissions';
import type { AnyTool } from '../tools/defineTool';

/** What the policy is asked: one validated tool call. */
export interface PermissionQuery {
  sessionId: string;
  callId: string;
  tool: AnyTool;
  args: unknown;
}

export interface PolicyVerdict {
  action: PolicyAction;
  /** Why, in words a person (and the model, for a denial) can read. */
  reason: string;
  /** The rule that decided, written as the person would write it; undefined for a built-in default. */
  rule?: string;
}

export interface Policy {
  evaluate(query: PermissionQuery): PolicyVerdict;
}

/**
 * The foundation's stop-gap: tools that only read (or only record the plan) run; everything else asks.
 * The permissions engine (rules, modes, shell analysis, taint) replaces it behind the same interface.
 */
export const askUnlessReadOnly: Policy = {
  evaluate({ tool }) {
    if (tool.risk === 'none' || tool.risk === 'read') {
      return { action: 'allow', reason: `${tool.name} only reads the workspace.` };
    }
    return { action: 'ask', reason: `${tool.name} can ${riskVerb[tool.risk]}; a person decides.` };
  },
};

const riskVerb = {
  none: 'do nothing harmful',
  read: 'read files',
  edit: 'change files',
  exec: 'run programs',
  egress: 'send data out',
} as const;

/**
 * What a hook said about a call, as the approval gate weighs it (deny beats ask beats allow). The gate
 * defines it and hooks/ answer in it, so the policy does not depend on how hooks are run.
 */
export interface HookDecision {
  action: 'allow' | 'ask' | 'deny';
  reason?: string;
}

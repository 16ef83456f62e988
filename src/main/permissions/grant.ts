import type { Scope } from '../../shared/permissions';

/** A rule a person created with "Allow always", checked against what the request offered. */
export interface Grant {
  approvalId: string;
  rule: string;
  scope: Exclude<Scope, 'once'>;
}

/** Keeps the grants a session's people give: stores each and puts it in force (sessionPermissions.ts). */
export interface GrantKeeper {
  remember(grant: Grant): void;
}

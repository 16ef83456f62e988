import type { PolicyAction, RuleSource } from '../../shared/permissions';
import type { PermissionTool } from './permissionSubject';
import type { CommandPart } from '../../shared/commandParts';

/**
 * The permission policy as its callers see it (the runner, the approval gate, `permissions explain`):
 * what it is asked, what it answers, and the interface that answers. The policy itself, the rules and
 * their precedence, is engine.ts (its ladder: decisionLadder.ts).
 */

/** What the policy is asked: one validated tool call. */
export interface PermissionQuery {
  sessionId: string;
  callId: string;
  tool: PermissionTool;
  args: unknown;
  /**
   * Why the session holds outside content (a web page, an MCP result...), once it does. While set,
   * actions that can send data out ask first (or are blocked), whatever the rules allow.
   */
  taint?: string;
  /** For an MCP tool: its server marks it read-only (it cannot change anything or send data out). */
  mcpReadOnly?: boolean;
}

/** What "Allow always" would create for an ask: a rule the dialog shows (and lets the person narrow), or why not. */
export type AllowAlwaysOffer = { rule: string } | { refused: string };

export interface PolicyVerdict {
  action: PolicyAction;
  /** Why, in words a person (and the model, for a denial) can read. */
  reason: string;
  /** The rule that decided, written as the person would write it; undefined for a built-in default. */
  rule?: string;
  /** Where the deciding rule came from. */
  source?: RuleSource;
  /** An ask by the managed policy's rule: only a person answers it (a headless run denies it, --unleashed or not). */
  managedAsk?: true;
  /** For run_command: the simple commands found (argv, wrappers stripped); null when the command cannot be pinned down. */
  commands?: string[][] | null;
  /** For run_command that could be pinned down: what each part does, in words (explanation only; the verdict does not read it). */
  parts?: CommandPart[];
  /** For an ask: the rule "Allow always" would create, or why it is not offered. Absent for allow and deny. */
  allowAlways?: AllowAlwaysOffer;
  /** The session's taint, when the outside-content gate decided this verdict. */
  taint?: string;
  /**
   * The call can send data out or bring outside content in (a fetch, a command that may reach the
   * network, a command that cannot be pinned down): what it brings back taints the session.
   */
  egress?: boolean;
  /**
   * For a command: a file or folder it names for reading outside the workspace (or only known when it
   * runs), as written. What such a command prints is outside content: it taints the session.
   */
  readsOutside?: string;
  /**
   * For a command: the files its redirections write outside the workspace (and the fence's other
   * places), as written. Inside the sandbox such a write fails; allowed by a person, it runs outside.
   */
  writesOutside?: string[];
}

export interface Policy {
  evaluate(query: PermissionQuery): PolicyVerdict;
  /**
   * A connection a running command makes to a host its sandbox fence does not allow: the deny rules on
   * domains (`fetch_url(domain:…)`) and the outside-content gate decide it as they decide a fetch.
   * Deny means refused without asking; anything else asks the person (the fence is not a rule).
   */
  evaluateHost?(host: string, taint?: string): Pick<PolicyVerdict, 'action' | 'reason' | 'rule'>;
}

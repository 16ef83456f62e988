import { z } from 'zod';
import type { QuarantinedRepository } from '../../shared/events';
import type { FileChange } from '../../shared/fileChange';
import type { Json } from '../../shared/json';
import type { Risk } from '../../shared/permissions';
import type { PlanStep } from '../../shared/plan';
import type { SandboxNote } from '../../shared/sandbox';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import type { PermissionSubject } from '../permissions/permissionSubject';
import type { FollowUpAnswer, FollowUpQuestion, NetworkAnswer, NetworkQuestion } from '../permissions/questions';
import type { Workspace } from '../workspace/workspace';
import type { Terminal } from '../terminal/terminal';

/**
 * A tool is its name, its long description (a .txt beside it), a zod schema for its arguments, its
 * risk, and what it does. Everything every tool needs (validation, the permission gate, the ledger,
 * timeouts, trimming) lives once in execute.ts.
 */

export interface ToolContext {
  workspace: Workspace;
  terminal: Terminal;
  sessionId: string;
  callId: string;
  /** Aborted when the person stops the session or the call times out. */
  signal: AbortSignal;
  /** Streams output while the tool runs (the UI's terminal and tool card). */
  onOutput(chunk: string): void;
  /** Records the plan (update_plan). */
  setPlan(steps: PlanStep[]): void;
  /** False for a file the permission rules keep from being read: tools that read many files leave it out. */
  canRead(absolutePath: string): boolean;
  /** The OS sandbox commands run in. Every host sets it; only tests of other tools leave it out. */
  sandbox?: CommandSandbox;
  /**
   * Asks the person a second question within this call, recorded as its own approval (allowed once at
   * most, never "always"): whether to run a command again outside the sandbox, say.
   */
  confirm?(question: FollowUpQuestion): Promise<FollowUpAnswer>;
  /**
   * Asks the person, while a command runs, whether it may connect to a host its fence does not allow:
   * its own approval in the log, answered Allow once, Allow always (the host joins the project's
   * fence; never offered while the session is tainted) or Deny. The call's timeout stands still while it waits.
   */
  askNetwork?(question: NetworkQuestion): Promise<NetworkAnswer>;
  /** The dialog that allowed this call already said this about the sandbox (no sandbox available): no need to ask again. */
  approvedWith?: SandboxNote;
  /** Logs that a git repository a command left was made harmless (`repository.quarantined`, shown on the tool card). */
  quarantined?(repository: QuarantinedRepository): void;
  /**
   * The person allowed this call on a request that showed a diff against the file with this hash
   * (FileChange.hash): a tool that writes the file refuses when it no longer has it.
   */
  approvedFile?: { hash: string };
}

export interface ToolResult {
  /** One line for the tool card: what happened. */
  title: string;
  /** The whole output; the model gets a trimmed copy. */
  output: string;
  /** The call ran but failed (a non-zero exit, say): the model should read the output. */
  isError?: boolean;
  metadata?: Json;
}

// The error the tools throw and the subject the rules read live in lower layers; tools name them from here.
export { ToolError } from '../../shared/toolError';
export type { PermissionSubject } from '../permissions/permissionSubject';
export type { FollowUpAnswer, FollowUpQuestion, NetworkAnswer, NetworkQuestion } from '../permissions/questions';

export interface Tool<Args = unknown> {
  name: string;
  description: string;
  risk: Risk;
  parameters: z.ZodType<Args>;
  /** One line for a person deciding whether to allow the call. */
  summarize(args: Args): string;
  /** What rules match against; a tool without it is matched by name only. */
  subject?(args: Args): PermissionSubject;
  /**
   * For a call that changes a file: the file around the change as it is now, so the request shows
   * the change as a diff against it. Undefined when the call will fail anyway (its error says why).
   */
  preview?(args: Args, workspace: Workspace): Promise<FileChange | undefined>;
  /**
   * Why this call's result is outside content (a web page, an MCP result, a dependency's file), if it
   * is: the session is then tainted and actions that can send data out ask first.
   */
  taints?(args: Args): string | undefined;
  /** The JSON schema the model is shown, for a tool that brings its own (an MCP server's); else derived from `parameters`. */
  inputSchema?: Record<string, unknown>;
  /** An MCP tool whose read-only annotation the person trusts: the engine treats it as reading, not as egress. */
  mcpReadOnly?: boolean;
  execute(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * A tool whose argument type is forgotten, so tools of different shapes share one list. Its
 * arguments are only ever the output of its own `parameters` schema (execute.ts validates first).
 */
export interface AnyTool {
  name: string;
  description: string;
  risk: Risk;
  parameters: z.ZodType<unknown>;
  summarize(args: never): string;
  subject?(args: never): PermissionSubject;
  preview?(args: never, workspace: Workspace): Promise<FileChange | undefined>;
  taints?(args: never): string | undefined;
  inputSchema?: Record<string, unknown>;
  mcpReadOnly?: boolean;
  execute(args: never, ctx: ToolContext): Promise<ToolResult>;
}

export function defineTool<Args>(tool: {
  name: string;
  description: string;
  risk: Risk;
  parameters: z.ZodType<Args>;
  summarize: (args: Args) => string;
  subject?: (args: Args) => PermissionSubject;
  preview?: (args: Args, workspace: Workspace) => Promise<FileChange | undefined>;
  taints?: (args: Args) => string | undefined;
  execute: (args: Args, ctx: ToolContext) => Promise<ToolResult>;
}): Tool<Args> {
  return tool;
}

import type { Json } from '../../shared/json';
import type { Answerer } from '../../shared/permissions';
import type { SandboxNote } from '../../shared/sandbox';

/**
 * The questions a tool asks the person while its call runs, and their answers. The approval gate
 * (approvalGate.ts) asks them; a tool reaches it through its context (tools/defineTool.ts).
 */

/** A second question a tool asks within its call. */
export interface FollowUpQuestion {
  /** One line: what will happen if the person allows it. */
  summary: string;
  /** The question, in words a person can read. */
  reason: string;
  args: Json;
  sandbox: SandboxNote;
}

/** A running command connects to a host its fence does not allow. */
export interface NetworkQuestion {
  host: string;
  port: number;
  /** The command line, as the person allowed it. */
  command: string;
  args: Json;
  /** Aborted when the command ended before anyone answered: the question is withdrawn. */
  signal: AbortSignal;
}

export interface NetworkAnswer {
  allowed: boolean;
  /** The person chose "Allow always", and this entry joined the project's fence (the gate keeps it). */
  always?: string;
  /** What the person (or the headless stand-in) said with a denial. */
  message?: string;
  /** Who answered: the person, the headless stand-in, or the policy (the command ended first). */
  by?: Answerer;
}

export interface FollowUpAnswer {
  allowed: boolean;
  /** What the person (or the headless stand-in) told the model with a denial. */
  message?: string;
}

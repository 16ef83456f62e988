import { z } from 'zod';
import { ConversationItem, ToolCallItem, Usage } from './conversation';
import { Json } from './json';
import { Decision, Risk } from './permissions';
import { PlanStep } from './plan';

/**
 * The session log's vocabulary. Every fact is appended to SQLite before anyone acts on it, and the
 * session's state is a fold over these events (see session.ts). Names are facts in the past tense.
 */

/** The session began; the model is pinned here for the rest of its life. */
export const SessionStarted = z.object({
  type: z.literal('session.started'),
  workspace: z.string(),
  model: z.string(),
  api: z.enum(['responses', 'chat']),
  baseUrl: z.string(),
  maxSteps: z.number().int().positive(),
});

/** A process picked the session up again after it had stopped (restart, crash, `--session`). */
export const SessionResumed = z.object({ type: z.literal('session.resumed') });

/** The person said something: the task, or a message while the agent works. */
export const UserMessaged = z.object({ type: z.literal('user.messaged'), text: z.string() });

/** A model request went out; `step` counts them from 1. */
export const ModelRequested = z.object({ type: z.literal('model.requested'), step: z.number().int().positive() });

/** A request failed in a way worth another try; whatever it streamed so far is void. */
export const ModelRetrying = z.object({
  type: z.literal('model.retrying'),
  attempt: z.number().int().positive(),
  delayMs: z.number().nonnegative(),
  reason: z.string(),
});

/** The model finished a response: what it said, thought and asked for. */
export const ModelResponded = z.object({
  type: z.literal('model.responded'),
  items: z.array(ConversationItem),
  usage: Usage,
});

/** The permission engine could not decide alone and asked a person (or the headless stand-in). */
export const ApprovalAsked = z.object({
  type: z.literal('approval.asked'),
  approvalId: z.string(),
  callId: z.string(),
  tool: z.string(),
  risk: Risk,
  /** One line a person can read: what will happen if they allow it. */
  summary: z.string(),
  args: Json,
  /** Why the engine asked. */
  reason: z.string().optional(),
  /** The simple commands found in a run_command, wrappers stripped; null when it could not be pinned down. */
  commands: z.array(z.array(z.string())).nullable().optional(),
  /** The rule "Allow always" would create (editable), or why it is not offered. */
  allowAlways: z.union([z.object({ rule: z.string() }), z.object({ refused: z.string() })]).optional(),
  /** Why the session counts as tainted, when the taint gate is why it asks. */
  taint: z.string().optional(),
});

export const ApprovalAnswered = z.object({
  type: z.literal('approval.answered'),
  approvalId: z.string(),
  callId: z.string(),
  decision: Decision,
});

/** Ledger: the tool is about to run. Written before it runs, so a crash leaves a trace. */
export const ToolStarted = z.object({
  type: z.literal('tool.started'),
  callId: z.string(),
  name: z.string(),
  args: Json,
});

export const ToolOutcome = z.enum(['ok', 'error', 'denied', 'unknown', 'aborted']);
export type ToolOutcome = z.infer<typeof ToolOutcome>;

/**
 * Ledger: the call is over. `output` is the whole text (the UI shows it); the model gets a trimmed
 * copy. A call can finish without having started (bad arguments, denial).
 */
export const ToolFinished = z.object({
  type: z.literal('tool.finished'),
  callId: z.string(),
  name: z.string(),
  outcome: ToolOutcome,
  title: z.string(),
  output: z.string(),
  durationMs: z.number().nonnegative(),
  metadata: Json.optional(),
});

/**
 * The session read outside content (a web page, an MCP result, a dependency's file). From now on,
 * actions that can send data out ask first.
 */
export const SessionTainted = z.object({
  type: z.literal('session.tainted'),
  callId: z.string(),
  reason: z.string(),
});

export const PlanUpdated = z.object({ type: z.literal('plan.updated'), steps: z.array(PlanStep) });

export const SessionEndStatus = z.enum(['done', 'max_steps', 'failed', 'aborted']);
export type SessionEndStatus = z.infer<typeof SessionEndStatus>;

/** The loop stopped. `done` means the model answered; the others say why it did not. */
export const SessionFinished = z.object({
  type: z.literal('session.finished'),
  status: SessionEndStatus,
  reason: z.string(),
});

export const SessionEvent = z.discriminatedUnion('type', [
  SessionStarted,
  SessionResumed,
  UserMessaged,
  ModelRequested,
  ModelRetrying,
  ModelResponded,
  ApprovalAsked,
  ApprovalAnswered,
  ToolStarted,
  ToolFinished,
  SessionTainted,
  PlanUpdated,
  SessionFinished,
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
export type SessionEventType = SessionEvent['type'];
export type EventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;

/** An event as the log holds it. */
export const StoredEvent = z.object({
  sessionId: z.string(),
  seq: z.number().int().positive(),
  at: z.number(),
  event: SessionEvent,
});
export type StoredEvent = z.infer<typeof StoredEvent>;

/**
 * What happens too often, or matters too briefly, to be kept: streamed text and terminal bytes.
 * The log keeps their sum (the finished response, the tool's output).
 */
export const LiveEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('model.text_delta'), sessionId: z.string(), text: z.string() }),
  z.object({ type: z.literal('model.reasoning_delta'), sessionId: z.string(), text: z.string() }),
  z.object({ type: z.literal('tool.output'), sessionId: z.string(), callId: z.string(), chunk: z.string() }),
]);
export type LiveEvent = z.infer<typeof LiveEvent>;

export type { ToolCallItem };

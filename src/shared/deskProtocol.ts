import { z } from 'zod';
import { Json } from './json';
import { Scope } from './permissions';
import { StoredEvent } from './events';

/**
 * What a remote run (`tether run --desk URL`) and the desk it reports to (`tether serve
 * --remote-runs`, or the app with Settings → Remote runs on) say to each other, over one WebSocket
 * the runner opens. docs/DESK_PROTOCOL.md describes it for people; this file is what both ends import.
 *
 * The runner proves who it is before the upgrade (its token in `Authorization`, its protocol version
 * in a header), so a refusal is an HTTP answer with a `DeskRefusal` body, and every frame after that
 * comes from a runner the desk knows by name. The runner only ever reports (its registration, its own
 * session's events, which answers it took); the desk only ever answers (its own mirror of the run,
 * the person's answers, the rules the person gave this runner, a stop). Neither side can ask the other
 * to run anything, and no message names another runner's run.
 */

/** The version both ends speak. A desk refuses every other one before the upgrade (HTTP 426). */
export const DESK_PROTOCOL_VERSION = 1;

/** Where the desk upgrades a runner's connection. */
export const DESK_RUNNER_PATH = '/runner';

/** The request header that carries the runner's protocol version. */
export const DESK_PROTOCOL_HEADER = 'tether-desk-protocol';

/** The port a desk listens on unless told otherwise. */
export const DEFAULT_DESK_PORT = 7717;

/** The largest frame either end reads; a batch of events is cut to stay well under it. */
export const DESK_MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** The most events one `events` frame carries. */
export const DESK_MAX_EVENTS_PER_FRAME = 500;

/** Why the desk refused a runner before the upgrade, as the JSON body of its HTTP answer. */
export const DeskRefusalCode = z.enum(['bad_token', 'revoked_token', 'protocol', 'closed', 'busy']);
export type DeskRefusalCode = z.infer<typeof DeskRefusalCode>;

export const DeskRefusal = z.object({ code: DeskRefusalCode, message: z.string().max(2000) });
export type DeskRefusal = z.infer<typeof DeskRefusal>;

/** A run's id, chosen by the runner once per run and kept across reconnects: its mirror at the desk is found by it. */
const RunId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'a run id is 8 to 64 letters, digits, - or _');

/** A short line the person reads in the sidebar: one line, no control characters. */
const Label = z
  .string()
  .max(300)
  .transform((text) => text.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').trim());

/** Who and where the run is, as the runner reports it. The runner's name is its token's, never its own claim. */
export const RunRegistration = z.object({
  runId: RunId,
  /** The machine's host name (a pod's name in Kubernetes). */
  machine: Label,
  /** The repository: its origin remote's address, else the workspace folder's name. */
  repository: Label,
  /** The branch checked out, or empty when detached or not a repository. */
  branch: Label,
  /** The workspace folder on the runner's machine: shown only, never a path on the desk's. */
  workspace: Label,
  tetherVersion: Label,
  /** How long the run waits for an answer before it denies (`--desk-wait`), in ms. */
  waitMs: z
    .number()
    .int()
    .positive()
    .max(7 * 24 * 3600 * 1000),
  /** The model the run talks to, shown beside it. */
  model: Label,
});
export type RunRegistration = z.infer<typeof RunRegistration>;

/** A rule "Allow always" gave this repository on this runner: kept by the desk, in force in each of its runs there. */
export const RunnerRule = z.object({ id: z.string().max(100), pattern: z.string().min(1).max(4000) });
export type RunnerRule = z.infer<typeof RunnerRule>;

/** The person's answer to one request, as the run takes it (`by` is always the person at the desk). */
export const DeskDecision = z.object({
  action: z.enum(['allow', 'deny']),
  scope: Scope,
  message: z.string().max(4000).optional(),
  rule: z.string().max(4000).optional(),
  editedArgs: Json.optional(),
});
export type DeskDecision = z.infer<typeof DeskDecision>;

/** What became of an answer at the run: taken now, taken before (a repeat after a reconnect), or too late. */
export const AnswerOutcome = z.enum(['applied', 'already', 'not_waiting']);
export type AnswerOutcome = z.infer<typeof AnswerOutcome>;

/** Runner → desk. */
export const RunnerMessage = z.discriminatedUnion('type', [
  /** First frame of every connection: which run this is. */
  z.object({ type: z.literal('register'), run: RunRegistration }),
  /** The run's own session events, in order, each once after the desk's `mirroredSeq`. */
  z.object({ type: z.literal('events'), events: z.array(StoredEvent).min(1).max(DESK_MAX_EVENTS_PER_FRAME) }),
  /** What the run did with an answer: the desk delivers an answer until it hears this. */
  z.object({ type: z.literal('answer.taken'), approvalId: z.string().max(200), outcome: AnswerOutcome }),
]);
export type RunnerMessage = z.infer<typeof RunnerMessage>;

/** Desk → runner. */
export const DeskMessage = z.discriminatedUnion('type', [
  /** The registration is taken: the run's mirror at the desk, how far it holds the log, and the rules in force. */
  z.object({
    type: z.literal('registered'),
    runner: z.string(),
    mirroredSeq: z.number().int().nonnegative(),
    rules: z.array(RunnerRule),
  }),
  /** The person answered one of the run's requests (its own approval id, as the run asked it). */
  z.object({ type: z.literal('answer'), approvalId: z.string().max(200), decision: DeskDecision }),
  /** The rules for this repository on this runner changed: the whole list now in force. */
  z.object({ type: z.literal('rules'), rules: z.array(RunnerRule) }),
  /** The person stopped the run at the desk. */
  z.object({ type: z.literal('stop'), reason: z.string().max(2000) }),
  /** The desk will not go on with this connection (a broken frame, a revoked token): why, before it closes. */
  z.object({ type: z.literal('refused'), code: z.string().max(100), message: z.string().max(2000) }),
]);
export type DeskMessage = z.infer<typeof DeskMessage>;

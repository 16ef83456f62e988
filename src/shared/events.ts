import { z } from 'zod';
import { CommandPart } from './commandParts';
import { FileChange } from './fileChange';
import { ConversationItem, ModelApi, ToolCallItem, Usage } from './conversation';
import { Json } from './json';
import { Decision, Risk, RuleSource } from './permissions';
import { PlanStep } from './plan';
import { SandboxNote } from './sandbox';
import { ScriptRun } from './scriptRun';

/**
 * The session log's vocabulary. Every fact is appended to SQLite before anyone acts on it, and the
 * session's state is a fold over these events (see session.ts). Names are facts in the past tense.
 */

/** The session began; the model is pinned here for the rest of its life. */
export const SessionStarted = z.object({
  type: z.literal('session.started'),
  workspace: z.string(),
  model: z.string(),
  api: ModelApi,
  baseUrl: z.string(),
  maxSteps: z.number().int().positive(),
});

/** A process picked the session up again after it had stopped (restart, crash, `--session`). */
export const SessionResumed = z.object({ type: z.literal('session.resumed') });

/** The person said something: the task, or a message while the agent works. */
export const UserMessaged = z.object({ type: z.literal('user.messaged'), text: z.string() });

/** A model request went out; `step` counts them from 1. */
export const ModelRequested = z.object({
  type: z.literal('model.requested'),
  step: z.number().int().positive(),
  /** The request's size in tokens as estimated before it went out (the last usage plus what came after it). */
  estimatedTokens: z.number().int().nonnegative().optional(),
  /** The model's context window, from settings or the built-in defaults, when known. */
  contextWindow: z.number().int().positive().optional(),
});

/** A request failed in a way worth another try; whatever it streamed so far is void. */
export const ModelRetrying = z.object({
  type: z.literal('model.retrying'),
  /** The attempt that failed (1-based); the next one is `attempt + 1`. */
  attempt: z.number().int().positive(),
  delayMs: z.number().nonnegative(),
  reason: z.string(),
  /** How many tries the policy allows in all, the first included; absent in logs written before it was recorded. */
  maxAttempts: z.number().int().positive().optional(),
});

/** What kind of failure ended a model request, as the model layer classifies it (see model/provider.ts). */
export const ModelFailureKind = z.enum([
  'auth',
  'not_found',
  'bad_request',
  'rate_limit',
  'server',
  'connection',
  'bad_response',
  'unsupported',
  'aborted',
]);
export type ModelFailureKind = z.infer<typeof ModelFailureKind>;

/** The model finished a response: what it said, thought and asked for. */
export const ModelResponded = z.object({
  type: z.literal('model.responded'),
  items: z.array(ConversationItem),
  usage: Usage,
  /** What the response cost in US dollars, from the price table at the time; absent when the model has no known price. */
  costUsd: z.number().nonnegative().optional(),
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
  /** The OS sandbox's part: the command hit its fence (run it again outside?), or no sandbox is available. */
  sandbox: SandboxNote.optional(),
  /** For a run_command that could be pinned down: each part with what it does (reads, changes files, runs code, deletes, sends data out). */
  parts: z.array(CommandPart).optional(),
  /** For an edit or a write: the file around the change as it is now, so the request shows a diff against it. */
  change: FileChange.optional(),
  /** For a command: what its scripts run (npm test's script, make's recipe, pytest's options), read from the workspace. */
  runs: z.array(ScriptRun).optional(),
});

export const ApprovalAnswered = z.object({
  type: z.literal('approval.answered'),
  approvalId: z.string(),
  callId: z.string(),
  decision: Decision,
  /**
   * When the person changed the call before allowing it (`decision.editedArgs`): one line of what they
   * allowed, as the tool sums it up. `approval.asked`'s summary stays what the model proposed.
   */
  editedSummary: z.string().optional(),
});

/** Ledger: the tool is about to run. Written before it runs, so a crash leaves a trace. */
export const ToolStarted = z.object({
  type: z.literal('tool.started'),
  callId: z.string(),
  name: z.string(),
  args: Json,
  /**
   * For a call that ran with no question asked: what let it (the engine's reason, and the rule with
   * where it came from when a rule did), so the audit can say who decided. Absent when a person or a
   * hook answered, and in logs written before it was recorded.
   */
  allowedBy: z.object({ reason: z.string(), rule: z.string().optional(), source: RuleSource.optional() }).optional(),
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
  /** How long the call took, without the time it waited for the person. */
  durationMs: z.number().nonnegative(),
  /** How long it waited for the person (the question before it ran, and any while it ran). */
  waitedMs: z.number().nonnegative().optional(),
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

/**
 * A run of the session let its commands run with no sandbox at all (`tether run --no-sandbox`): the
 * person's explicit choice for that run, kept on the session for good, since what ran then could
 * read secrets and write anywhere.
 */
export const SandboxTurnedOff = z.object({
  type: z.literal('sandbox.turned_off'),
  /** How it was turned off, for a person: `tether run --no-sandbox`. */
  by: z.string(),
});

/**
 * After a command, a git repository inside the workspace (new, or changed by it) could run a program
 * when the person's own git looks at it: a core.fsmonitor, a hook, an alias, an include, a git folder
 * elsewhere. Tether moved what runs aside (nothing is deleted); the model is told in the call's
 * result. A `failed` one is still in reach: the person must look at it before running git there.
 */
export const RepositoryQuarantined = z.object({
  type: z.literal('repository.quarantined'),
  callId: z.string(),
  /** The repository's folder, relative to the workspace with forward slashes (`.` for the workspace's own). */
  path: z.string(),
  /** Its git folder: relative to the workspace when inside it, else absolute. */
  gitDir: z.string(),
  /** `new`: not there before the command; `changed`: there, and what it can run changed. */
  found: z.enum(['new', 'changed']),
  /** What it could run, for a person: `core.fsmonitor = touch /tmp/m (in sub/.git/config)`. */
  programs: z.array(z.string()),
  /** What was moved aside, `from` → `to` (relative to the workspace when inside it). */
  moved: z.array(z.object({ from: z.string(), to: z.string() })),
  /** Config files written anew without those settings. */
  rewritten: z.array(z.string()),
  /** Why it could not be made harmless, when it could not. */
  failed: z.string().optional(),
});
export type QuarantinedRepository = Omit<z.infer<typeof RepositoryQuarantined>, 'type' | 'callId'>;

export const PlanUpdated = z.object({ type: z.literal('plan.updated'), steps: z.array(PlanStep) });

/** An instruction file (AGENTS.md, CLAUDE.md) as it was given to the model. */
export const InstructionFile = z.object({
  /** Relative to the workspace root, with forward slashes: `AGENTS.md`, `src/auth/CLAUDE.md`. */
  path: z.string(),
  /** The file's length in characters, before any cap. */
  chars: z.number().int().nonnegative(),
  /** True when only the first part was given to the model (the file or the session's total was over the cap). */
  truncated: z.boolean(),
  /** The text the model got, after the cap: kept so every later request sends the same bytes. */
  text: z.string(),
});
export type InstructionFile = z.infer<typeof InstructionFile>;

/**
 * Instruction files were read. `system`: the workspace root's, read once at the session's first run,
 * part of the system prompt for the session's whole life (so the prompt prefix never changes).
 * `conversation`: found later, in a folder the agent worked in, and given to the model as a message
 * at this point of the conversation.
 */
export const InstructionsLoaded = z.object({
  type: z.literal('instructions.loaded'),
  placement: z.enum(['system', 'conversation']),
  files: z.array(InstructionFile),
  /** What a person should know: a file over the cap, one that could not be read. */
  warnings: z.array(z.string()),
  /** Files looked at and not given to the model (unreadable, outside the workspace, over the total cap): not looked at again. */
  skipped: z.array(z.string()).optional(),
});

/** Older turns are being summarised so the conversation fits the model's context window. */
export const ContextCompacting = z.object({
  type: z.literal('context.compacting'),
  /** 'auto': the next request would have filled most of the window; 'manual': the person asked. */
  trigger: z.enum(['auto', 'manual']),
  tokensBefore: z.number().int().nonnegative(),
});

/** A file the session read or changed, as listed in a compaction summary. */
export const TouchedFile = z.object({ path: z.string(), edited: z.boolean() });
export type TouchedFile = z.infer<typeof TouchedFile>;

/**
 * Older turns were summarised. From now on the model gets the task, this summary (with the files and
 * the plan as they were), and the conversation from item `keptFromItem` on. The log keeps everything.
 */
export const ContextCompacted = z.object({
  type: z.literal('context.compacted'),
  summary: z.string(),
  /** Index into the session's conversation items (the fold's `items`) of the first item kept as it was. */
  keptFromItem: z.number().int().nonnegative(),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  files: z.array(TouchedFile),
  plan: z.array(PlanStep),
  /** The summarising request's own usage and cost: it is paid for like any other. */
  usage: Usage,
  costUsd: z.number().nonnegative().optional(),
});

/** Compaction did not happen (the model failed, or there was nothing older to summarise); nothing was lost. */
export const ContextCompactionFailed = z.object({
  type: z.literal('context.compaction_failed'),
  reason: z.string(),
});

/** Where a hunk sits, in unified-diff terms (1-based starts; a start with 0 lines names the line before). */
export const HunkRange = z.object({
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
});
export type HunkRange = z.infer<typeof HunkRange>;

/**
 * The person undid changes from the live diff: one hunk of a file, or the whole file, put back as
 * the review base had it. The model is told in its next request (once, at this point of the conversation).
 */
export const ChangesReverted = z.object({
  type: z.literal('changes.reverted'),
  /** Relative to the workspace, with forward slashes. */
  path: z.string(),
  hunks: z.union([z.array(HunkRange), z.literal('file')]),
  /** What was reverted, in words a model and a person read: `src/a.ts lines 10-14 (hunk)`. */
  note: z.string(),
  /** The files just before and just after the revert: the session's own change, as the live diff counts them. */
  snapshots: z.object({ before: z.string(), after: z.string() }).optional(),
});

/**
 * The person undid their latest revert: the file is back as the revert found it (the agent's change
 * is there again). `path`, `hunks` and `note` are the undone revert's.
 */
export const ChangesRevertUndone = z.object({
  type: z.literal('changes.revert_undone'),
  path: z.string(),
  hunks: z.union([z.array(HunkRange), z.literal('file')]),
  note: z.string(),
  /** The files just before and just after the undo, as on `changes.reverted`. */
  snapshots: z.object({ before: z.string(), after: z.string() }).optional(),
});

/**
 * The person accepted the changes: the review base of `scope` moves to snapshot `commit` (now), so
 * what was accepted leaves the review list. Accepting the session accepts the last turn too.
 */
export const ChangesAccepted = z.object({
  type: z.literal('changes.accepted'),
  scope: z.enum(['session', 'turn']),
  commit: z.string(),
  /** Only these files' changes so far were accepted (the person accepted one file); every file's when absent. */
  paths: z.array(z.string()).optional(),
});

/** The person undid an accept (the `changes.accepted` at `acceptSeq`): its changes are in the review list again. */
export const ChangesAcceptUndone = z.object({
  type: z.literal('changes.accept_undone'),
  acceptSeq: z.number().int().positive(),
});

/** The session works in its own git worktree, on its own branch, made from the repository's HEAD. */
export const WorktreeCreated = z.object({
  type: z.literal('worktree.created'),
  /** The worktree's folder (under Tether's data folder). */
  path: z.string(),
  /** `tether/<short session id>`. */
  branch: z.string(),
  /** The commit the branch started from. */
  baseCommit: z.string(),
  /** The person's repository (its main checkout's top folder). */
  repo: z.string(),
  /**
   * For a session moved into a worktree after it started: the folder it works in from now on (the
   * worktree, or the same subfolder of it), and the worktree's snapshots before and after the
   * session's own changes were carried into it (in the shadow repository of that folder).
   */
  moved: z.object({ from: z.string(), workspace: z.string(), before: z.string(), after: z.string() }).optional(),
});

/** The worktree was merged or squashed into the branch checked out in the repository, or discarded; it and its branch are gone. */
export const WorktreeFinished = z.object({
  type: z.literal('worktree.finished'),
  action: z.enum(['merge', 'squash', 'discard']),
  /** The commit made on the repository's current branch (merge, squash). */
  commit: z.string().optional(),
});

/**
 * The workspace's files were recorded in the shadow repository (outside the person's repository):
 * after a tool call that may change files (`callId`), or when a run starts (`callId` null; the
 * session's first is its base). A rewind to this step restores `commit`.
 */
export const CheckpointCreated = z.object({
  type: z.literal('checkpoint.created'),
  callId: z.string().nullable(),
  commit: z.string(),
  /** False when the files were as the previous checkpoint had them (no new snapshot was made). */
  changed: z.boolean(),
  /** Files left out (over 2 MB, unreadable, nested repositories): a rewind leaves them as they are. */
  skipped: z.number().int().nonnegative(),
  /**
   * The files just before the call ran (a snapshot taken once it was allowed). From `before` to
   * `commit` is what this step changed: the live diff shows only such changes as the session's own.
   * Absent for a run's start and in logs written before it was recorded.
   */
  before: z.string().optional(),
});

/** A checkpoint could not be taken; the call's result stands, but this step's files cannot be restored. */
export const CheckpointFailed = z.object({
  type: z.literal('checkpoint.failed'),
  callId: z.string().nullable(),
  reason: z.string(),
});

/** What a rewind puts back: the workspace's files, the conversation the model sees next, or both. */
export const RewindRestore = z.enum(['files', 'conversation', 'both']);
export type RewindRestore = z.infer<typeof RewindRestore>;

/** Something done after the rewound-to step that no rewind can take back (it reached beyond the workspace). */
export const RewindWarning = z.object({
  callId: z.string(),
  tool: z.string(),
  /** What ran, in one line: the command, the URL. */
  summary: z.string(),
  /** Why it cannot be undone: "may reach the network", "writes outside the workspace". */
  why: z.string(),
});
export type RewindWarning = z.infer<typeof RewindWarning>;

/**
 * The person rewound the session to the step logged at `toSeq`. Files: the workspace was made what
 * that step's checkpoint recorded (the state just before is `beforeCommit`). Conversation: what the
 * model sees from now on ends at that step; the log keeps everything after it.
 */
export const SessionRewound = z.object({
  type: z.literal('session.rewound'),
  toSeq: z.number().int().positive(),
  restore: RewindRestore,
  /** The files just before the rewind (absent when files were not restored): undoing the rewind restores it. */
  beforeCommit: z.string().optional(),
  /** The files as restored. */
  restoredCommit: z.string().optional(),
  /** Files the restore changed, relative to the workspace. */
  files: z.array(z.string()),
  warnings: z.array(RewindWarning),
});

/** The person undid the rewind logged at `rewindSeq`: files and conversation are as they were just before it. */
export const SessionRewindUndone = z.object({
  type: z.literal('session.rewind_undone'),
  rewindSeq: z.number().int().positive(),
  restore: RewindRestore,
  /** The files just before the undo (absent when files were not restored). */
  beforeCommit: z.string().optional(),
  files: z.array(z.string()),
  warnings: z.array(RewindWarning),
});

/**
 * A hook (a command the person or the project configured, as in Claude Code) ran for an event. `result`:
 * it let things go on (`ok`), blocked them (`blocked`: exit 2, or a deny), failed (`failed`: timed out,
 * crashed, bad JSON; things went on and `problem` says what), or did not run because the project that
 * configured it is not trusted (`untrusted`).
 */
export const HookRan = z.object({
  type: z.literal('hook.ran'),
  hookEvent: z.enum(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop']),
  source: z.enum(['managed', 'user', 'project']),
  command: z.string(),
  /** The tool call it ran for (the tool events). */
  callId: z.string().optional(),
  result: z.enum(['ok', 'blocked', 'failed', 'untrusted']),
  exitCode: z.number().int().nullable().optional(),
  /** Where it ran: inside the session's sandbox fence, or outside it (hooks/hookPlacement.ts); absent where commands run unsandboxed. */
  sandboxed: z.boolean().optional(),
  /** Its answer about the call: allow, ask or deny. */
  decision: z.enum(['allow', 'ask', 'deny']).optional(),
  /** Its reason for a decision or a block, or the context it added, as it wrote it. */
  reason: z.string().optional(),
  problem: z.string().optional(),
  /**
   * What a SessionStart or UserPromptSubmit hook added for the model, or why a Stop hook wants the
   * model to go on: the model reads it at this place in the conversation.
   */
  context: z.string().optional(),
  durationMs: z.number().nonnegative(),
});

export const SessionEndStatus = z.enum(['done', 'max_steps', 'failed', 'aborted']);
export type SessionEndStatus = z.infer<typeof SessionEndStatus>;

/** The loop stopped. `done` means the model answered; the others say why it did not. */
export const SessionFinished = z.object({
  type: z.literal('session.finished'),
  status: SessionEndStatus,
  reason: z.string(),
  /** For a run that failed talking to the model: what kind of failure, and the HTTP status when there was one. */
  modelFailure: z.object({ kind: ModelFailureKind, status: z.number().int().optional() }).optional(),
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
  SandboxTurnedOff,
  RepositoryQuarantined,
  PlanUpdated,
  SessionFinished,
  InstructionsLoaded,
  ContextCompacting,
  ContextCompacted,
  ContextCompactionFailed,
  ChangesReverted,
  ChangesRevertUndone,
  ChangesAccepted,
  ChangesAcceptUndone,
  WorktreeCreated,
  WorktreeFinished,
  CheckpointCreated,
  CheckpointFailed,
  SessionRewound,
  SessionRewindUndone,
  HookRan,
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

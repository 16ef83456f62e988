import { z } from 'zod';
import { AuditRow } from './auditExport';
import { AuditAction, AuditDecider } from './auditTrail';
import { ModelApi, Usage } from './conversation';
import { HunkRange, LiveEvent, RewindRestore, RewindWarning, StoredEvent } from './events';
import { Json } from './json';
import { ConnectionTestRequest, ConnectionTestResult, KeyVariable, LocalServerView } from './modelSetup';
import { CommandPart } from './commandParts';
import { OutsideContentSetting, PermissionMode, PolicyAction, RuleAction, Scope } from './permissions';
import { SandboxTempView, SandboxUpdate, SandboxView } from './sandbox';
import type { SessionStatus } from './session';
import { PageRequest, SessionPage, SessionSnapshot } from './sessionWindow';
import { NewRunnerToken, RemoteRunInfo, RemoteRunsUpdate, RemoteRunsView, RunnerName } from './remoteRuns';

/**
 * Every request the UI can make and every event it can receive. Electron's main process binds it to
 * ipcMain, `tether serve` to a WebSocket, and the renderer reaches it through one client shape
 * (`TetherApi`). A channel that is not here does not exist.
 */

const SessionStatusSchema = z.enum([
  'new',
  'working',
  'waiting',
  'done',
  'max_steps',
  'failed',
  'aborted',
]) satisfies z.ZodType<SessionStatus>;

/** A mode a new session may start in: every mode but unleashed, which is only ever chosen for a running session. */
export const StartMode = PermissionMode.exclude(['unleashed']);
export type StartMode = z.infer<typeof StartMode>;

/** A folder the person opened. */
export const ProjectView = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  /** A trusted folder's .tether/settings.json may also allow; an untrusted one only ask and deny. */
  trusted: z.boolean(),
  /**
   * The mode the project's new sessions start in, as the person answered when the project was first
   * opened (or in Settings); null until they have, and the app asks. Kept in Tether's data, never in the folder.
   */
  defaultMode: StartMode.nullable(),
});
export type ProjectView = z.infer<typeof ProjectView>;

/** A session as the sidebar lists it. */
export const SessionSummary = z.object({
  id: z.string(),
  projectId: z.string().nullable(),
  title: z.string(),
  workspace: z.string(),
  model: z.string(),
  status: SessionStatusSchema,
  /** Approvals waiting for the person. */
  pendingApprovals: z.number().int().nonnegative(),
  mode: PermissionMode,
  /**
   * Set while the mode is auto but no sandbox holds the session's commands: why none is available (in
   * words a person can act on). Auto then works as ask.
   */
  autoWorksAsAsk: z.string().optional(),
  updatedAt: z.number(),
  lastSeq: z.number().int().nonnegative(),
  /** Tokens over every model response so far. */
  usage: Usage,
  /** US dollars over every priced response; null when the model has no known price. */
  costUsd: z.number().nonnegative().nullable(),
  /** For a remote run mirrored at this desk: its runner. Such a session runs elsewhere; here it is only shown and answered. */
  remote: RemoteRunInfo.optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const StartSession = z.object({
  /** The folder to work in (it becomes a project if it is not one). */
  workspace: z.string().min(1),
  /** The task, as the person typed it. */
  task: z.string().trim().min(1, 'Type a task first.'),
  mode: PermissionMode.exclude(['unleashed']).optional(),
});

export const SessionRef = z.object({ sessionId: z.string() });
export type SessionRef = z.infer<typeof SessionRef>;

/** Events after `afterSeq`, to catch up a session a window holds (after a gap, or a dropped connection). */
export const EventsSince = z.object({ sessionId: z.string(), afterSeq: z.number().int().nonnegative() });

/**
 * The most events, and about the most characters of them, one `session:events` answer carries (it
 * always carries one, if any is there): a reader asks again from the last one it got until an
 * answer is empty, so no answer grows with the log.
 */
export const EVENTS_PAGE_MAX = 1_000;
export const EVENTS_PAGE_CHARS = 2_000_000;

export const SendMessage = z.object({ sessionId: z.string(), text: z.string().trim().min(1) });

export const RenameSession = z.object({ sessionId: z.string(), title: z.string().trim().min(1).max(200) });

export const SetSessionMode = z.object({ sessionId: z.string(), mode: PermissionMode });

/**
 * When a "Compact now" happens: `now` for a session that is not working (it compacts on its own),
 * `next_turn` for one that is (it compacts before its next model request, never mid-turn).
 */
export const CompactStarted = z.object({ when: z.enum(['now', 'next_turn']) });
export type CompactStarted = z.infer<typeof CompactStarted>;

/** The person's answer in the Permission required dialog. */
export const ApprovalAnswer = z
  .object({
    approvalId: z.string(),
    action: z.enum(['allow', 'deny']),
    /** 'once', or how far an "Allow always" reaches. */
    scope: Scope,
    /** For a denial: what the model is told. */
    message: z.string().max(4000).optional(),
    /** For "Allow always": the rule as the person left it (they may edit the prefix). */
    rule: z.string().optional(),
    /**
     * For an allow: the call's arguments as the person edited them (the command, the new text). The core
     * validates them, checks them against the rules again, allows them once only, and tells the model.
     */
    args: z.record(z.string(), Json).optional(),
  })
  .refine((answer) => answer.args === undefined || answer.action === 'allow', {
    message: 'Edited arguments come only with "allow"; a denial runs nothing, so send it without args.',
    path: ['args'],
  });
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;

/** The person's version of a waiting call (as they type it in the request), to be judged before they answer. */
export const ApprovalPreviewRequest = z.object({
  approvalId: z.string(),
  /** The call's arguments with the person's change, as `approval:answer` would send them. */
  args: z.record(z.string(), Json),
});
export type ApprovalPreviewRequest = z.infer<typeof ApprovalPreviewRequest>;

/**
 * What the answer would make of the person's version, worked out by the same engine, with the same
 * rules and taint, as the answer is: nothing runs and nothing is logged. The request shows it as the
 * person types, in place of the model's call's analysis.
 */
export const ApprovalPreview = z.object({
  /** `allow`: rules already let this version run; `ask`: the person's allow runs it; `deny`: a rule refuses it, whatever they answer. */
  action: PolicyAction,
  /** Why, as a request's "Why it asks" says it. */
  reason: z.string(),
  /** The rule that decided (a deny, an ask, or what allows it), as the person would write it. */
  rule: z.string().optional(),
  /** For a command: its simple commands (null: it cannot be pinned down), and what each does. */
  commands: z.array(z.array(z.string())).nullable().optional(),
  parts: z.array(CommandPart).optional(),
  /** What "Allow always" would create for this version, or why it is not offered. */
  allowAlways: z.union([z.object({ rule: z.string() }), z.object({ refused: z.string() })]).optional(),
  /** The version is not a valid call of the tool (the answer would refuse it): why. */
  problem: z.string().optional(),
});
export type ApprovalPreview = z.infer<typeof ApprovalPreview>;

/** One entry of the inbox: a request waiting for the person, in any session. */
export const PendingApproval = z.object({
  approvalId: z.string(),
  sessionId: z.string(),
  sessionTitle: z.string(),
  askedAt: z.number(),
  /** For a remote run's request: the runner it came from. */
  runner: z.string().optional(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

/** A file the session changed, against the folder as it was when the session started. */
export const FileChange = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  binary: z.boolean(),
});
export type FileChange = z.infer<typeof FileChange>;

/** One hunk of a file's diff, as the server counts them; a revert names it by index and fingerprint. */
export const DiffHunk = HunkRange.extend({
  /** Names the hunk's content and place, so a revert from a stale view is refused rather than undoing another hunk. */
  fingerprint: z.string(),
});
export type DiffHunk = z.infer<typeof DiffHunk>;

export const FileDiff = z.object({
  path: z.string(),
  /** A new file is drawn as all added lines, a deleted one as all removed: neither has an empty other side. */
  status: FileChange.shape.status,
  before: z.string(),
  after: z.string(),
  /** Monaco's language id, guessed from the name. */
  language: z.string(),
  binary: z.boolean(),
  /** The hunks a single revert can undo, in order; absent for a binary file (whole-file revert only) or one too different to split. */
  hunks: z.array(DiffHunk).optional(),
});
export type FileDiff = z.infer<typeof FileDiff>;

/** What the live diff compares with: where the session started (or was last accepted), or where the person's last message found the files. */
export const DiffScope = z.enum(['session', 'turn']);
export type DiffScope = z.infer<typeof DiffScope>;

export const DiffFilesRequest = z.object({
  sessionId: z.string(),
  scope: DiffScope.optional(),
  /**
   * The person asked (Refresh): worked out against a snapshot of now taken for this request, not one
   * already under way, which may have read the folder before what they just changed.
   */
  fresh: z.boolean().optional(),
});
export const DiffFileRequest = z.object({ sessionId: z.string(), path: z.string(), scope: DiffScope.optional() });

/** Put a file, or one hunk of it, back as the review base has it. Refused while the agent works. */
export const DiffRevert = z.object({
  sessionId: z.string(),
  path: z.string().min(1),
  scope: DiffScope.optional(),
  /** The hunk to undo (its index in `FileDiff.hunks` and its fingerprint); the whole file when absent. */
  hunk: z.object({ index: z.number().int().nonnegative(), fingerprint: z.string().min(1) }).optional(),
});

/** A revert done: what it changed, and the id that undoes it (`diff:undoRevert`) while the file stays as the revert left it. */
export const RevertDone = z.object({
  path: z.string(),
  /** In words: `src/a.ts line 5 (hunk)`, `README.md (whole file)`. */
  note: z.string(),
  undoId: z.string(),
});
export type RevertDone = z.infer<typeof RevertDone>;

/** Undo a session's latest revert; refused when the file changed since (nothing is overwritten). */
export const DiffUndoRevert = z.object({ sessionId: z.string(), undoId: z.string().min(1) });

/** Files of a session's (or a project's) workspace that match what follows an @ in the task box. */
export const WorkspaceFilesRequest = z
  .object({
    /** The session whose workspace (its worktree, when it has one) is listed. */
    sessionId: z.string().optional(),
    /** For a new session's draft: the project's folder. */
    projectId: z.string().optional(),
    /** What was typed after the @; matched case-insensitively anywhere in the path. */
    query: z.string().max(1000),
    limit: z.number().int().min(1).max(200).optional(),
  })
  .refine((request) => (request.sessionId === undefined) !== (request.projectId === undefined), {
    message: 'Name the session or the project whose files to list, not both.',
  });

export const FileMatches = z.object({
  /** Relative to the workspace, forward slashes, best match first. */
  files: z.array(z.string()),
  /** More files matched than were sent (or the folder had too many to list whole). */
  truncated: z.boolean(),
});
export type FileMatches = z.infer<typeof FileMatches>;

export const FolderMatches = z.object({
  /** Folders as the person would type them (`~/code/tether/`), each ending in a slash. */
  folders: z.array(z.string()),
  truncated: z.boolean(),
});
export type FolderMatches = z.infer<typeof FolderMatches>;

/** Accept everything changed so far (or one file's changes): the scope's review base moves to now. */
export const DiffAccept = z.object({
  sessionId: z.string(),
  scope: DiffScope.optional(),
  /** Only this file's changes leave the list; every file's when absent. */
  path: z.string().min(1).optional(),
});

/** An accept done: what it took out of the list, and the accept's seq in the log, which `diff:undoAccept` names. */
export const AcceptDone = z.object({
  /** In words: `the session’s changes`, `src/a.ts`. */
  note: z.string(),
  acceptSeq: z.number().int().positive(),
});
export type AcceptDone = z.infer<typeof AcceptDone>;

/** Puts an accept's changes back in the review list (an accept writes nothing, so neither does its undoing). */
export const DiffUndoAccept = z.object({ sessionId: z.string(), acceptSeq: z.number().int().positive() });

/**
 * A file of a session's workspace to show read-only (a path the model or a tool named). Main reads it
 * under the path guard and the read rules `read_file` meets: never outside the folder, never through a
 * link that leads out, and a file a rule asks about (`.env`) only once the person says so.
 */
export const WorkspaceFileRequest = z.object({
  sessionId: z.string(),
  /** Relative to the workspace (or absolute inside it), as the text named it. */
  path: z.string().min(1).max(4096),
  /** The person chose to see a file a read rule asks about ("Show it"). */
  confirmed: z.boolean().optional(),
});

export const WorkspaceFileView = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('shown'),
    /** Relative to the workspace, forward slashes. */
    path: z.string(),
    text: z.string(),
    /** Monaco's language id, guessed from the name. */
    language: z.string(),
    size: z.number().int().nonnegative(),
  }),
  /** A read rule asks before this file is read (`read_file(.env*)`): shown only once the person confirms. */
  z.object({ status: z.literal('asks'), path: z.string(), reason: z.string() }),
]);
export type WorkspaceFileView = z.infer<typeof WorkspaceFileView>;

/** The per-project setting: does each new session work in its own git worktree? */
export const WorktreeSetting = z.object({
  projectId: z.string(),
  enabled: z.boolean(),
  /** Why worktrees cannot be used for this project (not a git repository, no commits yet); absent when they can. */
  unavailable: z.string().optional(),
});
export type WorktreeSetting = z.infer<typeof WorktreeSetting>;

/** End a session's worktree: merge or squash its branch into the repository's current branch, or throw it away. */
export const WorktreeFinish = z.object({
  sessionId: z.string(),
  action: z.enum(['merge', 'squash', 'discard']),
  /** The commit message for squash (and merge); the session's title when absent. */
  message: z.string().trim().min(1).max(10_000).optional(),
});
export type WorktreeFinish = z.infer<typeof WorktreeFinish>;

/** A session moved into a worktree of its own: where, and which of its changes went with it. */
export const WorktreeMoved = z.object({
  branch: z.string(),
  /** The worktree's folder. */
  path: z.string(),
  /** The files whose changes (the session's own) now are in the worktree and no longer in the shared folder. */
  carried: z.array(z.string()),
  /** Files carried into the worktree whose change could not be taken out of the shared folder (changed meanwhile). */
  leftBehind: z.array(z.string()),
});
export type WorktreeMoved = z.infer<typeof WorktreeMoved>;

export const WorktreeFinished = z.object({
  action: z.enum(['merge', 'squash', 'discard']),
  commit: z.string().optional(),
  /** The branch that received the work, for merge and squash. */
  into: z.string().optional(),
});

/** One MCP server as the settings screen shows it. */
export const McpServerView = z.object({
  /** Stable while its entry says the same: `user:<name>`, `project:<folder>:<name>`, `cli:<name>`. */
  id: z.string(),
  name: z.string(),
  source: z.enum(['user', 'project', 'cli']),
  /** For a project's server: the project. */
  projectId: z.string().nullable(),
  /** The settings file it was read from. */
  file: z.string(),
  transport: z.enum(['stdio', 'http', 'unknown']),
  /** The command line, or the URL. */
  target: z.string(),
  /** idle: starts when a session first needs it; untrusted: a project's server in a folder not trusted. */
  state: z.enum(['idle', 'starting', 'ready', 'failed', 'stopped', 'untrusted']),
  /** Why it failed or is not running, naming what to fix; while restarting, when and which attempt. */
  error: z.string().optional(),
  /** Crashes in a row. */
  restarts: z.number().int().nonnegative(),
  tools: z.array(z.object({ name: z.string(), modelName: z.string(), description: z.string() })),
  /** The last lines it printed on stderr. */
  stderr: z.array(z.string()),
});
export type McpServerView = z.infer<typeof McpServerView>;

export const RuleView = z.object({
  id: z.string(),
  pattern: z.string(),
  action: RuleAction,
  scope: z.enum(['session', 'project', 'everywhere']),
  projectId: z.string().nullable(),
  sessionId: z.string().nullable(),
  createdAt: z.number(),
});
export type RuleView = z.infer<typeof RuleView>;

/** The rules of the person's own settings.json (`permissions.allow`, `ask`, `deny`), as written there. */
export const SettingsRules = z.object({
  /** The file, to name in Settings. */
  file: z.string(),
  allow: z.array(z.string()),
  ask: z.array(z.string()),
  deny: z.array(z.string()),
});
export type SettingsRules = z.infer<typeof SettingsRules>;

/** A rule, `tool(specifier)`, to add to or take out of one list of the person's settings.json. */
export const SettingsRuleChange = z.object({
  action: RuleAction,
  rule: z.string().min(1).max(4000),
});
export type SettingsRuleChange = z.infer<typeof SettingsRuleChange>;

/** What the settings screen shows. The API key is never sent to the UI: only whether one is set. */
/** The machine's managed policy, as Settings shows it: what it fixes, so a control it disables says why. */
export const ManagedPolicyView = z.object({
  /** The policy file. */
  file: z.string(),
  /** What it fixes, one line each, for a person. */
  fixes: z.array(z.string()),
  /** The least care for outside content it allows: the choices below it are disabled. */
  outsideContentFloor: OutsideContentSetting.optional(),
  /** It turns unleashed off: the mode control does not offer it. */
  unleashedDisabled: z.boolean().optional(),
  /** Why it cannot be used, when it cannot: no session starts until it is fixed. */
  problem: z.string().optional(),
});
export type ManagedPolicyView = z.infer<typeof ManagedPolicyView>;

export const SettingsView = z.object({
  baseUrl: z.string(),
  api: ModelApi,
  model: z.string(),
  hasApiKey: z.boolean(),
  maxSteps: z.number().int().positive(),
  mode: PermissionMode.exclude(['unleashed']),
  outsideContent: OutsideContentSetting,
  /** Whether a model has been set up (settings name a server, or TETHER_BASE_URL or a key does): if not, the welcome sets one up. */
  modelConfigured: z.boolean(),
  /** Which provider key variables main's environment holds: names only, never their values. */
  keyVariables: z.array(KeyVariable),
  /** Where a key typed here is kept: the OS keychain (the desktop app), or this process's memory only (`tether serve`). */
  keyKept: z.enum(['os-keychain', 'this-process']),
  /** A key is stored, but for another origin than the base URL: it is not sent there. That origin. */
  storedKeyFor: z.string().optional(),
  /** The machine's managed policy, when there is one. */
  managedPolicy: ManagedPolicyView.optional(),
});
export type SettingsView = z.infer<typeof SettingsView>;

export const SettingsUpdate = SettingsView.omit({
  hasApiKey: true,
  modelConfigured: true,
  keyVariables: true,
  keyKept: true,
  storedKeyFor: true,
  managedPolicy: true,
})
  .partial()
  .extend({
    /** Write-only: a new key, or null to forget the stored one. */
    apiKey: z.string().min(1).nullable().optional(),
  });
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

/**
 * The kinds of system notification, each of which the person can turn off. A window's preference, like
 * the pane sizes: it changes nothing the agent may do, so it is not a setting (settings are layered,
 * reviewed and can be fixed by a managed policy).
 */
export const NotificationChoices = z
  .object({
    /** A request is waiting for the person's answer. */
    waiting: z.boolean().optional(),
    /** A session finished its task. */
    finished: z.boolean().optional(),
    /** A session failed or ran out of steps. */
    failed: z.boolean().optional(),
  })
  .strict();
export type NotificationChoices = z.infer<typeof NotificationChoices>;

/** A system notification: a request waiting, or a session that finished or failed. */
export const SystemNotice = z.object({
  /** Which kind it is; each can be turned off (NotificationChoices). */
  kind: z.enum(['waiting', 'finished', 'failed']),
  title: z.string().max(500),
  body: z.string().max(1000),
  /** One notification per request or per session end: a later one with the same tag replaces it. */
  tag: z.string().min(1).max(200),
  sessionId: z.string(),
  /** For a request waiting: the request, which the desktop app's Deny button answers. */
  approvalId: z.string().optional(),
});
export type SystemNotice = z.infer<typeof SystemNotice>;

/**
 * A button of a native notification was used, or the notification clicked: the window opens what it
 * is about. Only 'open' comes back: Deny is answered in main, and nothing in a notification allows.
 */
export const NoticeAction = z.object({ tag: z.string(), action: z.enum(['open']) });
export type NoticeAction = z.infer<typeof NoticeAction>;

/**
 * The window's panes as the person sized them, kept across runs (in the data folder, since the page's
 * own storage is per address and `tether serve` gets a new port each run). Absent: the default for
 * the window's size. The bounds keep a hand-edited file from hiding a pane for good.
 */
export const PaneLayout = z
  .object({
    sidebarWidth: z.number().int().min(160).max(640).optional(),
    reviewWidth: z.number().int().min(240).max(2400).optional(),
    terminalHeight: z.number().int().min(60).max(1600).optional(),
    sidebarCollapsed: z.boolean().optional(),
    /** Absent: the review column opens when the session has something to review, and folds when it has not. */
    reviewCollapsed: z.boolean().optional(),
    terminalOpen: z.boolean().optional(),
    /** How a diff is drawn; absent: `auto`, inline in a narrow column and side by side in a wide one. */
    diffLayout: z.enum(['auto', 'side', 'inline']).optional(),
    /** Whether a diff folds the unchanged lines between its changes; absent: it does. */
    foldUnchanged: z.boolean().optional(),
    /** Which system notifications the window shows while it is not in front; absent: each is on. */
    notifications: NotificationChoices.optional(),
  })
  .strict();
export type PaneLayout = z.infer<typeof PaneLayout>;

export const AppInfo = z.object({
  version: z.string(),
  host: z.enum(['electron', 'serve']),
  dataDir: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** The desktop app's update: none to offer (or not a packaged app), or downloaded and ready to install. */
export const UpdateView = z.discriminatedUnion('state', [
  /** Not a packaged desktop app (development, `tether serve`), or updates turned off. */
  z.object({ state: z.literal('unavailable') }),
  /** Looking, or nothing newer was found. */
  z.object({ state: z.literal('idle') }),
  z.object({
    state: z.literal('ready'),
    version: z.string(),
    /** Why "Restart to update" would be refused now (sessions working or waiting); absent when it would not. */
    blockedBy: z.string().optional(),
  }),
]);
export type UpdateView = z.infer<typeof UpdateView>;

/** The answer to "Restart to update": never a restart while a session works or waits for the person. */
export const RestartToUpdate = z.object({ restarted: z.boolean(), reason: z.string().optional() });
export type RestartToUpdate = z.infer<typeof RestartToUpdate>;

/** A step of a session to rewind to: the seq of one of the person's messages or of a checkpoint (see rewinds.ts). */
export const RewindTarget = z.object({ sessionId: z.string(), toSeq: z.number().int().positive() });

export const RewindRequest = RewindTarget.extend({ restore: RewindRestore });

/** What a rewind to a step would do, for the dialog that asks the person to confirm it. */
export const RewindPreview = z.object({
  toSeq: z.number().int().positive(),
  /** The files a files rewind would change, as the rewind changes them (`added`: put back; `deleted`: removed). */
  files: z.array(FileChange),
  /** Files no checkpoint holds (over 2 MB, unreadable): a rewind leaves them as they are. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string(), size: z.number().optional() })),
  warnings: z.array(RewindWarning),
  /** Conversation entries a conversation rewind takes out of what the model sees next. */
  conversationItems: z.number().int().nonnegative(),
  /** Why the files cannot be rewound to this step (no checkpoint), when they cannot. */
  filesUnavailable: z.string().optional(),
  /** The agent is working: a rewind is refused until it stops. */
  working: z.boolean(),
  /**
   * The commands that ran after this step with nobody asked (auto mode, a rule, a read-only command), in
   * the order they started: worked out from the whole log in main, since a window holds only its latest calls.
   */
  unasked: z.array(z.object({ callId: z.string(), command: z.string() })),
});
export type RewindPreview = z.infer<typeof RewindPreview>;

/** What a rewind (or its undoing) did. */
export const RewindResult = z.object({
  /** The seq of the session.rewound / session.rewind_undone event. */
  seq: z.number().int().positive(),
  files: z.array(z.string()),
  warnings: z.array(RewindWarning),
});
export type RewindResult = z.infer<typeof RewindResult>;

/** Which decisions the permission history lists: `tether audit`'s --session, --since, --tool, --action and --by. */
export const AuditRequest = z.object({
  sessionId: z.string().optional(),
  /** Ms since the epoch: decisions before it are left out. */
  since: z.number().optional(),
  /** Only calls of this tool, by its exact name. */
  tool: z.string().min(1).optional(),
  /** Only this outcome. */
  action: AuditAction.optional(),
  /** Only what this one decided. */
  by: AuditDecider.optional(),
});
export type AuditRequest = z.infer<typeof AuditRequest>;

const none = z.object({}).strict();

export const requests = {
  'app:info': { input: none, output: AppInfo },
  'layout:get': { input: none, output: PaneLayout },
  'layout:save': { input: PaneLayout, output: z.void() },
  /** Whether an update is downloaded and ready, and what would hold its restart back. */
  'app:update': { input: none, output: UpdateView },
  /** Installs the ready update by restarting, unless a session works or waits for the person. */
  'app:restartToUpdate': { input: none, output: RestartToUpdate },
  'projects:list': { input: none, output: z.array(ProjectView) },
  'projects:open': { input: z.object({ path: z.string().min(1) }), output: ProjectView },
  'projects:trust': { input: z.object({ projectId: z.string(), trusted: z.boolean() }), output: ProjectView },
  /** The mode a project's new sessions start in: the answer to the first-open question, or Settings. */
  'projects:setDefaultMode': { input: z.object({ projectId: z.string(), mode: StartMode }), output: ProjectView },
  'sessions:list': { input: z.object({ projectId: z.string().optional() }), output: z.array(SessionSummary) },
  'session:start': { input: StartSession, output: SessionRef },
  /** A session to draw: its folded state with the latest conversation items; the rest comes by `session:page`, live events by `session:event`. */
  'session:open': { input: SessionRef, output: SessionSnapshot },
  /** Older conversation items of a session, before a whole-conversation index. */
  'session:page': { input: PageRequest, output: SessionPage },
  /** A page of a session's events after a seq (see EVENTS_PAGE_MAX). */
  'session:events': { input: EventsSince, output: z.array(StoredEvent) },
  'session:send': { input: SendMessage, output: z.void() },
  'session:stop': { input: SessionRef, output: z.void() },
  /** Runs a stopped session again from where it failed, with no new message (the failure notice's Retry). */
  'session:retry': { input: SessionRef, output: z.void() },
  'session:rename': { input: RenameSession, output: SessionSummary },
  'session:delete': { input: SessionRef, output: z.void() },
  'session:setMode': { input: SetSessionMode, output: SessionSummary },
  /** Summarises the older turns of a session's conversation so it takes less of the model's context. */
  'session:compact': { input: SessionRef, output: CompactStarted },
  'approval:answer': { input: ApprovalAnswer, output: z.void() },
  /** Judges the person's version of a waiting call as its answer would, with no side effects (see ApprovalPreview). */
  'approval:preview': { input: ApprovalPreviewRequest, output: ApprovalPreview },
  'approvals:pending': { input: none, output: z.array(PendingApproval) },
  'diff:files': { input: DiffFilesRequest, output: z.array(FileChange) },
  'diff:file': { input: DiffFileRequest, output: FileDiff },
  'diff:revert': { input: DiffRevert, output: RevertDone },
  /** Puts the file back as the session's latest revert found it; refused while the agent works or when the file changed since. */
  'diff:undoRevert': { input: DiffUndoRevert, output: RevertDone.omit({ undoId: true }) },
  'diff:accept': { input: DiffAccept, output: AcceptDone },
  /** Puts an accepted file (or every accepted change) back in the review list; refused for an accept already undone. */
  'diff:undoAccept': { input: DiffUndoAccept, output: z.object({ note: z.string() }) },
  /** A workspace file, read-only, for a path named in the conversation; refused outside the folder, for a folder, a binary or a huge file. */
  'workspace:readFile': { input: WorkspaceFileRequest, output: WorkspaceFileView },
  /** Workspace files for an @-mention: names only, .gitignore respected, capped. */
  'workspace:files': { input: WorkspaceFilesRequest, output: FileMatches },
  /** Folders completing a typed path in "Open a folder…" (`~` is the home folder; hidden ones only after a dot). */
  'folders:complete': { input: z.object({ typed: z.string().max(4096) }), output: FolderMatches },
  /** The desktop app's native folder picker; null when the person cancelled. Refused under `tether serve`, whose page cannot show one. */
  'folders:pick': { input: none, output: z.object({ path: z.string().nullable() }) },
  'worktree:setting': { input: z.object({ projectId: z.string() }), output: WorktreeSetting },
  'worktree:configure': { input: z.object({ projectId: z.string(), enabled: z.boolean() }), output: WorktreeSetting },
  'worktree:finish': { input: WorktreeFinish, output: WorktreeFinished },
  /** Moves a session working in a shared folder into a git worktree of its own, with its changes; refused while the agent works. */
  'worktree:move': { input: SessionRef, output: WorktreeMoved },
  'settings:get': { input: none, output: SettingsView },
  'settings:update': { input: SettingsUpdate, output: SettingsView },
  /** "Test connection": main asks the server at a typed address for its models and says what failed. */
  'model:test': { input: ConnectionTestRequest, output: ConnectionTestResult },
  /** Ollama and LM Studio found running on 127.0.0.1 (their two ports only). */
  'model:findLocal': { input: none, output: z.array(LocalServerView) },
  'rules:list': { input: z.object({ projectId: z.string().optional() }), output: z.array(RuleView) },
  'rules:revoke': { input: z.object({ ruleId: z.string() }), output: z.void() },
  /** The allow, ask and deny rules of the person's settings.json. */
  'settingsRules:list': { input: none, output: SettingsRules },
  /** Adds a rule to the person's settings.json, read as every session reads the file; a rule that cannot be read is refused with why. */
  'settingsRules:add': { input: SettingsRuleChange, output: SettingsRules },
  'settingsRules:remove': { input: SettingsRuleChange, output: SettingsRules },
  /** Every permission decision the sessions' logs record, oldest first: what `tether audit` lists. */
  'audit:list': { input: AuditRequest, output: z.array(AuditRow) },
  /** What rewinding a session to a step would change and could not undo. */
  'session:rewindPreview': { input: RewindTarget, output: RewindPreview },
  /** Rewinds a stopped session's files, conversation or both to a step; refused while the agent works. */
  'session:rewind': { input: RewindRequest, output: RewindResult },
  /** Undoes the session's latest rewind. */
  'session:undoRewind': { input: SessionRef, output: RewindResult },
  /** The MCP servers: the person's, and a project's (every project's when none is named). */
  'mcp:servers': { input: z.object({ projectId: z.string().optional() }), output: z.array(McpServerView) },
  /** Stop and start a server again, forgetting its failures (a project's server: name its project). */
  'mcp:restart': { input: z.object({ name: z.string().min(1), projectId: z.string().optional() }), output: McpServerView },
  /** The command sandbox for a project: whether one is available, the built-in fence and what the person added. */
  /** Where the session's private /tmp is on this machine (shown and copied from the session header). */
  'session:sandboxTemp': { input: SessionRef, output: SandboxTempView },
  /** Opens the session's private /tmp in the system's file manager: the desktop app only (`opened: false` elsewhere). */
  'session:openSandboxTemp': { input: SessionRef, output: z.object({ opened: z.boolean() }) },
  'sandbox:get': { input: z.object({ projectId: z.string() }), output: SandboxView },
  /** Replaces what the person added to a project's fence, and/or what runs when no sandbox is available. */
  'sandbox:update': { input: SandboxUpdate, output: SandboxView },
  /**
   * Shows a notice as the OS's own notification, where the host can (the desktop app: with Open and Deny
   * buttons for a request on macOS). `shown: false` (always, under `tether serve`): the page shows its own.
   */
  'notification:show': { input: SystemNotice, output: z.object({ shown: z.boolean() }) },
  /** Settings → Remote runs: whether this desk accepts runs, where it listens, the runners' tokens and rules. */
  'remote:get': { input: none, output: RemoteRunsView },
  /** Turns accepting remote runs on or off, or moves where the desk listens (an address off this machine's loopback takes TLS). */
  'remote:configure': { input: RemoteRunsUpdate, output: RemoteRunsView },
  /** Makes a runner's token; the answer is the only time it is shown. */
  'remote:createToken': { input: z.object({ name: RunnerName }), output: NewRunnerToken },
  /** Revokes a runner's token: its runs are cut off and cannot connect again with it. */
  'remote:revokeToken': { input: z.object({ name: z.string() }), output: z.void() },
  /** Revokes a rule "Allow always" gave a repository on a runner; its runs stop applying it at once. */
  'remote:revokeRule': { input: z.object({ ruleId: z.string() }), output: z.void() },
} as const;

export const events = {
  /** A fact appended to a session's log. */
  'session:event': StoredEvent,
  /** Streamed text and terminal bytes: shown, not stored. */
  'session:live': LiveEvent,
  /** A session's row changed (status, title, pending approvals). */
  'sessions:changed': SessionSummary,
  /** A session was deleted. */
  'sessions:deleted': SessionRef,
  /** An MCP server's state, tools or error changed. */
  'mcp:changed': McpServerView,
  /** The desktop app's update changed (one was downloaded). */
  'app:updateChanged': UpdateView,
  /** A native notification was clicked or its Open button used: open what it is about. */
  'notification:action': NoticeAction,
} as const;

export type RequestName = keyof typeof requests;
export type Input<R extends RequestName> = z.input<(typeof requests)[R]['input']>;
export type ParsedInput<R extends RequestName> = z.output<(typeof requests)[R]['input']>;
export type Output<R extends RequestName> = z.output<(typeof requests)[R]['output']>;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** What a host implements: one handler per request; a missing one is a compile error. */
export type Handlers = { [R in RequestName]: (input: ParsedInput<R>) => Promise<Output<R>> };

export type Unsubscribe = () => void;

/** The one shape the renderer talks to, whichever host it runs under. */
export interface TetherApi {
  request<R extends RequestName>(name: R, input: Input<R>): Promise<Output<R>>;
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): Unsubscribe;
}

/** How a host reports a request it refused; the renderer shows `message`. */
export const RequestFailure = z.object({
  code: z.enum(['invalid_input', 'not_found', 'conflict', 'failed']),
  message: z.string(),
});
export type RequestFailure = z.infer<typeof RequestFailure>;

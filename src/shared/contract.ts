import { z } from 'zod';
import { LiveEvent, StoredEvent } from './events';
import { Json } from './json';
import { OutsideContentSetting, PermissionMode, RuleAction, Scope } from './permissions';
import type { SessionStatus } from './session';

/**
 * Every request the UI can make and every event it can receive. Electron's main process binds it to
 * ipcMain, `tether serve` to a WebSocket, and the renderer reaches it through one client shape
 * (`TetherApi`). A channel that is not here does not exist.
 */

const SessionStatusSchema = z.enum(['new', 'working', 'waiting', 'done', 'max_steps', 'failed', 'aborted']) satisfies z.ZodType<SessionStatus>;

/** A folder the person opened. */
export const ProjectView = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  /** A trusted folder's .tether/settings.json may also allow; an untrusted one only ask and deny. */
  trusted: z.boolean(),
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
  updatedAt: z.number(),
  lastSeq: z.number().int().nonnegative(),
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

/** Events after `afterSeq`, to draw a session or to resync after a dropped connection. */
export const EventsSince = z.object({ sessionId: z.string(), afterSeq: z.number().int().nonnegative() });

export const SendMessage = z.object({ sessionId: z.string(), text: z.string().trim().min(1) });

export const RenameSession = z.object({ sessionId: z.string(), title: z.string().trim().min(1).max(200) });

export const SetSessionMode = z.object({ sessionId: z.string(), mode: PermissionMode });

/** The person's answer in the Permission required dialog. */
export const ApprovalAnswer = z.object({
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
}).refine((answer) => answer.args === undefined || answer.action === 'allow', {
  message: 'Edited arguments come only with "allow"; a denial runs nothing, so send it without args.',
  path: ['args'],
});
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;

/** One entry of the inbox: a request waiting for the person, in any session. */
export const PendingApproval = z.object({
  approvalId: z.string(),
  sessionId: z.string(),
  sessionTitle: z.string(),
  askedAt: z.number(),
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

export const FileDiff = z.object({
  path: z.string(),
  before: z.string(),
  after: z.string(),
  /** Monaco's language id, guessed from the name. */
  language: z.string(),
  binary: z.boolean(),
});
export type FileDiff = z.infer<typeof FileDiff>;

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

/** What the settings screen shows. The API key is never sent to the UI: only whether one is set. */
export const SettingsView = z.object({
  baseUrl: z.string(),
  api: z.enum(['responses', 'chat']),
  model: z.string(),
  hasApiKey: z.boolean(),
  maxSteps: z.number().int().positive(),
  mode: PermissionMode.exclude(['unleashed']),
  outsideContent: OutsideContentSetting,
});
export type SettingsView = z.infer<typeof SettingsView>;

export const SettingsUpdate = SettingsView.omit({ hasApiKey: true })
  .partial()
  .extend({
    /** Write-only: a new key, or null to forget the stored one. */
    apiKey: z.string().min(1).nullable().optional(),
  });
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

export const AppInfo = z.object({
  version: z.string(),
  host: z.enum(['electron', 'serve']),
  dataDir: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

const none = z.object({}).strict();

export const requests = {
  'app:info': { input: none, output: AppInfo },
  'projects:list': { input: none, output: z.array(ProjectView) },
  'projects:open': { input: z.object({ path: z.string().min(1) }), output: ProjectView },
  'projects:trust': { input: z.object({ projectId: z.string(), trusted: z.boolean() }), output: ProjectView },
  'sessions:list': { input: z.object({ projectId: z.string().optional() }), output: z.array(SessionSummary) },
  'session:start': { input: StartSession, output: SessionRef },
  'session:events': { input: EventsSince, output: z.array(StoredEvent) },
  'session:send': { input: SendMessage, output: z.void() },
  'session:stop': { input: SessionRef, output: z.void() },
  'session:rename': { input: RenameSession, output: SessionSummary },
  'session:delete': { input: SessionRef, output: z.void() },
  'session:setMode': { input: SetSessionMode, output: SessionSummary },
  'approval:answer': { input: ApprovalAnswer, output: z.void() },
  'approvals:pending': { input: none, output: z.array(PendingApproval) },
  'diff:files': { input: SessionRef, output: z.array(FileChange) },
  'diff:file': { input: z.object({ sessionId: z.string(), path: z.string() }), output: FileDiff },
  'settings:get': { input: none, output: SettingsView },
  'settings:update': { input: SettingsUpdate, output: SettingsView },
  'rules:list': { input: z.object({ projectId: z.string().optional() }), output: z.array(RuleView) },
  'rules:revoke': { input: z.object({ ruleId: z.string() }), output: z.void() },
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

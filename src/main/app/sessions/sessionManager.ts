import type {
  ApprovalAnswer,
  ApprovalPreview,
  ApprovalPreviewRequest,
  CompactStarted,
  EventName,
  EventPayload,
  SessionSummary,
} from '../../../shared/contract';
import type { SessionEvent } from '../../../shared/events';
import type { RemoteRunInfo } from '../../../shared/remoteRuns';
import type { PermissionMode, PermissionRule } from '../../../shared/permissions';
import type { Core } from '../../core';
import type { ModelConfig } from '../../model/config';
import type { PermissionEngine } from '../../permissions/engine';
import type { SessionRow } from '../../store/sessions';
import { readManagedPolicy, unleashedRefusal } from '../../settings/managedPolicy';
import { ShuttingDown } from '../../process/shuttingDown';
import { RequestError } from '../../../shared/requestError';
import { InteractiveBroker } from './interactiveBroker';

type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

interface Running {
  controller: AbortController;
  queue: string[];
  engine?: PermissionEngine;
  done: Promise<void>;
  /** The person asked for "Compact now" while the agent worked: done at the next turn, or after the run. */
  compactRequested?: boolean;
}

export interface SessionManagerOptions {
  core: Core;
  /** How to reach the model now (settings + key). */
  modelConfig(): ModelConfig;
  maxSteps(): number;
  defaultMode(): Exclude<PermissionMode, 'unleashed'>;
  /** Why no sandbox can hold this host's commands, or undefined when one can: auto mode then works as ask. */
  sandboxMissing?(): string | undefined;
  emit: Emit;
  /** Runs before a new session's first step (the live diff's base snapshot). */
  beforeFirstRun?(sessionId: string): Promise<void>;
  /** The runner of a session that mirrors a remote run (app/desk/): such a session runs elsewhere, never here. */
  remoteRun?(sessionId: string): RemoteRunInfo | undefined;
}

/** A session that works in a folder of its own (a git worktree) rather than in the project's folder. */
export interface SessionPlace {
  /** The session's id, chosen before the folder was made (the worktree's branch is named after it). */
  id: string;
  workspace: string;
  /** How the folder was made, logged after the session's start. */
  setup: SessionEvent[];
}

/**
 * The sessions a UI host runs: starts them, queues what the person types while the agent works,
 * stops them, and routes the person's answers to the one broker that waits for them. Every event a
 * run appends is pushed to the UI once it is committed (store/sessionLog.ts).
 */
export class SessionManager {
  private readonly running = new Map<string, Running>();
  private readonly modes = new Map<string, PermissionMode>();
  /** Sessions with a rewind under way: their next run waits for it. */
  private readonly holds = new Map<string, Promise<void>>();
  readonly broker = new InteractiveBroker();

  constructor(private readonly options: SessionManagerOptions) {}

  start(input: { workspace: string; task: string; mode?: Exclude<PermissionMode, 'unleashed'>; place?: SessionPlace }): string {
    const sessionId = this.options.core.createSession({
      ...(input.place ? { id: input.place.id, project: input.workspace, setup: input.place.setup } : {}),
      workspace: input.place?.workspace ?? input.workspace,
      task: input.task,
      model: this.options.modelConfig(),
      maxSteps: this.options.maxSteps(),
    });
    this.modes.set(sessionId, input.mode ?? this.options.defaultMode());
    for (const stored of this.options.core.store.events.list(sessionId)) this.options.emit('session:event', stored);
    this.launch(sessionId, { resume: false, before: this.options.beforeFirstRun?.(sessionId) });
    return sessionId;
  }

  /** A message while the agent works waits for its next turn; otherwise it starts a new run. */
  send(sessionId: string, text: string): void {
    this.requireSession(sessionId);
    const running = this.running.get(sessionId);
    if (running) {
      running.queue.push(text);
      return;
    }
    this.launch(sessionId, { resume: true, message: text });
  }

  /**
   * The failure notice's Retry: runs a stopped session again from where it stopped, with no new
   * message (the model is asked again with the conversation as it is). A session that answered has
   * nothing to retry; one that works or waits is already running.
   */
  retry(sessionId: string): void {
    const row = this.requireSession(sessionId);
    if (this.running.has(sessionId)) throw new RequestError('conflict', 'This session is already working; there is nothing to retry.');
    if (row.status === 'done') throw new RequestError('conflict', 'This session finished with an answer; send a message to go on.');
    this.launch(sessionId, { resume: true });
  }

  /**
   * "Compact now". A working session compacts before its next model request (a turn is never cut in
   * two); one that is not working compacts at once, on its own, and a message sent meanwhile waits.
   */
  compact(sessionId: string): CompactStarted {
    this.requireSession(sessionId);
    const running = this.running.get(sessionId);
    if (running) {
      running.compactRequested = true;
      return { when: 'next_turn' };
    }
    this.launchCompaction(sessionId);
    return { when: 'now' };
  }

  stop(sessionId: string): void {
    this.requireSession(sessionId);
    this.running.get(sessionId)?.controller.abort(new Error('Stopped by the person.'));
  }

  /** `sessionId` is the session the stored, unanswered request belongs to. */
  answer(answer: ApprovalAnswer, sessionId: string): void {
    if (this.broker.isWaiting(answer.approvalId)) {
      this.broker.answer(answer);
      return;
    }
    // The run that will ask again is still starting (after a restart), or is not running at all.
    this.broker.answer(answer, { stillAsked: true });
    if (!this.running.has(sessionId)) this.launch(sessionId, { resume: true });
  }

  /** Judges the person's version of a waiting call, as the answer would; nothing runs or is logged. */
  previewAnswer(request: ApprovalPreviewRequest): ApprovalPreview {
    return this.broker.preview(request.approvalId, request.args);
  }

  setMode(sessionId: string, mode: PermissionMode): SessionSummary {
    this.requireSession(sessionId);
    const refused = mode === 'unleashed' ? unleashedRefusal(readManagedPolicy()) : undefined;
    if (refused) throw new RequestError('invalid_input', refused);
    this.modes.set(sessionId, mode);
    this.running.get(sessionId)?.engine?.setMode(mode);
    const summary = this.summary(sessionId);
    this.options.emit('sessions:changed', summary);
    return summary;
  }

  /**
   * A rule of the person's settings.json was added or taken out: every run in progress follows at
   * once (a deny added while the agent works holds for its next call); new runs read the file.
   */
  applySettingsRule(change: 'add' | 'remove', rule: Pick<PermissionRule, 'pattern' | 'action'>): void {
    for (const running of this.running.values()) {
      if (change === 'add') running.engine?.addRule({ ...rule, source: 'user' });
      else running.engine?.removeRule({ ...rule, source: 'user' });
    }
  }

  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /**
   * Does `work` (a rewind) on a session whose agent is not running, and refuses while it is. A run
   * asked for meanwhile (a message, an answer) waits until the work is done.
   */
  async whileStopped<T>(sessionId: string, what: string, work: () => Promise<T>): Promise<T> {
    this.requireSession(sessionId);
    if (this.running.has(sessionId)) {
      throw new RequestError(
        'conflict',
        `Cannot ${what} while the agent is working on this session: stop it (or wait until it finishes), then try again.`,
      );
    }
    if (this.holds.has(sessionId))
      throw new RequestError('conflict', `Cannot ${what} now: a rewind of this session is still under way. Try again when it is done.`);
    const done = work();
    this.holds.set(
      sessionId,
      done.then(
        () => undefined,
        () => undefined,
      ),
    );
    try {
      return await done;
    } finally {
      this.holds.delete(sessionId);
    }
  }

  /**
   * After a restart, sessions that were waiting for the person wait again, under the same request ids,
   * so a pending approval can still be answered. Nothing runs until it is.
   */
  resumeWaiting(): void {
    for (const session of this.options.core.store.sessions.list()) {
      if (session.status !== 'waiting' || this.running.has(session.id)) continue;
      // A remote run's mirror waits on its runner, which asks again when it reconnects.
      if (this.options.remoteRun?.(session.id)) continue;
      this.launch(session.id, { resume: true });
    }
  }

  summary(sessionId: string): SessionSummary {
    return this.toSummary(this.requireSession(sessionId));
  }

  list(projectId?: string): SessionSummary[] {
    return this.options.core.store.sessions.list(projectId ? { projectId } : {}).map((row) => this.toSummary(row));
  }

  delete(sessionId: string): void {
    if (this.running.has(sessionId)) throw new RequestError('conflict', 'This session is still working; stop it before deleting it.');
    this.requireSession(sessionId);
    this.options.core.store.sessions.delete(sessionId);
    this.modes.delete(sessionId);
    this.options.emit('sessions:deleted', { sessionId });
  }

  /** Stops every run and waits for each to write its end. */
  async close(): Promise<void> {
    const runs = [...this.running.values()];
    for (const run of runs) run.controller.abort(new ShuttingDown());
    await Promise.all(runs.map((run) => run.done));
  }

  private launch(sessionId: string, start: { resume: boolean; message?: string; before?: Promise<void> | undefined }): void {
    const controller = new AbortController();
    const running: Running = { controller, queue: [], done: Promise.resolve() };
    this.running.set(sessionId, running);
    const { core, emit } = this.options;
    running.done = Promise.all([start.before, this.holds.get(sessionId)])
      .then(() =>
        core.run(sessionId, {
          model: this.options.modelConfig(),
          broker: this.broker,
          signal: controller.signal,
          resume: start.resume,
          ...(start.message ? { message: start.message } : {}),
          mode: this.modes.get(sessionId) ?? this.options.defaultMode(),
          takeQueuedMessages: () => running.queue.splice(0),
          takeCompactRequest: () => {
            const asked = running.compactRequested === true;
            running.compactRequested = false;
            return asked;
          },
          onPermissions: (engine) => {
            running.engine = engine;
          },
          onEvent: (stored) => {
            emit('session:event', stored);
            emit('sessions:changed', this.summary(sessionId));
          },
          onLive: (event) => emit('session:live', event),
        }),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          // A run that could not start (bad settings, a locked database) must still say so where the person looks.
          const reason = `The session could not run: ${(error as Error).message ?? String(error)}`;
          const stored = core.store.events.append(sessionId, { type: 'session.finished', status: 'failed', reason });
          emit('session:event', stored);
        },
      )
      .finally(() => {
        this.running.delete(sessionId);
        const left = running.queue.splice(0);
        if (this.options.core.store.sessions.get(sessionId)) emit('sessions:changed', this.summary(sessionId));
        // A message typed just as the run ended starts the next one rather than being lost.
        if (left.length > 0) this.launch(sessionId, { resume: true, message: left.join('\n\n') });
        // So does a "Compact now" that came after the run's last turn began.
        if (running.compactRequested) {
          const next = this.running.get(sessionId);
          if (next) next.compactRequested = true;
          else if (this.options.core.store.sessions.get(sessionId)) this.launchCompaction(sessionId);
        }
      });
  }

  /** A compaction on its own, tracked like a run: stop aborts it, and messages sent meanwhile start a run after it. */
  private launchCompaction(sessionId: string): void {
    const controller = new AbortController();
    const running: Running = { controller, queue: [], done: Promise.resolve() };
    this.running.set(sessionId, running);
    const { core, emit } = this.options;
    running.done = Promise.resolve(this.holds.get(sessionId))
      .then(() =>
        core.compact(sessionId, {
          model: this.options.modelConfig(),
          signal: controller.signal,
          onEvent: (stored) => {
            emit('session:event', stored);
            emit('sessions:changed', this.summary(sessionId));
          },
        }),
      )
      .then(
        () => undefined,
        (error: unknown) => {
          const reason = `The conversation could not be compacted: ${(error as Error).message ?? String(error)}`;
          emit('session:event', core.store.events.append(sessionId, { type: 'context.compaction_failed', reason }));
        },
      )
      .finally(() => {
        this.running.delete(sessionId);
        if (!core.store.sessions.get(sessionId)) return;
        emit('sessions:changed', this.summary(sessionId));
        const left = running.queue.splice(0);
        if (left.length > 0) this.launch(sessionId, { resume: true, message: left.join('\n\n') });
      });
  }

  private requireSession(sessionId: string): SessionRow {
    const row = this.options.core.store.sessions.get(sessionId);
    if (!row) throw new RequestError('not_found', `There is no session ${sessionId}; it may have been deleted.`);
    return row;
  }

  private toSummary(row: SessionRow): SessionSummary {
    const mode = this.modes.get(row.id) ?? this.options.defaultMode();
    const missing = mode === 'auto' ? this.options.sandboxMissing?.() : undefined;
    const remote = this.options.remoteRun?.(row.id);
    return {
      id: row.id,
      projectId: row.projectId,
      title: row.title,
      workspace: row.workspace,
      model: row.model,
      status: row.status,
      pendingApprovals: this.options.core.store.approvals.waitingCount(row.id),
      mode,
      ...(missing ? { autoWorksAsAsk: missing } : {}),
      updatedAt: row.updatedAt,
      lastSeq: row.lastSeq,
      usage: row.usage,
      costUsd: row.costUsd,
      ...(remote ? { remote } : {}),
    };
  }
}

import type { ApprovalAnswer, EventName, EventPayload, SessionSummary } from '../../shared/contract';
import type { PermissionMode } from '../../shared/permissions';
import type { Core } from '../core';
import type { ModelConfig } from '../model/config';
import type { PermissionEngine } from '../permissions/engine';
import type { SessionRow } from '../store/sessions';
import { ShuttingDown } from '../agent/shuttingDown';
import { HostError } from './hostError';
import { InteractiveBroker } from './interactiveBroker';

type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

interface Running {
  controller: AbortController;
  queue: string[];
  engine?: PermissionEngine;
  done: Promise<void>;
}

export interface SessionManagerOptions {
  core: Core;
  /** How to reach the model now (settings + key). */
  modelConfig(): ModelConfig;
  maxSteps(): number;
  defaultMode(): Exclude<PermissionMode, 'unleashed'>;
  emit: Emit;
  /** Runs before a new session's first step (the live diff's base snapshot). */
  beforeFirstRun?(sessionId: string): Promise<void>;
}

/**
 * The sessions a UI host runs: starts them, queues what the person types while the agent works,
 * stops them, and routes the person's answers to the one broker that waits for them. Every event a
 * run appends is pushed to the UI as it is stored.
 */
export class SessionManager {
  private readonly running = new Map<string, Running>();
  private readonly modes = new Map<string, PermissionMode>();
  readonly broker = new InteractiveBroker();

  constructor(private readonly options: SessionManagerOptions) {}

  start(input: { workspace: string; task: string; mode?: Exclude<PermissionMode, 'unleashed'> }): string {
    const sessionId = this.options.core.createSession({
      workspace: input.workspace,
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

  setMode(sessionId: string, mode: PermissionMode): SessionSummary {
    this.requireSession(sessionId);
    this.modes.set(sessionId, mode);
    this.running.get(sessionId)?.engine?.setMode(mode);
    const summary = this.summary(sessionId);
    this.options.emit('sessions:changed', summary);
    return summary;
  }

  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /**
   * After a restart, sessions that were waiting for the person wait again, under the same request ids,
   * so a pending approval can still be answered. Nothing runs until it is.
   */
  resumeWaiting(): void {
    for (const session of this.options.core.store.sessions.list()) {
      if (session.status === 'waiting' && !this.running.has(session.id)) this.launch(session.id, { resume: true });
    }
  }

  summary(sessionId: string): SessionSummary {
    return this.toSummary(this.requireSession(sessionId));
  }

  list(projectId?: string): SessionSummary[] {
    return this.options.core.store.sessions.list(projectId ? { projectId } : {}).map((row) => this.toSummary(row));
  }

  delete(sessionId: string): void {
    if (this.running.has(sessionId)) throw new HostError('conflict', 'This session is still working; stop it before deleting it.');
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
    running.done = (start.before ?? Promise.resolve())
      .then(() =>
        core.run(sessionId, {
          model: this.options.modelConfig(),
          broker: this.broker,
          signal: controller.signal,
          resume: start.resume,
          ...(start.message ? { message: start.message } : {}),
          mode: this.modes.get(sessionId) ?? this.options.defaultMode(),
          takeQueuedMessages: () => running.queue.splice(0),
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
      });
  }

  private requireSession(sessionId: string): SessionRow {
    const row = this.options.core.store.sessions.get(sessionId);
    if (!row) throw new HostError('not_found', `There is no session ${sessionId}; it may have been deleted.`);
    return row;
  }

  private toSummary(row: SessionRow): SessionSummary {
    return {
      id: row.id,
      projectId: row.projectId,
      title: row.title,
      workspace: row.workspace,
      model: row.model,
      status: row.status,
      pendingApprovals: this.options.core.store.approvals.pending(row.id).length,
      mode: this.modes.get(row.id) ?? this.options.defaultMode(),
      updatedAt: row.updatedAt,
      lastSeq: row.lastSeq,
    };
  }
}

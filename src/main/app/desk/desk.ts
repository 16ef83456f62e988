import type { ApprovalAnswer, PendingApproval, SessionSummary } from '../../../shared/contract';
import {
  RunnerMessage,
  type AnswerOutcome,
  type DeskDecision,
  type DeskMessage,
  type RunRegistration,
  type RunnerRule,
} from '../../../shared/deskProtocol';
import type { EventOf, SessionEvent, StoredEvent } from '../../../shared/events';
import type { RemoteRunInfo } from '../../../shared/remoteRuns';
import { RequestError } from '../../../shared/requestError';
import { validateAllowAlwaysRule } from '../../permissions/allowAlways';
import type { ApprovalRow } from '../../store/approvals';
import type { RemoteRunRow } from '../../store/remoteRuns';
import type { Store } from '../../store/store';
import { StoreError } from '../../store/storeError';
import type { EmitEvent } from '../appServices';

/**
 * The desk's side of remote runs, whatever carries the frames (deskListener.ts: a WebSocket).
 *
 * A remote run is mirrored into an ordinary session of this database, its log copied event for
 * event and seq for seq, so the sidebar, the Inbox, the request, the conversation and the audit
 * show it as they show any session. The mirror is marked remote (store/remoteRuns.ts) and the
 * handlers refuse to run, revert or rewind it here (remoteSessionGuard.ts): its files are on another
 * machine, and nothing a runner sends may make this machine act.
 *
 * What a runner may do, and nothing else: register its own run (its runner name is its token's),
 * add events to that run's mirror in order, and say what it did with an answer. Its approval ids are
 * rewritten into the desk's own namespace (`remote:<session>:<id>`), so a request can never take the
 * id of another session's; every lookup goes through the run the connection registered.
 */

/** One runner's connection, as the listener hands it over: its name is its token's. */
export interface RunnerLink {
  readonly runner: string;
  send(message: DeskMessage): void;
  /** Closes the connection; the runner reconnects unless `final`. */
  close(reason: string, final?: boolean): void;
}

/** What the listener tells the desk about one connection. */
export interface RunnerConnection {
  receive(message: unknown): void;
  closed(): void;
}

interface LiveRun {
  link: RunnerLink;
  sessionId: string;
  repository: string;
}

export interface DeskOptions {
  store: Store;
  emit: EmitEvent;
  /** The session as the sidebar shows it (SessionManager.summary). */
  summary(sessionId: string): SessionSummary;
  /** How long `approval:answer` waits for the run to say it took an answer before it returns anyway. */
  answerAckMs?: number;
  log?(message: string, error?: unknown): void;
}

const REMOTE_APPROVAL = /^remote:([0-9a-z]{16}):([A-Za-z0-9_-]{1,100})$/;
const RUNNER_APPROVAL_ID = /^[A-Za-z0-9_-]{1,100}$/;

export class Desk {
  private readonly live = new Map<string, LiveRun>();
  private readonly waitingForTaken = new Map<string, (outcome: AnswerOutcome) => void>();
  private readonly log: (message: string, error?: unknown) => void;

  constructor(private readonly options: DeskOptions) {
    this.log = options.log ?? ((message, error) => console.error(`tether desk: ${message}`, error ?? ''));
  }

  /** A runner's connection, authenticated as `link.runner`: its first frame must register a run. */
  attach(link: RunnerLink): RunnerConnection {
    let sessionId: string | undefined;
    const refuse = (code: string, message: string): void => {
      link.send({ type: 'refused', code, message });
      link.close(message, true);
    };
    return {
      receive: (data) => {
        const parsed = RunnerMessage.safeParse(data);
        if (!parsed.success) {
          refuse('bad_message', `The desk cannot read this frame: ${parsed.error.issues[0]?.message ?? 'not a runner message'}.`);
          return;
        }
        const message = parsed.data;
        try {
          if (message.type === 'register') {
            if (sessionId) return refuse('bad_message', 'This connection already registered its run.');
            sessionId = this.register(link, message.run);
            return;
          }
          if (!sessionId) return refuse('bad_message', 'Register the run first: the first frame is {"type": "register"}.');
          if (message.type === 'events') {
            const problem = this.mirror(sessionId, message.events);
            if (problem) refuse('bad_events', problem);
            return;
          }
          this.taken(sessionId, message.approvalId, message.outcome);
        } catch (error) {
          this.log(`a frame from runner ${link.runner} failed`, error);
          refuse('failed', 'The desk failed to take this frame; it has the details in its log.');
        }
      },
      closed: () => {
        if (!sessionId || this.live.get(sessionId)?.link !== link) return;
        this.live.delete(sessionId);
        this.changed(sessionId);
      },
    };
  }

  /** Whether the session is a remote run's mirror: shown and answered here, never run. */
  isRemote(sessionId: string): boolean {
    return this.options.store.remote.run(sessionId) !== undefined;
  }

  /** The runner of a remote session, for its summary. */
  info(sessionId: string): RemoteRunInfo | undefined {
    const run = this.options.store.remote.run(sessionId);
    return run && infoOf(run, this.live.has(sessionId));
  }

  /** The inbox with each remote request named by its runner, less those answered here and on their way to the run. */
  decorate(pending: PendingApproval[]): PendingApproval[] {
    const { remote } = this.options.store;
    const runners = new Map<string, string | undefined>();
    const runnerOf = (sessionId: string): string | undefined => {
      if (!runners.has(sessionId)) runners.set(sessionId, remote.run(sessionId)?.runner);
      return runners.get(sessionId);
    };
    return pending.flatMap((entry) => {
      const runner = runnerOf(entry.sessionId);
      if (runner === undefined) return [entry];
      if (remote.answer(entry.approvalId)) return [];
      return [{ ...entry, runner }];
    });
  }

  /**
   * The person's answer to a remote request. Kept before it is sent, so it reaches the run even if
   * this desk restarts first; sent at once when the run is connected, else when it reconnects. Waits
   * (a short while) for the run to say what it did, so an answer that came too late says so.
   */
  async answer(answer: ApprovalAnswer, approval: ApprovalRow): Promise<void> {
    const { store } = this.options;
    const run = store.remote.run(approval.sessionId);
    const ids = REMOTE_APPROVAL.exec(answer.approvalId);
    if (!run || !ids || ids[1] !== approval.sessionId) throw new RequestError('not_found', 'There is no such permission request.');
    const runnerApprovalId = ids[2]!;
    const decision = this.decisionFor(answer, approval, run);
    if (
      !store.remote.addAnswer({
        approvalId: answer.approvalId,
        sessionId: run.sessionId,
        runnerApprovalId,
        decision: JSON.stringify(decision),
      })
    ) {
      throw new RequestError('conflict', `This request was already answered; the answer is on its way to runner ${run.runner}.`);
    }
    if (decision.scope === 'project' && decision.rule) {
      store.remote.addRule({
        runner: run.runner,
        repository: run.repository,
        pattern: decision.rule,
        createdFromApproval: answer.approvalId,
      });
    }
    const live = this.live.get(run.sessionId);
    if (!live) return;
    const taken = this.whenTaken(answer.approvalId);
    live.link.send({ type: 'answer', approvalId: runnerApprovalId, decision });
    if (decision.scope === 'project') this.sendRules(run.runner, run.repository);
    const outcome = await taken;
    if (outcome === 'not_waiting') {
      throw new RequestError(
        'conflict',
        `Runner ${run.runner} no longer waits for this request (its wait ran out, or its run stopped), so this answer was not used.`,
      );
    }
  }

  /** The person's Stop: the run is told to stop; a run that is not connected cannot be. */
  stop(sessionId: string): void {
    const live = this.live.get(sessionId);
    const run = this.options.store.remote.run(sessionId);
    if (!live || !run) {
      throw new RequestError(
        'conflict',
        `This remote run is not connected to the desk${run ? ` (runner ${run.runner})` : ''}, so it cannot be stopped from here.`,
      );
    }
    live.link.send({ type: 'stop', reason: 'Stopped by the person at the desk.' });
  }

  /** Whether the run is connected now. */
  isConnected(sessionId: string): boolean {
    return this.live.has(sessionId);
  }

  /** Revokes the runner's token and cuts off its runs at once; how many tokens were revoked. */
  revokeToken(name: string): number {
    const revoked = this.options.store.remote.revokeToken(name);
    for (const live of [...this.live.values()]) {
      if (live.link.runner !== name) continue;
      live.link.send({ type: 'refused', code: 'revoked_token', message: `The token of runner ${name} was revoked at the desk.` });
      live.link.close('token revoked', true);
    }
    return revoked;
  }

  /** Revokes a runner's rule; its live runs in that repository stop applying it at once. */
  revokeRule(ruleId: string): void {
    const { remote } = this.options.store;
    const rule = remote.rule(ruleId);
    if (!rule || !remote.revokeRule(ruleId)) throw new RequestError('not_found', `There is no rule ${ruleId} in force for a runner.`);
    this.sendRules(rule.runner, rule.repository);
  }

  /** Closes every runner's connection (the desk stops); they reconnect to the next desk. */
  closeAll(reason: string): void {
    for (const live of [...this.live.values()]) live.link.close(reason);
    this.live.clear();
  }

  private register(link: RunnerLink, run: RunRegistration): string {
    const { store } = this.options;
    let row = store.remote.runNamedBy(link.runner, run.runId);
    const facts = {
      machine: run.machine,
      repository: run.repository,
      branch: run.branch,
      tetherVersion: run.tetherVersion,
      waitMs: run.waitMs,
    };
    if (row) {
      store.remote.runSeen(row.sessionId, facts);
    } else {
      // The session's model, API and workspace are pinned by the run's own session.started, mirrored next.
      const session = store.sessions.create({ workspace: run.workspace, model: run.model, api: 'responses', baseUrl: '', maxSteps: 1 });
      store.remote.addRun({ sessionId: session.id, runner: link.runner, runId: run.runId, ...facts });
    }
    row = store.remote.run(store.remote.runNamedBy(link.runner, run.runId)!.sessionId)!;
    const { sessionId } = row;
    // One connection per run: a reconnect replaces the one the runner gave up on.
    const previous = this.live.get(sessionId);
    if (previous) previous.link.close('Replaced by a newer connection of the same run.');
    this.live.set(sessionId, { link, sessionId, repository: row.repository });
    link.send({
      type: 'registered',
      runner: link.runner,
      mirroredSeq: store.sessions.get(sessionId)?.lastSeq ?? 0,
      rules: this.rulesOf(link.runner, row.repository),
    });
    for (const answer of store.remote.untakenAnswers(sessionId)) {
      link.send({ type: 'answer', approvalId: answer.runnerApprovalId, decision: JSON.parse(answer.decision) as DeskDecision });
    }
    this.changed(sessionId);
    return sessionId;
  }

  /**
   * Appends the run's events to its mirror, in order, in one commit; a repeat is skipped, and a gap
   * or a refused event is the problem returned (what came before it is kept). The UI hears of them
   * once committed.
   */
  private mirror(sessionId: string, events: StoredEvent[]): string | undefined {
    const { store, emit } = this.options;
    let last = store.sessions.get(sessionId)?.lastSeq ?? 0;
    let problem: string | undefined;
    const appended: StoredEvent[] = [];
    for (const stored of events) {
      if (stored.seq <= last) continue;
      if (stored.seq !== last + 1) {
        problem = `Event ${stored.seq} came after ${last}: the run's events reach the desk in order, each once.`;
        break;
      }
      const event = namespaced(sessionId, stored.event);
      if (typeof event === 'string') {
        problem = event;
        break;
      }
      try {
        appended.push(store.events.appendGrouped(sessionId, event).stored);
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        problem = `The desk refused event ${stored.seq}: ${error.message}`;
        break;
      }
      last = stored.seq;
    }
    try {
      store.events.commit();
    } catch (error) {
      // Lost with the group: the run sends them again after it reconnects, from what the desk holds.
      this.log(`could not store events of remote session ${sessionId}`, error);
      return 'The desk could not store these events; it has the details in its log.';
    }
    for (const stored of appended) emit('session:event', stored);
    this.changed(sessionId);
    return problem;
  }

  private taken(sessionId: string, runnerApprovalId: string, outcome: AnswerOutcome): void {
    const approvalId = deskApprovalId(sessionId, runnerApprovalId);
    const answer = this.options.store.remote.answer(approvalId);
    // Only an answer this desk sent to this run; anything else is ignored.
    if (!answer || answer.sessionId !== sessionId) return;
    if (answer.takenAt === null) this.options.store.remote.answerTaken(approvalId, outcome);
    this.waitingForTaken.get(approvalId)?.(outcome);
  }

  private whenTaken(approvalId: string): Promise<AnswerOutcome | 'no_word'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done('no_word'), this.options.answerAckMs ?? 10_000);
      const done = (outcome: AnswerOutcome | 'no_word'): void => {
        clearTimeout(timer);
        this.waitingForTaken.delete(approvalId);
        resolve(outcome);
      };
      this.waitingForTaken.set(approvalId, done);
    });
  }

  /**
   * The answer as the run takes it. Allow always reaches this run (`session`) or this repository on
   * this runner (`project`, kept here as the runner's rule), never "everywhere"; a rule outside what
   * the request offered counts once, as it does for a local session.
   */
  private decisionFor(answer: ApprovalAnswer, approval: ApprovalRow, run: RemoteRunRow): DeskDecision {
    const message = answer.message?.trim();
    if (answer.action === 'deny') return { action: 'deny', scope: 'once', ...(message ? { message } : {}) };
    const edited = answer.args !== undefined ? { editedArgs: answer.args } : {};
    if (answer.scope === 'everywhere') {
      throw new RequestError(
        'invalid_input',
        `Allow always for a remote run reaches this run, or this repository on runner ${run.runner}; not everywhere.`,
      );
    }
    if (answer.scope === 'once' || answer.args !== undefined)
      return { action: 'allow', scope: 'once', ...(message ? { message } : {}), ...edited };
    const offered = this.offerOf(approval);
    const check = offered ? validateAllowAlwaysRule(answer.rule?.trim() || offered, offered) : undefined;
    if (!check?.ok) return { action: 'allow', scope: 'once', ...(message ? { message } : {}) };
    return { action: 'allow', scope: answer.scope, rule: check.rule, ...(message ? { message } : {}) };
  }

  private offerOf(approval: ApprovalRow): string | undefined {
    const asked = this.options.store.events
      .listOfTypes(approval.sessionId, ['approval.asked'])
      .find((stored) => stored.event.type === 'approval.asked' && stored.event.approvalId === approval.id);
    const offer = (asked?.event as EventOf<'approval.asked'> | undefined)?.allowAlways;
    return offer && 'rule' in offer ? offer.rule : undefined;
  }

  private rulesOf(runner: string, repository: string): RunnerRule[] {
    return this.options.store.remote.rulesOf(runner, repository).map((rule) => ({ id: rule.id, pattern: rule.pattern }));
  }

  private sendRules(runner: string, repository: string): void {
    const rules = this.rulesOf(runner, repository);
    for (const live of this.live.values()) {
      if (live.link.runner === runner && live.repository === repository) live.link.send({ type: 'rules', rules });
    }
  }

  private changed(sessionId: string): void {
    try {
      this.options.emit('sessions:changed', this.options.summary(sessionId));
    } catch (error) {
      this.log(`could not announce remote session ${sessionId}`, error);
    }
  }
}

/** The desk's id for a run's approval: its own namespace, which no local approval (a UUID) can take. */
export function deskApprovalId(sessionId: string, runnerApprovalId: string): string {
  return `remote:${sessionId}:${runnerApprovalId}`;
}

/** The run's event with its approval ids in the desk's namespace, or why it cannot be taken. */
function namespaced(sessionId: string, event: SessionEvent): SessionEvent | string {
  if (event.type !== 'approval.asked' && event.type !== 'approval.answered') return event;
  if (!RUNNER_APPROVAL_ID.test(event.approvalId)) {
    return `An approval id is 1 to 100 letters, digits, - or _; not ${JSON.stringify(event.approvalId.slice(0, 120))}.`;
  }
  return { ...event, approvalId: deskApprovalId(sessionId, event.approvalId) };
}

function infoOf(run: RemoteRunRow, connected: boolean): RemoteRunInfo {
  return {
    runner: run.runner,
    machine: run.machine,
    repository: run.repository,
    branch: run.branch,
    connected,
    waitMs: run.waitMs,
    lastSeenAt: run.lastSeenAt,
  };
}

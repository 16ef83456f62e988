import { randomUUID } from 'node:crypto';
import type { DeskMessage, RunnerRule } from '../../../shared/deskProtocol';
import type { StoredEvent } from '../../../shared/events';
import { TETHER_VERSION } from '../../../shared/version';
import type { GrantKeeper } from '../../permissions/grant';
import type { PermissionEngine } from '../../permissions/engine';
import type { SessionPermissions } from '../../permissions/sessionPermissions';
import type { EventLog } from '../../store/eventLog';
import { DeskLink, type DeskFailure } from './deskLink';
import { RemoteBroker } from './remoteBroker';
import { runFacts } from './runFacts';

/**
 * One `tether run --desk`: the link to the desk, the broker that waits for its answers, the mirror
 * of the run's log (every event once, in order, from where the desk's copy ends after each
 * reconnect), the rules the desk keeps for this repository on this runner, and the desk's Stop.
 */

export interface JoinDesk {
  url: string;
  token: string;
  fingerprint?: string;
  waitMs: number;
  workspace: string;
  model: string;
  /** Called when the person stops the run at the desk. */
  onStop(reason: string): void;
  /** Called when the desk is gone for good (token revoked while the run waits, say). */
  onGone(failure: DeskFailure): void;
  connectTimeoutMs?: number;
}

const RULE_PREFIX = 'desk:';
const PAGE = { maxEvents: 500, maxChars: 4 * 1024 * 1024 };

export class DeskSession {
  readonly broker: RemoteBroker;
  private engine: PermissionEngine | undefined;
  private rules: RunnerRule[] = [];
  private log: { events: Pick<EventLog, 'page'>; sessionId: string } | undefined;
  /** The seq the desk's copy holds up to; -1 until the desk said. */
  private sentSeq = -1;
  private flushing: NodeJS.Immediate | undefined;

  private constructor(
    private readonly link: DeskLink,
    readonly runner: string,
    options: JoinDesk,
  ) {
    this.broker = new RemoteBroker({ waitMs: options.waitMs, runner });
  }

  /** Connects, registers and learns the rules, before anything of the run is written; a refusal is a DeskFailure. */
  static async join(options: JoinDesk): Promise<DeskSession> {
    const facts = await runFacts(options.workspace);
    let session: DeskSession | undefined;
    const pending: DeskMessage[] = [];
    const link = new DeskLink({
      url: options.url,
      token: options.token,
      ...(options.fingerprint ? { fingerprint: options.fingerprint } : {}),
      registration: {
        runId: randomUUID(),
        ...facts,
        workspace: options.workspace,
        tetherVersion: TETHER_VERSION,
        waitMs: options.waitMs,
        model: options.model,
      },
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      onMessage: (message) => (session ? session.receive(message, options) : pending.push(message)),
      onFailure: (failure) => {
        session?.broker.giveUp(`The desk is gone for good, so this was denied: ${failure.message}`);
        options.onGone(failure);
      },
    });
    const registered = await link.open();
    session = new DeskSession(link, registered.runner, options);
    session.receive(registered, options);
    for (const message of pending.splice(0)) session.receive(message, options);
    return session;
  }

  /** The run's log is written from here on: mirror it, from the start. */
  attach(events: Pick<EventLog, 'page'>, sessionId: string): void {
    this.log = { events, sessionId };
    this.flush();
  }

  /**
   * Each event the run appends, once committed: sent with the others of this turn of the event loop,
   * in one frame (an answer is followed at once by tool.started; the desk stores a frame in one commit).
   */
  onEvent(_stored: StoredEvent): void {
    if (this.flushing) return;
    this.flushing = setImmediate(() => {
      this.flushing = undefined;
      this.flush();
    });
  }

  /** The run's engine: the desk's rules for this repository go into force there. */
  onPermissions(engine: PermissionEngine): void {
    this.engine = engine;
    this.applyRules(this.rules);
  }

  /**
   * Who keeps this run's grants: "this run" stays with the run's session (in its own data folder);
   * "this repository on this runner" is kept by the desk, which sends it back as one of its rules.
   */
  grants(permissions: SessionPermissions): GrantKeeper {
    return {
      remember: (grant) => {
        if (grant.scope === 'session') permissions.remember(grant);
      },
    };
  }

  /** Sends what the desk has not got yet and closes; waits a short while for a desk that is away. */
  async close(graceMs = 5_000): Promise<void> {
    const until = Date.now() + graceMs;
    while (Date.now() < until && !this.link.gone && !this.synced()) {
      this.flush();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.link.close();
  }

  private synced(): boolean {
    if (!this.log || !this.link.connected || this.sentSeq < 0) return false;
    return this.log.events.page(this.log.sessionId, this.sentSeq, { maxEvents: 1, maxChars: 1 }).events.length === 0;
  }

  private receive(message: DeskMessage, options: JoinDesk): void {
    switch (message.type) {
      case 'registered':
        this.sentSeq = message.mirroredSeq;
        this.applyRules(message.rules);
        this.flush();
        return;
      case 'answer':
        this.link.send({
          type: 'answer.taken',
          approvalId: message.approvalId,
          outcome: this.broker.take(message.approvalId, message.decision),
        });
        return;
      case 'rules':
        this.applyRules(message.rules);
        return;
      case 'stop':
        options.onStop(message.reason);
        return;
      case 'refused':
        // The link turns a refusal into a failure before it gets here.
        return;
    }
  }

  /** Sends every event after what the desk holds, a page at a time. */
  private flush(): void {
    if (!this.log || this.sentSeq < 0 || !this.link.connected) return;
    for (;;) {
      const { events, more } = this.log.events.page(this.log.sessionId, this.sentSeq, PAGE);
      if (events.length === 0) return;
      if (!this.link.send({ type: 'events', events })) return;
      this.sentSeq = events[events.length - 1]!.seq;
      if (!more) return;
    }
  }

  private applyRules(rules: RunnerRule[]): void {
    this.rules = rules;
    const engine = this.engine;
    if (!engine) return;
    const wanted = new Set(rules.map((rule) => `${RULE_PREFIX}${rule.id}`));
    for (const rule of engine.rules()) {
      if (rule.id?.startsWith(RULE_PREFIX) && !wanted.has(rule.id)) engine.removeRule({ id: rule.id });
    }
    const present = new Set(engine.rules().map((rule) => rule.id));
    for (const rule of rules) {
      const id = `${RULE_PREFIX}${rule.id}`;
      if (present.has(id)) continue;
      try {
        engine.addRule({ id, pattern: rule.pattern, action: 'allow', source: 'user' });
      } catch {
        // A rule this version cannot read is left out: it only allows, so leaving it out only asks more.
      }
    }
  }
}

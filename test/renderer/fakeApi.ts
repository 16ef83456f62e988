import type { EventName, EventPayload, Input, Output, RequestName, TetherApi, Unsubscribe } from '../../src/shared/contract';
import type { SessionEvent, StoredEvent } from '../../src/shared/events';
import { SessionFolds } from '../../src/main/app/sessions/sessionFolds';

type FakeHandlers = { [R in RequestName]?: (input: Input<R>) => Output<R> | Promise<Output<R>> };

/**
 * A TetherApi with scripted answers: records every request, lets a test push events as the core
 * would, and fails loudly on a request nobody scripted. A test that scripts a session's log
 * (`session:events`) gets `session:open` and `session:page` answered from it as main answers them
 * (its whole fold, SessionFolds), unless it scripts those too.
 */
export class FakeApi implements TetherApi {
  readonly calls: { name: RequestName; input: unknown }[] = [];
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();

  constructor(public handlers: FakeHandlers = {}) {}

  async request<R extends RequestName>(name: R, input: Input<R>): Promise<Output<R>> {
    this.calls.push({ name, input });
    const handler = this.handlers[name] as ((input: Input<R>) => Output<R> | Promise<Output<R>>) | undefined;
    if (!handler) {
      const fromLog = await this.fromScriptedLog(name, input);
      if (fromLog !== undefined) return fromLog;
      throw new Error(`FakeApi: no handler scripted for ${name}`);
    }
    return handler(input);
  }

  /** `session:open` and `session:page` as main answers them, over the log the test scripted as `session:events`. */
  private async fromScriptedLog<R extends RequestName>(name: R, input: Input<R>): Promise<Output<R> | undefined> {
    const events = this.handlers['session:events'];
    if (!events || (name !== 'session:open' && name !== 'session:page')) return undefined;
    const { sessionId } = input as { sessionId: string };
    const log = await events({ sessionId, afterSeq: 0 });
    const folds = new SessionFolds({ list: (_sessionId, afterSeq) => log.filter((stored) => stored.seq > afterSeq) });
    if (name === 'session:open') return folds.snapshot(sessionId) as Output<R>;
    const { beforeItem, limit } = input as Input<'session:page'>;
    return folds.page(sessionId, beforeItem, limit ?? 500) as Output<R>;
  }

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): Unsubscribe {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners.get(name) ?? []) (listener as (payload: EventPayload<E>) => void)(payload);
  }

  listenerCount(name: EventName): number {
    return this.listeners.get(name)?.size ?? 0;
  }

  callsTo(name: RequestName): unknown[] {
    return this.calls.filter((call) => call.name === name).map((call) => call.input);
  }
}

/** Numbers a session's events from `firstSeq`, as the store would hand them out. */
export function storedEvents(sessionId: string, events: SessionEvent[], firstSeq = 1, at = 1000): StoredEvent[] {
  return events.map((event, i) => ({ sessionId, seq: firstSeq + i, at: at + i, event }));
}

export const usage = { inputTokens: 100, outputTokens: 20, cachedInputTokens: 0, reasoningTokens: 0 };

/** Resolves after pending promise callbacks (and the ones they schedule) have run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

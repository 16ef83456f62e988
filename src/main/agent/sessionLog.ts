import type { SessionEvent, SessionEventType, StoredEvent } from '../../shared/events';
import { foldEvents, reduce, type SessionState } from '../../shared/session';
import type { CommitGroup } from '../store/db';
import { StoreError } from '../store/storeError';
import type { Store } from '../store/store';

export type EventListener = (stored: StoredEvent) => void;

/**
 * Events that record what has already happened (an answer came, a tool finished) and that nothing
 * acts on by itself: each is stored at once but committed with the next event, or at the latest
 * when this turn of the event loop ends, so a step's events share commits (one commit costs more
 * than the rest of an append: bench/eventAppend.bench.ts). Every other event announces something
 * about to be done (a request, a tool starting, a question for the person, the end of a run) and is
 * committed, with whatever waited before it, before `append` returns and anything acts on it.
 * A crash before such a commit loses only events that nothing had acted on yet.
 */
const COMMITTED_WITH_NEXT: ReadonlySet<SessionEventType> = new Set([
  'model.responded',
  'approval.answered',
  'tool.finished',
  'session.tainted',
  'plan.updated',
]);

/** Whether appending an event of this type commits at once (the loop acts on it next). */
export function commitsAtOnce(type: SessionEventType): boolean {
  return !COMMITTED_WITH_NEXT.has(type);
}

/**
 * One session's log, as the loop sees it: every event is appended to the store first, then folded
 * into the state, and announced once it is committed. Nothing acts on an event that is not yet
 * stored: what the state shows is what the store will have, and the store's committed log is
 * always a prefix of it.
 */
export class SessionLog {
  private current: SessionState;
  /** Appended, waiting for their group to commit before they are announced, oldest first. */
  private unannounced: { stored: StoredEvent; group: CommitGroup }[] = [];
  /** Set when grouped events failed to commit: this log is behind its state, and appends stop. */
  private lost: unknown;

  constructor(
    private readonly store: Store,
    readonly sessionId: string,
    private readonly onEvent: EventListener = () => {},
  ) {
    this.current = foldEvents(store.events.list(sessionId));
  }

  get state(): SessionState {
    return this.current;
  }

  append(event: SessionEvent): StoredEvent {
    // Throws when events before this one were lost: the log must not go on past a gap.
    this.announce();
    if (commitsAtOnce(event.type)) {
      let stored: StoredEvent;
      try {
        stored = this.store.events.append(this.sessionId, event);
      } catch (error) {
        // A commit that failed took the grouped events with it: that is what the person hears of.
        this.announce();
        throw error;
      }
      this.current = { ...reduce(this.current, event), lastSeq: stored.seq };
      // Its commit committed everything grouped before it too.
      this.announce();
      this.onEvent(stored);
      return stored;
    }
    const { stored, group } = this.store.events.appendGrouped(this.sessionId, event);
    this.current = { ...reduce(this.current, event), lastSeq: stored.seq };
    this.unannounced.push({ stored, group });
    if (this.unannounced.length === 1) setImmediate(() => this.flushQuietly());
    return stored;
  }

  /** Commits and announces what is waiting; throws when it could not be stored. */
  flush(): void {
    if (this.unannounced.length === 0) {
      this.announce();
      return;
    }
    try {
      this.store.events.commit();
    } finally {
      this.announce();
    }
  }

  /** Announces the events whose group committed; a group rolled back stops this log for good. */
  private announce(): void {
    if (this.lost !== undefined) throw this.lost;
    const waiting = this.unannounced;
    this.unannounced = [];
    for (const [index, { stored, group }] of waiting.entries()) {
      if (group.state === 'committed') {
        this.onEvent(stored);
        continue;
      }
      if (group.state === 'open') {
        this.unannounced = waiting.slice(index);
        return;
      }
      this.lost = new StoreError(
        'write_failed',
        `Session ${this.sessionId}'s events from seq ${stored.seq} on could not be stored (${messageOf(group.error)}); nothing was done on the strength of them. The run stops here; resume the session once the problem is fixed.`,
        { cause: group.error },
      );
      throw this.lost;
    }
  }

  /** The end of the turn: errors are kept for the next append, which throws them to the loop. */
  private flushQuietly(): void {
    try {
      this.flush();
    } catch {
      // Kept in `lost` (or in the group's error, which the next append finds).
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

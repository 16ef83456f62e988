import type { SessionEvent, StoredEvent } from '../../shared/events';
import { foldEvents, reduce, type SessionState } from '../../shared/session';
import type { CommitGroup } from './sqlite/database';
import { StoreError } from './storeError';
import type { Store } from './store';

export type EventListener = (stored: StoredEvent) => void;

/** What an event committed by its own append waits on: nothing. */
const COMMITTED: CommitGroup = { state: 'committed' };

/**
 * One session's log, as the loop sees it: every event is appended to the store first, then folded
 * into the state, and announced once it is committed. `append` commits before it returns, so the
 * caller may act on the event; `record` is for a result that nothing acts on before the next event
 * is appended (a response whose calls come next, a tool's result, an answer followed by the call
 * starting or being refused): it commits with that next event, or at the latest when this turn of
 * the event loop ends, so a step of the loop costs two commits instead of four or five (one commit
 * costs more than the rest of an append: bench/eventAppend.bench.ts). The store's committed log is
 * always a prefix of what the state shows, and a crash before a commit loses only events nothing
 * had acted on yet.
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

  /** Appends `event`, committed (with everything recorded before it) and announced when this returns. */
  append(event: SessionEvent): StoredEvent {
    // Throws when events before this one were lost: the log must not go on past a gap.
    this.announce();
    let stored: StoredEvent;
    try {
      stored = this.store.events.append(this.sessionId, event);
    } catch (error) {
      // A commit that failed took the recorded events with it: that is what the person hears of.
      this.announce();
      throw error;
    }
    this.current = { ...reduce(this.current, event), lastSeq: stored.seq };
    this.unannounced.push({ stored, group: COMMITTED });
    this.announce();
    return stored;
  }

  /**
   * Appends a result that nothing acts on before the next `append`: stored and folded at once (a
   * refusal throws here), committed and announced with the next event or at the end of this turn.
   */
  record(event: SessionEvent): StoredEvent {
    this.announce();
    const { stored, group } = this.store.events.appendGrouped(this.sessionId, event);
    this.current = { ...reduce(this.current, event), lastSeq: stored.seq };
    this.unannounced.push({ stored, group });
    if (this.unannounced.length === 1) setImmediate(() => this.flushQuietly());
    return stored;
  }

  /** Commits and announces what is waiting; throws when it could not be stored. */
  flush(): void {
    try {
      if (this.unannounced.length > 0) this.store.events.commit();
    } finally {
      this.announce();
    }
  }

  /**
   * Announces, in order, the events whose group committed; a group rolled back stops this log for
   * good. Each is taken off the queue before its listener runs, so a listener that throws loses
   * nothing after it (the next announce goes on from there).
   */
  private announce(): void {
    if (this.lost !== undefined) throw this.lost;
    // The store finds out here if SQLite rolled the group back by itself.
    this.store.events.checkGroup();
    for (let next = this.unannounced[0]; next; next = this.unannounced[0]) {
      const { stored, group } = next;
      if (group.state === 'open') return;
      if (group.state === 'rolled_back') {
        this.unannounced = [];
        this.lost = new StoreError(
          'write_failed',
          `Session ${this.sessionId}'s events from seq ${stored.seq} on could not be stored (${messageOf(group.error)}); nothing was done on the strength of them. The run stops here; resume the session once the problem is fixed.`,
          { cause: group.error },
        );
        throw this.lost;
      }
      this.unannounced.shift();
      this.onEvent(stored);
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

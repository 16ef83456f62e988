import type { SessionEvent, StoredEvent } from '../../shared/events';
import { foldEvents, reduce, type SessionState } from '../../shared/session';
import type { Store } from '../store/store';

export type EventListener = (stored: StoredEvent) => void;

/**
 * One session's log, as the loop sees it: every event is appended to the store first, then folded
 * into the state, then announced. Nothing acts on an event that is not yet stored.
 */
export class SessionLog {
  private current: SessionState;

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
    const stored = this.store.events.append(this.sessionId, event);
    this.current = { ...reduce(this.current, event), lastSeq: stored.seq };
    this.onEvent(stored);
    return stored;
  }
}

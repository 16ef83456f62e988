import type { EventOf, SessionEventType, StoredEvent } from '../../src/shared/events';

/** The events of one type out of a stored log, typed. */
export function eventsOf<T extends SessionEventType>(events: readonly StoredEvent[], type: T): EventOf<T>[] {
  return events.flatMap((stored) => (stored.event.type === type ? [stored.event as EventOf<T>] : []));
}

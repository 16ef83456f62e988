/**
 * SQL for the keys of the events table (migrations/0003_keyed_log.sql): an event's key is
 * `(sessions.num << 32) + seq`, so one session's log is one key range. The arithmetic stays in SQL,
 * where integers are 64-bit; JavaScript only ever sees a session's number and a seq.
 */

/** The key of event `seq` of the session whose number is `num` (both SQL expressions). */
export function eventKey(num: string, seq: string): string {
  return `((${num} << 32) + ${seq})`;
}

/** A condition on `events.key` (aliased `alias`): the events of session `num` after seq `afterSeq`. */
export function eventsOf(alias: string, num: string, afterSeq = '0'): string {
  return `${alias}.key > ${eventKey(num, afterSeq)} AND ${alias}.key <= ${eventKey(num, '4294967295')}`;
}

/** `FROM ... LIMIT 1` picking the last event of session `num`, for a scalar subquery (`SELECT seq ${lastEventOf(...)}`). */
export function lastEventOf(num: string): string {
  return `FROM events e WHERE ${eventsOf('e', num)} ORDER BY e.key DESC LIMIT 1`;
}

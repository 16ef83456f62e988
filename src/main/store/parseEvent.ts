import { SessionEvent } from '../../shared/events';
import { StoreError } from './storeError';

/** An events row as read back. */
export interface EventRecord {
  seq: number;
  type: string;
  at: number;
  payload: string;
}

/**
 * Parses a stored payload with the SessionEvent schema, so a row damaged on disk (or written by
 * hand) fails here, naming its session and seq, instead of somewhere deep in the loop or the UI.
 */
export function parseEvent(file: string, sessionId: string, record: EventRecord): SessionEvent {
  const corrupt = (why: string): StoreError =>
    new StoreError(
      'corrupt',
      `Event ${record.seq} of session ${sessionId} in ${file} is corrupt: ${why}. The session cannot be replayed past it; restore the database from a backup or delete the session.`,
    );
  let json: unknown;
  try {
    json = JSON.parse(record.payload);
  } catch (error) {
    throw corrupt(`its payload is not JSON (${(error as Error).message})`);
  }
  const parsed = SessionEvent.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`);
    throw corrupt(`its payload is not a valid ${record.type} event (${issues.join('; ')})`);
  }
  if (parsed.data.type !== record.type) {
    throw corrupt(`its type column says ${record.type} but its payload is ${parsed.data.type}`);
  }
  return parsed.data;
}

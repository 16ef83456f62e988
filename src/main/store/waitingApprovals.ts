import { z } from 'zod';
import { StoreError } from './storeError';

/**
 * An approval its session waits on, as listed on the session's row (sessions.waiting,
 * migrations/0005_waiting_on_session.sql): its request is the approval.asked event at `seq`.
 */
const WaitingApproval = z.object({ id: z.string(), callId: z.string(), seq: z.number().int().positive() });
export type WaitingApproval = z.infer<typeof WaitingApproval>;

const WaitingList = z.array(WaitingApproval);

/** sessions.waiting as stored; a value that does not parse is a clear error naming its session. */
export function parseWaiting(file: string, sessionId: string, json: string): WaitingApproval[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  const parsed = WaitingList.safeParse(value);
  if (!parsed.success) {
    throw new StoreError(
      'corrupt',
      `The approvals session ${sessionId} waits on cannot be read from ${file} (sessions.waiting is ${JSON.stringify(json.slice(0, 200))}); restore the database from a backup or delete the session.`,
    );
  }
  return parsed.data;
}

import type { SessionEventType } from '../../src/shared/events';

/**
 * The events the agent loop records (SessionLog.record: committed with the next event it appends)
 * rather than appends, as the event-append bench writes them; test/agentLoop.test.ts checks that a
 * real run records exactly these, so the bench cannot drift from the loop.
 */
export const RECORDED_BY_THE_LOOP: ReadonlySet<SessionEventType> = new Set([
  'model.responded',
  'approval.answered',
  'tool.finished',
  'session.tainted',
  'plan.updated',
]);

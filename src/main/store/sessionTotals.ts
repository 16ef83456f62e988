import { addUsage, zeroUsage, type Usage } from '../../shared/conversation';
import type { EventOf, SessionEvent, SessionEventType } from '../../shared/events';
import type { Database, Statement } from './sqlite/database';
import { eventsOf } from './eventKeys';

/** What a session's model requests cost so far. */
export interface Totals {
  usage: Usage;
  /** US dollars over every priced response; null while no response had a known price. */
  costUsd: number | null;
}

/** The events that carry a model request's usage and cost: a session's totals are theirs, added up. */
const USAGE_EVENTS = ['model.responded', 'context.compacted'] as const satisfies readonly SessionEventType[];

/** Totals of nothing: no tokens, and a cost unknown until a priced response adds one. */
export const noTotals: Totals = { usage: zeroUsage, costUsd: null };

/**
 * A session's token and cost totals are the log's: the usage on its model.responded and
 * context.compacted events, added up. The session row keeps that sum as of one seq (`totals_seq`)
 * and is brought up to date when it is written anyway (its status changes), when the run ends and
 * every so many events (projections.ts), so a response costs its append no second page; whoever
 * reads the totals adds the responses after that seq, which for a finished session is none
 * (migrations/0004_derived_from_log.sql).
 */
export class SessionTotals {
  private readonly sumAfter: Statement<[{ num: number; afterSeq: number }], TotalsRecord>;

  constructor(db: Database) {
    const usage = (field: string): string => `coalesce(sum(json_extract(e.payload, '$.usage.${field}')), 0)`;
    this.sumAfter = db.prepare(
      `SELECT ${usage('inputTokens')} AS inputTokens, ${usage('outputTokens')} AS outputTokens,
         ${usage('cachedInputTokens')} AS cachedInputTokens, ${usage('reasoningTokens')} AS reasoningTokens,
         sum(json_extract(e.payload, '$.costUsd')) AS costUsd
       FROM events e
       WHERE ${eventsOf('e', '@num', '@afterSeq')} AND e.type IN (${USAGE_EVENTS.map((type) => `'${type}'`).join(', ')})`,
    );
  }

  /** What the session's log adds after `afterSeq` (the row's totals_seq). */
  after(num: number, afterSeq: number): Totals {
    const record = this.sumAfter.get({ num, afterSeq });
    if (!record) return noTotals;
    const { costUsd, ...usage } = record;
    return { usage, costUsd };
  }
}

type TotalsRecord = Usage & { costUsd: number | null };

/** Two stretches of a session's totals, one after the other; unknown cost stays unknown only while both are. */
export function addTotals(a: Totals, b: Totals): Totals {
  return {
    usage: addUsage(a.usage, b.usage),
    costUsd: a.costUsd === null && b.costUsd === null ? null : (a.costUsd ?? 0) + (b.costUsd ?? 0),
  };
}

/** What one event adds to its session's totals; null for an event that carries no usage. */
export function totalsOf(event: SessionEvent): Totals | null {
  return isUsageEvent(event) ? { usage: event.usage, costUsd: event.costUsd ?? null } : null;
}

function isUsageEvent(event: SessionEvent): event is EventOf<(typeof USAGE_EVENTS)[number]> {
  return (USAGE_EVENTS as readonly string[]).includes(event.type);
}

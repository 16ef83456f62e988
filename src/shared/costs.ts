import { addUsage, zeroUsage, type Usage } from './conversation';

/**
 * How tokens and money read wherever Tether shows them (the session header, the sidebar,
 * `tether sessions`), and how sessions' costs add up. A cost is a figure only where every response
 * was priced: a model with no known price is counted in tokens and said to cost "unknown", never
 * guessed.
 */

export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** Cents for sums a person compares; more digits below a dollar, where a short session's cost lies. */
export function formatDollars(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** "12k in (9.0k cached) · 340 out". */
export function formatUsage(usage: Usage): string {
  const cached = usage.cachedInputTokens > 0 ? ` (${formatTokens(usage.cachedInputTokens)} cached)` : '';
  return `${formatTokens(usage.inputTokens)} in${cached} · ${formatTokens(usage.outputTokens)} out`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A session's tokens and cost; `costUsd` is null when no response was priced. */
export interface Costed {
  usage: Usage;
  costUsd: number | null;
}

/** Whether a session used tokens that no price covers: its cost is not in any sum. */
export function isUnpriced(session: Costed): boolean {
  return session.costUsd === null && session.usage.inputTokens + session.usage.outputTokens > 0;
}

export interface CostTotal {
  sessions: number;
  usage: Usage;
  /** Dollars over the priced sessions. */
  costUsd: number;
  /** Sessions that used tokens at no known price: their cost is not in `costUsd`. */
  unpriced: number;
}

export function costTotal(sessions: readonly Costed[]): CostTotal {
  const total: CostTotal = { sessions: 0, usage: zeroUsage, costUsd: 0, unpriced: 0 };
  for (const session of sessions) {
    total.sessions += 1;
    total.usage = addUsage(total.usage, session.usage);
    if (session.costUsd !== null) total.costUsd += session.costUsd;
    else if (isUnpriced(session)) total.unpriced += 1;
  }
  return total;
}

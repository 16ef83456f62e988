import type { Usage } from '../../shared/conversation';
import { addUsage, zeroUsage } from '../../shared/conversation';

/**
 * Tokens and cost as `tether sessions` prints them: per session, and summed per project. A cost is
 * shown only where every response was priced; a model with no known price says "cost unknown".
 */

export interface Costed {
  projectId: string | null;
  usage: Usage;
  /** Null when no response was priced (the model has no known price, or nothing was asked yet). */
  costUsd: number | null;
}

export function formatUsage(usage: Usage): string {
  const cached = usage.cachedInputTokens > 0 ? ` (${tokens(usage.cachedInputTokens)} cached)` : '';
  return `${tokens(usage.inputTokens)} in${cached} · ${tokens(usage.outputTokens)} out`;
}

export function formatCost(row: Pick<Costed, 'usage' | 'costUsd'>): string {
  if (row.costUsd !== null) return dollars(row.costUsd);
  return row.usage.inputTokens + row.usage.outputTokens > 0 ? 'cost unknown' : '-';
}

export interface ProjectTotal {
  projectId: string | null;
  sessions: number;
  usage: Usage;
  costUsd: number;
  /** Sessions that used tokens at no known price: their cost is not in `costUsd`. */
  unpriced: number;
}

export function projectTotals(rows: readonly Costed[]): ProjectTotal[] {
  const totals = new Map<string | null, ProjectTotal>();
  for (const row of rows) {
    const total = totals.get(row.projectId) ?? { projectId: row.projectId, sessions: 0, usage: zeroUsage, costUsd: 0, unpriced: 0 };
    total.sessions += 1;
    total.usage = addUsage(total.usage, row.usage);
    if (row.costUsd !== null) total.costUsd += row.costUsd;
    else if (row.usage.inputTokens + row.usage.outputTokens > 0) total.unpriced += 1;
    totals.set(row.projectId, total);
  }
  return [...totals.values()];
}

export function formatProjectCost(total: ProjectTotal): string {
  const unpriced = total.unpriced > 0 ? ` + ${total.unpriced} session${total.unpriced === 1 ? '' : 's'} at unknown cost` : '';
  return `${dollars(total.costUsd)}${unpriced}`;
}

function tokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** Cents for sums a person compares; more digits below a cent, where a short session's cost lies. */
function dollars(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

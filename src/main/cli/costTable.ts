import { costTotal, formatDollars, isUnpriced, plural, type Costed, type CostTotal } from '../../shared/costs';

/** Tokens and cost as `tether sessions` prints them: per session, and summed per project. */

export { formatUsage } from '../../shared/costs';

export function formatCost(row: Costed): string {
  if (row.costUsd !== null) return formatDollars(row.costUsd);
  return isUnpriced(row) ? 'cost unknown' : '-';
}

export interface ProjectTotal extends CostTotal {
  projectId: string | null;
}

export function projectTotals(rows: readonly (Costed & { projectId: string | null })[]): ProjectTotal[] {
  const byProject = new Map<string | null, Costed[]>();
  for (const row of rows) byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), row]);
  return [...byProject].map(([projectId, sessions]) => ({ projectId, ...costTotal(sessions) }));
}

export function formatProjectCost(total: CostTotal): string {
  const unpriced = total.unpriced > 0 ? ` + ${plural(total.unpriced, 'session')} at unknown cost` : '';
  return `${formatDollars(total.costUsd)}${unpriced}`;
}

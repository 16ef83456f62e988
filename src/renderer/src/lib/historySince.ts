/**
 * How far back the permission history reaches: a span back from now, as `tether audit --since 24h`
 * takes one, or from the start of a day ('2026-12-01', local time, as a date field gives it).
 */
export type HistorySince = 'any' | '1h' | '24h' | '7d' | '30d' | `day:${string}`;

const SPANS = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;

/** Ms since the epoch to list decisions from; undefined for all of them (or a day that does not parse). */
export function sinceTime(since: HistorySince, now: number): number | undefined {
  if (since === 'any') return undefined;
  if (since.startsWith('day:')) {
    const match = /^day:(\d{4})-(\d{2})-(\d{2})$/.exec(since);
    return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime() : undefined;
  }
  return now - SPANS[since as keyof typeof SPANS];
}

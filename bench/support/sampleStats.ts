/** The figures every benchmark prints, by the nearest-rank method (p95 of 20 samples is the 19th). */
export interface SampleStats {
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function sampleStats(samples: readonly number[]): SampleStats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: nearestRank(sorted, 0.5), p95: nearestRank(sorted, 0.95), min: sorted[0] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
}

/** The `q` quantile (0..1) of samples already sorted ascending, by the nearest-rank method. */
export function nearestRank(sorted: ArrayLike<number>, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** One aligned line: `name  median … ms  p95 … ms  min … max …  (n runs)`; returns the median. */
export function printTimings(name: string, samples: readonly number[]): number {
  const { median, p95, min, max } = sampleStats(samples);
  console.log(
    `${name.padEnd(46)} median ${median.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms   min ${min.toFixed(1)}  max ${max.toFixed(1)}  (${samples.length} runs)`,
  );
  return median;
}

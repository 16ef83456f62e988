import v8 from 'node:v8';

/** V8's young generation stays at its first size (each semi-space 1 MB on 64-bit) instead of doubling up to 16 MB. */
export const SMALL_YOUNG_GENERATION_FLAG = '--semi-space-growth-factor=1';

/**
 * For `tether run`, set before its modules load. V8 doubles the young generation whenever a
 * scavenge finds it busy, and loading the run's modules and streaming the model's answers keep it
 * busy: it grew to two 16 MB semi-spaces that stayed resident for the rest of the run. Kept at its
 * first size, a 20-step run peaked 24 MB lower (bench/start.bench.ts), for more scavenges of a few
 * hundred microseconds each, some 20 ms over a run's start. Only the headless run: `tether serve`
 * and the desktop app keep V8's defaults, which suit a process that lives for hours.
 */
export function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString(SMALL_YOUNG_GENERATION_FLAG);
}

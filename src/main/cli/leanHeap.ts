import v8 from 'node:v8';

/**
 * The V8 flags `tether run` sets before its modules load:
 * - the young generation stays at its first size (each semi-space 1 MB on 64-bit) instead of doubling
 *   up to 16 MB whenever a scavenge finds it busy; loading the run's modules and streaming the model's
 *   answers kept it busy, and the two 16 MB semi-spaces stayed resident for the rest of the run;
 * - the old generation may grow 20% past what the last full collection kept, rather than V8's own
 *   factor of up to 4: a long run's garbage (each model request re-serialises the conversation) is
 *   collected before it piles up.
 * bench/start.bench.ts: a 20-step run peaked ~25 MB lower, a 500-step run ~70 MB lower, for no
 * measurable time. Only the headless run: `tether serve` and the desktop app keep V8's defaults.
 *
 * V8 takes a growth factor below 2 at run time, but puts it back to 2 whenever it sets up another
 * isolate's heap (a worker thread): `tether run` therefore opens its store without the WAL
 * checkpoint worker, which a headless run, with nobody watching a screen stall, does not need.
 */
export const LEAN_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=20'] as const;

export function leanHeapForHeadlessRun(): void {
  for (const flag of LEAN_HEAP_FLAGS) v8.setFlagsFromString(flag);
}

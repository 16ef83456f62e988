import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LEAN_HEAP_FLAGS } from './leanHeap';

// In a child process: the flags are the whole process's, and the test runner's own heap has grown
// long before any test runs. The child keeps a rolling window of objects that live long enough to
// reach the old generation, as a run keeps its recent conversation, and reports its largest heap.
function churn(flags: readonly string[], options: { worker?: boolean } = {}): { heapMb: number; newSpaceMb: number; said: string } {
  const script = `
    const v8 = require('node:v8');
    for (const flag of ${JSON.stringify(flags)}) v8.setFlagsFromString(flag);
    ${options.worker ? "new (require('node:worker_threads').Worker)('1', { eval: true }).unref();" : ''}
    setTimeout(() => {
      let window = [];
      let peak = 0;
      for (let round = 0; round < 400; round++) {
        const batch = [];
        for (let i = 0; i < 5000; i++) batch.push({ i, text: 'y'.repeat(50) + i });
        window.push(batch);
        if (window.length > 20) window.shift();
        peak = Math.max(peak, process.memoryUsage().heapTotal);
      }
      const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
      process.stdout.write(JSON.stringify({ heapMb: peak / 1e6, newSpaceMb: newSpace / 1e6 }));
    }, 200);
  `;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const last = run.stdout.slice(run.stdout.lastIndexOf('{'));
  return {
    ...(JSON.parse(last) as { heapMb: number; newSpaceMb: number }),
    said: run.stdout.slice(0, run.stdout.lastIndexOf('{')) + run.stderr,
  };
}

describe('leanHeapForHeadlessRun', () => {
  it('sets flags V8 knows (an unknown one would only print an error and change nothing)', () => {
    expect(churn(LEAN_HEAP_FLAGS).said).toBe('');
    expect(churn(['--no-such-v8-flag']).said).toMatch(/unrecognized flag/);
  });

  it('keeps the young generation at its first size and the heap near what is live', () => {
    const defaults = churn([]);
    const lean = churn(LEAN_HEAP_FLAGS);
    expect(defaults.newSpaceMb).toBeGreaterThanOrEqual(8);
    expect(lean.newSpaceMb).toBeLessThanOrEqual(2.2);
    expect(lean.heapMb).toBeLessThan(defaults.heapMb / 2);
  });

  it('loses the young generation setting once a worker thread starts, which is why tether run starts none', () => {
    expect(churn(LEAN_HEAP_FLAGS, { worker: true }).newSpaceMb).toBeGreaterThanOrEqual(8);
  });
});

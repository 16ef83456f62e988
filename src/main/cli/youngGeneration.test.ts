import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SMALL_YOUNG_GENERATION_FLAG } from './youngGeneration';

// In a child process: the flag changes the whole process, and the test runner's own young generation
// has grown long before any test runs.
function newSpaceAfterChurn(flag?: string): number {
  const script = `
    const v8 = require('node:v8');
    ${flag ? `v8.setFlagsFromString(${JSON.stringify(flag)});` : ''}
    let kept = [];
    for (let round = 0; round < 200; round++) {
      const batch = [];
      for (let i = 0; i < 20000; i++) batch.push({ i, text: 'x'.repeat(20) + i });
      kept.push(batch);
      if (kept.length > 3) kept.shift();
    }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size));
  `;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout);
}

describe('keepYoungGenerationSmall', () => {
  it('is a flag V8 takes at run time, and it keeps the young generation at its first size under churn', () => {
    const grown = newSpaceAfterChurn();
    const kept = newSpaceAfterChurn(SMALL_YOUNG_GENERATION_FLAG);
    expect(grown).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    expect(kept).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});

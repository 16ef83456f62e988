import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { describeDifference, runDailyWork, runRoot } from '../bench/support/dailyWork';
import { runtimeStopped } from '../src/main/sandbox/sandboxRuntime';

// Part of the daily-work benchmark (bench/dailyWork.bench.ts) as a test, with real bubblewrap, git,
// npm and gcc: the git workflow (add -A, stash -u, branches, merge, amend, tags, worktrees), scratch
// work in /tmp, a C build, and an npm install from a registry on loopback reached through the fence.
// Every command must behave inside the fence exactly as outside it, with no fence hit and no question.

const root = runRoot();
afterAll(async () => {
  await runtimeStopped();
  fs.rmSync(root, { recursive: true, force: true });
});

it('runs a developer’s everyday loop inside the fence exactly as outside it, asking nothing', async () => {
  const slowOnes = /npm run|npx|npm ci|node -e/;
  const report = await runDailyWork({
    root,
    toolchains: ['git', 'scratch', 'node', 'c'],
    pick: (command) => !slowOnes.test(command.command),
  });
  report.sandbox.dispose();
  expect(report.outcomes.length).toBeGreaterThan(20);
  const differences = report.outcomes.filter((outcome) => !outcome.identical).map(describeDifference);
  expect(differences).toEqual([]);
  expect(report.prompts).toEqual([]);
  // The install went through the fence's proxy to the registry, not around it.
  expect(report.outcomes.find((outcome) => outcome.command.command.includes('npm install'))?.inside.exitCode).toBe(0);
}, 300_000);

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { changedFiles } from '../src/main/workspace/diff';
import { openShadowRepo, type ShadowRepo } from '../src/main/workspace/shadowRepo';
import { generateWorkspace, IGNORED_FILES } from './support/generatedWorkspace';
import { printTimings } from './support/sampleStats';

/**
 * Shadow-repository snapshots of a generated 10,000-file workspace (plus an ignored
 * node_modules/ of 2,000 files that must cost nothing): the first snapshot, an unchanged one,
 * one after a one-line change, one after 1,000 files were touched without being changed, and the
 * live diff (snapshot + changed files) after a one-line change. Target: median under 200 ms for
 * a snapshot after a one-line change.
 *
 *   npx vitest run --dir bench bench/snapshot.bench.ts
 */

const RUNS = 25;
const TARGET_MS = 200;

let base: string;
let workspace: string;
let repo: ShadowRepo;
let fileCount = 0;
let filePath: (index: number) => string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-snapshot-')));
  ({ root: workspace, fileCount, filePath } = generateWorkspace(path.join(base, 'workspace')));
}, 600_000);

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

it('snapshot timings on a 10,000-file workspace', async () => {
  const firstStart = performance.now();
  repo = await openShadowRepo({ workspace, gitDir: path.join(base, 'data', 'shadow', 'project.git') });
  const first = await repo.snapshot('session start', { ref: 'sessions/bench/base' });
  const firstMs = performance.now() - firstStart;
  const files = Number(
    (await repo.git(['ls-tree', '-r', '--name-only', '-z', first.tree])).stdout.toString('utf8').split('\0').filter(Boolean).length,
  );
  console.log(
    `workspace: ${fileCount} files (+ ${IGNORED_FILES} ignored in node_modules/); first snapshot holds ${files} files, took ${firstMs.toFixed(0)} ms`,
  );

  const unchanged: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    unchanged.push(
      await timed(async () => {
        const result = await repo.snapshot('unchanged');
        if (result.changed) throw new Error('an unchanged workspace produced a new snapshot');
      }),
    );
  }

  const oneLine: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const target = filePath((run * 397) % fileCount);
    const text = fs.readFileSync(target, 'utf8').replace(/= (\d+);/, `= $1 + ${run + 1};`);
    fs.writeFileSync(target, text);
    oneLine.push(
      await timed(async () => {
        const result = await repo.snapshot(`step ${run}`);
        if (!result.changed) throw new Error('a one-line change produced no new snapshot');
      }),
    );
  }

  const liveDiff: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    fs.appendFileSync(filePath((run * 211 + 5) % fileCount), `// edit ${run}\n`);
    liveDiff.push(await timed(() => changedFiles(repo, first.commit, 'worktree')));
  }

  // A formatter or a branch switch rewrites files with the same bytes: new mtimes, same content.
  const now = Date.now() / 1000;
  for (let index = 0; index < 1000; index++) fs.utimesSync(filePath(index), now + 5, now + 5);
  const touched: number[] = [];
  for (let run = 0; run < 10; run++) touched.push(await timed(() => repo.snapshot('after touching')));

  // How busy the machine is: a snapshot after a change is five git processes in a row.
  const spawns: number[] = [];
  for (let run = 0; run < RUNS; run++) spawns.push(await timed(() => new Promise((resolve) => execFile('git', ['--version'], resolve))));

  console.log('');
  printTimings('baseline: one `git --version` process', spawns);
  printTimings('unchanged snapshot', unchanged);
  const median = printTimings('snapshot after a one-line change', oneLine);
  printTimings('live diff (snapshot + changed files)', liveDiff);
  printTimings('snapshot after 1,000 files touched, unchanged', touched);
  console.log(
    `first touched run ${touched[0]?.toFixed(1)} ms, later runs ${touched
      .slice(1)
      .map((ms) => ms.toFixed(0))
      .join(', ')} ms`,
  );
  console.log(
    `\ntarget: median under ${TARGET_MS} ms after a one-line change: ${median < TARGET_MS ? 'MET' : 'NOT MET'} (${median.toFixed(1)} ms)`,
  );
}, 600_000);

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gitFolderGuards } from '../src/main/sandbox/libraryFence';
import { watchAbsentPaths } from '../src/main/sandbox/protectedPaths';
import { printTimings } from './support/sampleStats';

/**
 * What the git folder's guard adds to every sandboxed command (sandbox/protectedPaths.ts,
 * sandbox/unusualEntries.ts): a listing of the git folder before, and after the command a listing
 * again and a look for links, FIFOs and sockets in every folder a command may write there, each
 * folder's listing reused while its change time stands. Measured on a repository with 3,000 branches
 * that each have a reflog, a rebase stopped half way and a rerere cache of 200 conflicts, more than
 * most projects hold; and on one with 100. Nothing is moved, as between ordinary commands.
 *
 *   npx vitest run --config bench/vitest.config.ts bench/gitFolderGuard.bench.ts
 */

const RUNS = 200;
let base: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-gitguard-')));
}, 120_000);

/** A repository whose git folder holds `branches` reflogs, a rebase stopped half way and a rerere cache. */
function repository(branches: number): string {
  const ws = path.join(base, `ws-${branches}`);
  fs.mkdirSync(ws);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: ws });
  const gitDir = path.join(ws, '.git');
  const put = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(gitDir, relative)), { recursive: true });
    fs.writeFileSync(path.join(gitDir, relative), text);
  };
  for (let i = 0; i < branches; i++) put(`logs/refs/heads/topic-${i}`, '0000 1111 Someone <a@b> 1700000000 +0000\tbranch: Created\n');
  put('logs/HEAD', 'x\n');
  for (const file of ['git-rebase-todo', 'done', 'head-name', 'onto', 'orig-head', 'interactive']) put(`rebase-merge/${file}`, 'x\n');
  for (let i = 0; i < 200; i++) put(`rr-cache/${i.toString(16).padStart(40, '0')}/preimage`, 'x\n');
  return gitDir;
}

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

for (const branches of [100, 3000]) {
  it(`guards a git folder with ${branches.toLocaleString('en-US')} reflogs, before and after a command`, async () => {
    const guards = gitFolderGuards([repository(branches)]);
    const quarantine = path.join(base, 'quarantine');
    // The first look lists every folder; later ones reuse a listing once its folder is older than
    // the racy margin (2 s), as between the commands of a session.
    const first = performance.now();
    watchAbsentPaths([], quarantine, guards).close();
    console.log(`the first look, every folder listed: ${(performance.now() - first).toFixed(1)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const moved = watchAbsentPaths([], quarantine, guards).close();
      samples.push(performance.now() - started);
      expect(moved).toEqual([]);
    }
    const median = printTimings(`the git folder guard, ${branches} reflogs`, samples);
    console.log(
      `target: a small part of the fence's 30 ms per command → ${median < 5 ? 'met' : 'NOT met'} (median ${median.toFixed(2)} ms)`,
    );
  });
}

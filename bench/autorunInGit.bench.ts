import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gitAutorunWatch } from '../src/main/workspace/autorunInGit';
import { printTimings } from './support/sampleStats';

/**
 * What looking for autorun files put into git (workspace/autorunInGit.ts) adds to every sandboxed
 * command that leaves git alone: a key of stats (HEAD, the index, packed-refs, the folders under
 * refs/) before and after. Measured on a repository with 500 branches and 200 tags as loose refs.
 * Also printed: a command that commits, where git is read (for-each-ref, ls-files, diff-tree), right
 * after another committing command and seconds after one.
 *
 *   npx vitest run --config bench/vitest.config.ts bench/autorunInGit.bench.ts
 */

const RUNS = 200;
let base: string;
let ws: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=B', '-c', 'user.email=b@example.com', ...args], { cwd: ws, encoding: 'utf8' });

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-ingit-')));
  ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  git('add', '.');
  git('commit', '-qm', 'start');
  const head = git('rev-parse', 'HEAD').trim();
  for (let i = 0; i < 500; i++) git('update-ref', `refs/heads/topic-${i}`, head);
  for (let i = 0; i < 200; i++) git('update-ref', `refs/tags/v${i}`, head);
  // Older than the racy margin, as between a session's commands.
  await new Promise((resolve) => setTimeout(resolve, 2500));
}, 120_000);

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

it('looks for autorun files put into git around a command that leaves git alone, and one that commits', async () => {
  const watch = gitAutorunWatch(ws);
  watch.begin();
  watch.check({ undo: true });
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    watch.begin();
    expect(watch.check({ undo: true })).toEqual([]);
    samples.push(performance.now() - started);
  }
  const median = printTimings('git left alone (500 branches, 200 tags)', samples);
  const committing: number[] = [];
  /** begin, a commit, check: the time the look takes around it. */
  const timedCommit = (message: string): number => {
    let started = performance.now();
    watch.begin();
    let spent = performance.now() - started;
    fs.appendFileSync(path.join(ws, 'a.txt'), `${message}\n`);
    git('commit', '-qam', message);
    started = performance.now();
    expect(watch.check({ undo: true })).toEqual([]);
    spent += performance.now() - started;
    return spent;
  };
  // The command before committed a moment ago: its refs are too fresh to trust, and begin reads git.
  const committingAtOnce = Array.from({ length: 20 }, (_, run) => timedCommit(`c${run}`));
  printTimings('a committing command right after another', committingAtOnce);
  for (let run = 0; run < 5; run++) {
    // Seconds apart, as a model's turns are: begin reuses what the last check read.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    committing.push(timedCommit(`later ${run}`));
  }
  printTimings('a committing command seconds after the last', committing);
  console.log(`target: a small part of the fence's 30 ms per command → ${median < 3 ? 'met' : 'NOT met'} (median ${median.toFixed(2)} ms)`);
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { GUARD_CONFIG, runGit } from '../src/main/workspace/git';
import { gitShell } from '../src/main/workspace/gitShell';
import { openShadowRepo } from '../src/main/workspace/shadowRepo';
import { printTimings } from './support/sampleStats';

/**
 * What starting git costs node, by the size of the node process, and what the git shell beside a
 * repository saves (src/main/workspace/gitShell.ts): `git status` in a small repository, started by
 * node (execFile) and through the shell, with this process at its own size and padded to about the
 * size of a running `tether run` (~100 MB resident); then a snapshot after a one-file change, the
 * work of a step that changes a file.
 *
 *   npx vitest run --config bench/vitest.config.ts bench/gitShell.bench.ts
 */

const RUNS = 60;

let base: string;
let repo: string;
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, LC_ALL: 'C' };

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-git-shell-')));
  repo = path.join(base, 'repo');
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
  for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(repo, `file${i}.txt`), `${i}\n`);
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

async function timeEach(runs: number, once: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  return samples;
}

it('git started by node, and through the git shell', async () => {
  const status = ['status', '--porcelain=v2', '-z', '--untracked-files=all'];
  const shell = gitShell({ cwd: repo, env, commands: [[...GUARD_CONFIG, ...status]], parent: base });
  if (!shell) {
    console.log('git shell: not used on this platform (Linux only); nothing to compare');
    return;
  }
  const padding: Buffer[] = [];
  for (const label of ['as it is', 'padded']) {
    if (label === 'padded') {
      const target = 100 * 1024 * 1024;
      while (process.memoryUsage().rss < target) padding.push(Buffer.alloc(4 * 1024 * 1024, 1));
    }
    const rss = `${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB resident`;
    printTimings(`git status from node, ${rss}`, await timeEach(RUNS, () => runGit(status, { cwd: repo, env })));
    printTimings(`git status via the shell, ${rss}`, await timeEach(RUNS, () => runGit(status, { cwd: repo, env, shell })));
  }

  const workspace = path.join(base, 'workspace');
  fs.mkdirSync(workspace);
  for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(workspace, `file${i}.txt`), `${i}\n`);
  const shadow = await openShadowRepo({ workspace, gitDir: path.join(base, 'shadow.git') });
  await shadow.snapshot('start');
  let n = 0;
  printTimings(
    `snapshot after a one-file change (${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB)`,
    await timeEach(RUNS, async () => {
      fs.writeFileSync(path.join(workspace, 'file0.txt'), `${n++}\n`);
      await shadow.snapshot('step');
    }),
  );
  printTimings('snapshot that finds nothing changed', await timeEach(RUNS, () => shadow.snapshot('nothing')));
  shell.close();
  padding.length = 0;
});

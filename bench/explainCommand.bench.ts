import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { analyzeCommand, initShellParser } from '../src/main/shell/analyzeCommand';
import { sampleStats } from './support/sampleStats';

/**
 * The shell analysis of one command line with 10 sub-commands (pipes, &&, $( ), wrappers, a
 * redirection), as the permission engine runs it for every run_command call. Target: median under
 * 2 ms. (The lead times the whole policy explain; this is the analysis part.)
 *
 *   npx vitest run --config bench/vitest.config.ts bench/explainCommand.bench.ts
 */

const LINE =
  'cd src && timeout 30 git status --short | grep -v "^??" | wc -l && ' +
  'echo "$(git rev-parse HEAD)" > /dev/null; ' +
  'env NODE_ENV=test nice -n 5 rg -n "TODO" --glob "*.ts" | head -20 || ' +
  'sudo find . -name "*.log" -exec rm {} \\; 2>/dev/null';
const WARMUP = 200;
const RUNS = 5000;
const TARGET_MEDIAN_MS = 2;

let root: string;
let pathEnv: string;

beforeAll(async () => {
  await initShellParser();
  // A workspace and a PATH with real directories, so program lookups touch the file system as they do for real.
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-explain-'));
  fs.mkdirSync(path.join(root, 'src'));
  pathEnv = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':');
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

it('analyses a 10-command line', () => {
  const options = { cwd: root, workspaceRoot: root, pathEnv };
  const first = analyzeCommand(LINE, options);
  for (let i = 0; i < WARMUP; i++) analyzeCommand(LINE, options);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    analyzeCommand(LINE, options);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const { median, p95 } = sampleStats(times);
  console.log(`analyzeCommand: ${first.commands.length} sub-commands, ${RUNS} runs`);
  console.log(
    `  median ${median.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms, min ${times[0]!.toFixed(3)} ms, max ${times[times.length - 1]!.toFixed(3)} ms`,
  );
  console.log(
    `  sub-commands: ${first.commands.map((command) => [...command.wrappers, ...command.argv].slice(0, 3).join(' ')).join(' | ')}`,
  );
  console.log(`  target median < ${TARGET_MEDIAN_MS} ms: ${median < TARGET_MEDIAN_MS ? 'met' : 'NOT met'}`);
});

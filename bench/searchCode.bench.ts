import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { createSearchCode } from '../src/main/tools/searchCode';
import { compileGlob } from '../src/main/tools/search/globFilter';
import { ripgrepArguments } from '../src/main/tools/search/ripgrepSearch';
import { makeToolContext } from '../test/support/toolContext';
import { sampleStats } from './support/sampleStats';

/**
 * search_code (through the tool's execute, ripgrep backend) against ripgrep run directly with the
 * same flags, on a generated tree of 50,000 files. Target: search_code within 1.5x of ripgrep.
 *
 *   npx vitest run --dir bench bench/searchCode.bench.ts
 */

const FOLDERS = 50;
const SUBFOLDERS = 10;
const FILES_PER_SUBFOLDER = 100;
const RUNS = 9;
const TARGET_RATIO = 1.5;

let root: string;
let fileCount = 0;

/** Deterministic text: every file differs, a planted needle every 5,000 files. */
function fileContent(index: number): string {
  const lines: string[] = [];
  for (let line = 0; line < 24; line++) {
    const n = (index * 31 + line * 17) % 997;
    lines.push(`export function helper${index}_${line}(value: number): number { return value * ${n} + ${line}; }`);
  }
  if (index % 5000 === 1234) lines.splice(7, 0, `// XYZZY_NEEDLE_${index} planted for the benchmark`);
  return `${lines.join('\n')}\n`;
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-search-'));
  let index = 0;
  for (let a = 0; a < FOLDERS; a++) {
    for (let b = 0; b < SUBFOLDERS; b++) {
      const folder = path.join(root, `pkg${a}`, `mod${b}`);
      fs.mkdirSync(folder, { recursive: true });
      for (let c = 0; c < FILES_PER_SUBFOLDER; c++) fs.writeFileSync(path.join(folder, `file${c}.ts`), fileContent(index++));
    }
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'dist/\n');
  fileCount = index;
  execFileSync('git', ['init', '-q'], { cwd: root });
}, 600_000);

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function runRipgrep(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('rg', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', () => resolve(bytes));
  });
}

const CASES: { name: string; args: { pattern: string; literal?: boolean; glob?: string; caseSensitive?: boolean } }[] = [
  { name: 'regex, few matches', args: { pattern: 'XYZZY_NEEDLE_\\d+' } },
  { name: 'literal, few matches', args: { pattern: 'XYZZY_NEEDLE', literal: true } },
  { name: 'case-insensitive with a glob', args: { pattern: 'xyzzy_needle', caseSensitive: false, glob: '*.ts' } },
  { name: 'many matches (one per file, 200 shown)', args: { pattern: 'helper\\d+_7\\(' } },
];

it('search_code (ripgrep backend) vs ripgrep directly', async () => {
  const tool = createSearchCode({ backend: 'ripgrep' });
  console.log(`tree: ${fileCount} files in ${root}; ${RUNS} runs per case, interleaved, after one warm-up run each`);
  let allMet = true;
  for (const { name, args } of CASES) {
    const rgArgs = ripgrepArguments({
      folder: '.',
      pattern: args.pattern,
      literal: args.literal ?? false,
      caseSensitive: args.caseSensitive ?? true,
      glob: args.glob ? compileGlob(args.glob) : null,
      useIgnoreFiles: true,
      inGitRepository: true,
    });
    const toolTimes: number[] = [];
    const rgTimes: number[] = [];
    let matches = 0;
    for (let run = -1; run < RUNS; run++) {
      let started = performance.now();
      const result = await tool.execute(args, makeToolContext(root));
      const toolMs = performance.now() - started;
      started = performance.now();
      await runRipgrep(rgArgs);
      const rgMs = performance.now() - started;
      if (run >= 0) {
        toolTimes.push(toolMs);
        rgTimes.push(rgMs);
      }
      matches = Number((result.metadata as { totalMatches: number }).totalMatches);
    }
    const t = sampleStats(toolTimes);
    const r = sampleStats(rgTimes);
    const ratio = t.median / r.median;
    const met = ratio <= TARGET_RATIO;
    allMet &&= met;
    console.log(
      `${name}: ${matches} matching lines | search_code median ${t.median.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms | ` +
        `rg median ${r.median.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms | ratio ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x: ${met ? 'met' : 'NOT met'})`,
    );
  }
  console.log(
    `rg command: rg ${ripgrepArguments({ folder: '.', pattern: CASES[0]?.args.pattern ?? '', literal: false, caseSensitive: true, glob: null, useIgnoreFiles: true, inGitRepository: true }).join(' ')}`,
  );
  console.log(`target (within ${TARGET_RATIO}x of ripgrep) ${allMet ? 'met in every case' : 'NOT met in every case'}`);
}, 600_000);

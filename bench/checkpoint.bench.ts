import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { SessionLog } from '../src/main/store/sessionLog';
import { mayChangeFiles } from '../src/main/checkpoints/mayChangeFiles';
import { createCore, type Core } from '../src/main/core';
import { writeFile } from '../src/main/tools/writeFile';
import { generateWorkspace, IGNORED_FILES } from './support/generatedWorkspace';
import { printTimings } from './support/sampleStats';

/**
 * A per-step checkpoint through the path the loop takes after a tool call (mayChangeFiles, then
 * Checkpoints.take: shadow-repository snapshot + the checkpoint.created event appended to SQLite)
 * on a generated 10,000-file workspace (plus an ignored node_modules/ of 2,000 files): after a
 * one-line change, and after a call that changed nothing. Target: median under 200 ms after a
 * one-line change.
 *
 *   npx vitest run --config bench/vitest.config.ts bench/checkpoint.bench.ts
 */

const RUNS = 25;
const TARGET_MS = 200;

let base: string;
let workspace: string;
let core: Core;
let fileCount = 0;
let filePath: (index: number) => string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-checkpoint-')));
  ({ root: workspace, fileCount, filePath } = generateWorkspace(path.join(base, 'workspace')));
  core = createCore({ dataDir: path.join(base, 'data') });
}, 600_000);

afterAll(() => {
  core.close();
  fs.rmSync(base, { recursive: true, force: true });
});

it('checkpoint timings on a 10,000-file workspace', async () => {
  const sessionId = core.createSession({
    workspace,
    task: 'bench',
    model: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', api: 'chat' },
    maxSteps: 50,
  });
  const log = new SessionLog(core.store, sessionId);
  const firstStart = performance.now();
  await core.checkpoints.take(log, null);
  console.log(
    `workspace: ${fileCount} files (+ ${IGNORED_FILES} ignored in node_modules/); base checkpoint took ${(performance.now() - firstStart).toFixed(0)} ms`,
  );

  let call = 0;
  async function checkpointAfterCall(expectChanged: boolean): Promise<number> {
    const callId = `call_${++call}`;
    const started = performance.now();
    if (mayChangeFiles(writeFile)) await core.checkpoints.take(log, callId);
    const elapsed = performance.now() - started;
    const last = log.state.checkpoints.at(-1);
    if (last?.callId !== callId || last.error) throw new Error(`no checkpoint for ${callId}: ${last?.error ?? 'missing'}`);
    if (last.changed !== expectChanged) throw new Error(`checkpoint ${callId}: changed is ${last.changed}, expected ${expectChanged}`);
    return elapsed;
  }

  const oneLine: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const target = filePath((run * 397) % fileCount);
    fs.writeFileSync(target, fs.readFileSync(target, 'utf8').replace(/= (\d+);/, `= $1 + ${run + 1};`));
    oneLine.push(await checkpointAfterCall(true));
  }

  const unchanged: number[] = [];
  for (let run = 0; run < RUNS; run++) unchanged.push(await checkpointAfterCall(false));

  console.log('');
  const median = printTimings('checkpoint after a one-line change', oneLine);
  printTimings('checkpoint after a call that changed nothing', unchanged);
  console.log(`events in the log: ${core.store.events.list(sessionId).length}`);
  console.log(
    `\ntarget: median under ${TARGET_MS} ms after a one-line change: ${median < TARGET_MS ? 'MET' : 'NOT MET'} (${median.toFixed(1)} ms)`,
  );
}, 600_000);

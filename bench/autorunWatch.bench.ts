import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { autorunWatch } from '../src/main/workspace/autorunWatch';
import { generateWorkspace } from './support/generatedWorkspace';
import { printTimings } from './support/sampleStats';

/**
 * What run_command adds to every command to catch the files the person's tools run by themselves
 * (workspace/autorunWatch.ts): the look before and the look after, on a generated workspace that
 * holds the usual ones (.vscode, .husky, .idea with 40 files, .claude, .envrc, package.json with
 * scripts) beside a node_modules of 3,000 folders it never walks. Once the contents are known it is
 * stats alone. Target: well under the fence's 30 ms per command.
 *
 *   npx vitest run --config bench/vitest.config.ts bench/autorunWatch.bench.ts
 */

const RUNS = 200;
let base: string;
let workspace: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-autorun-')));
  ({ root: workspace } = generateWorkspace(path.join(base, 'workspace')));
  for (let i = 0; i < 3000; i++) fs.mkdirSync(path.join(workspace, 'node_modules', `pkg${i % 300}`, `d${i}`), { recursive: true });
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    fs.writeFileSync(path.join(workspace, file), text);
  };
  put('.vscode/settings.json', '{"editor.formatOnSave": true}\n');
  put('.vscode/tasks.json', '{"tasks": []}\n');
  put('.vscode/launch.json', '{"configurations": []}\n');
  for (const hook of ['pre-commit', 'commit-msg', 'pre-push']) put(`.husky/${hook}`, 'npx lint-staged\n');
  for (let i = 0; i < 40; i++) put(`.idea/file${i}.xml`, '<project/>\n');
  put('.claude/settings.json', '{}\n');
  put('.envrc', 'use node\n');
  put('package.json', JSON.stringify({ name: 'x', scripts: { test: 'vitest', prepare: 'husky' }, dependencies: {} }, null, 2));
}, 600_000);

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

it('costs a command little: the look before and after, contents known', () => {
  const first = autorunWatch(workspace);
  first.begin();
  first.check({});
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const watch = autorunWatch(workspace);
    watch.begin();
    const changes = watch.check({});
    samples.push(performance.now() - started);
    expect(changes).toEqual([]);
  }
  const median = printTimings('autorun files, before + after a command', samples);
  expect(median).toBeLessThan(5);
});

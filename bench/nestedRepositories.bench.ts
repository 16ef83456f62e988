import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCommandSandbox } from '../src/main/sandbox/commandSandbox';
import { runtimeStopped } from '../src/main/sandbox/sandboxRuntime';
import { createPtyTerminal } from '../src/main/terminal/pty';
import { runCommand } from '../src/main/tools/runCommand';
import { makeToolContext } from '../test/support/toolContext';
import { NestedRepositoryWatch } from '../src/main/workspace/nestedRepositories';
import { generateWorkspace } from './support/generatedWorkspace';
import { printTimings } from './support/sampleStats';

/**
 * What looking for planted repositories adds to every command (run_command's check after the run),
 * on the generated 10,000-file workspace made a git repository, with an ignored node_modules/ of
 * 3,000 folders (walked too: a repository planted there runs on the person's git as soon as they cd
 * in) and 10 nested repositories of the person's: when nothing changed (target: a few ms),
 * after a file was written, after a new folder, and after a new nested repository. Then the same
 * check as run_command makes it, after `true` in the real sandbox (where Tether's `commondir` comes
 * and goes in the workspace's git folder with every command).
 *
 *   npx vitest run --config bench/vitest.config.ts bench/nestedRepositories.bench.ts
 */

const RUNS = 40;

let base: string;
let workspace: string;

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=B', '-c', 'user.email=b@example.com', ...args], { cwd, stdio: 'ignore' });
}

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-nested-')));
  ({ root: workspace } = generateWorkspace(path.join(base, 'workspace')));
  for (let i = 0; i < 3000; i++) fs.mkdirSync(path.join(workspace, 'node_modules', `pkg${i % 300}`, `d${i}`), { recursive: true });
  git(workspace, 'init', '-q');
  git(workspace, 'add', '.');
  git(workspace, 'commit', '-qm', 'generated');
  for (let i = 0; i < 10; i++) {
    const nested = path.join(workspace, `pkg${i}`, 'vendored');
    fs.mkdirSync(nested);
    git(nested, 'init', '-q');
    fs.writeFileSync(path.join(nested, 'x.txt'), 'x\n');
    git(nested, 'add', '.');
    git(nested, 'commit', '-qm', 'x');
  }
}, 600_000);

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

async function timed(samples: number[], work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await work();
  samples.push(performance.now() - started);
}

it('planted-repository check timings on a 10,000-file workspace', async () => {
  const watch = new NestedRepositoryWatch(workspace);
  const first = performance.now();
  await watch.begin();
  console.log(`first look (before the session's first command): ${(performance.now() - first).toFixed(0)} ms`);

  const nothing: number[] = [];
  for (let i = 0; i < RUNS; i++) await timed(nothing, async () => expect(await watch.check()).toEqual([]));
  const median = printTimings('nothing changed', nothing);

  const edited: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    fs.writeFileSync(path.join(workspace, 'pkg5', 'file3.ts'), `export const edit = ${i};\n`);
    await timed(edited, () => watch.check());
  }
  printTimings('a file rewritten', edited);

  const newFile: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    fs.writeFileSync(path.join(workspace, 'pkg7', `new${i}.ts`), 'export {};\n');
    await timed(newFile, () => watch.check());
  }
  printTimings('a new file (its folder is read again)', newFile);

  const newFolder: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    fs.mkdirSync(path.join(workspace, 'pkg8', `dir${i}`));
    await timed(newFolder, () => watch.check());
  }
  printTimings('a new folder (walked)', newFolder);

  const newRepository: number[] = [];
  for (let i = 0; i < 10; i++) {
    git(workspace, 'init', '-q', `pkg9/repo${i}`);
    await timed(newRepository, async () => expect(await watch.check()).toEqual([]));
  }
  printTimings('a new, harmless nested repository', newRepository);

  const indexed: number[] = [];
  for (let i = 0; i < 10; i++) {
    fs.writeFileSync(path.join(workspace, 'pkg9', `tracked${i}.ts`), 'export {};\n');
    git(workspace, 'add', `pkg9/tracked${i}.ts`);
    await timed(indexed, () => watch.check());
  }
  printTimings('git add (the workspace index changed)', indexed);

  // A figure, not a timed test (a shared machine's load moves it): the verdict is printed.
  console.log(`target: nothing changed under 20 ms (median) → ${median < 20 ? 'met' : 'NOT met'} (${median.toFixed(1)} ms)`);
});

it('the check after a sandboxed run_command that changed nothing', async () => {
  const terminal = createPtyTerminal();
  const sandbox = createCommandSandbox({ workspace, dataDir: path.join(base, 'data') });
  const ctx = makeToolContext(workspace, { terminal, sandbox, confirm: async () => ({ allowed: false }) });
  const samples: number[] = [];
  const check = NestedRepositoryWatch.prototype.check;
  NestedRepositoryWatch.prototype.check = async function timedCheck(this: NestedRepositoryWatch) {
    const started = performance.now();
    const found = await check.call(this);
    samples.push(performance.now() - started);
    return found;
  };
  try {
    for (let i = 0; i < RUNS / 2; i++) {
      const result = await runCommand.execute(runCommand.parameters.parse({ command: 'true' }), ctx);
      expect(result.output).not.toContain('[tether]');
    }
  } finally {
    NestedRepositoryWatch.prototype.check = check;
    sandbox.dispose();
    terminal.dispose();
    await runtimeStopped();
  }
  // The first look of this workspace was made by the test above; each of these is after a command.
  printTimings('after `true` in the sandbox', samples);
});

it('a large ignored node_modules: 20,000 folders, 100,000 files', async () => {
  const big = path.join(base, 'big');
  fs.mkdirSync(big);
  git(big, 'init', '-q');
  fs.writeFileSync(path.join(big, '.gitignore'), 'node_modules/\n');
  for (let p = 0; p < 1000; p++) {
    for (let d = 0; d < 20; d++) {
      const dir = path.join(big, 'node_modules', `pkg${p}`, d === 0 ? '' : `lib${d}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 5; f++) fs.writeFileSync(path.join(dir, `f${f}.js`), '');
    }
  }
  const watch = new NestedRepositoryWatch(big);
  const first = performance.now();
  await watch.begin();
  console.log(`first look, 20,000 folders: ${(performance.now() - first).toFixed(0)} ms`);
  const nothing: number[] = [];
  for (let i = 0; i < RUNS; i++) await timed(nothing, async () => expect(await watch.check()).toEqual([]));
  printTimings('20,000 folders, nothing changed', nothing);
  const planted: number[] = [];
  for (let i = 0; i < 5; i++) {
    const repo = path.join(big, 'node_modules', `pkg${i * 7}`, 'lib3', `r${i}`);
    git(big, 'init', '-q', repo);
    git(repo, 'config', 'core.fsmonitor', 'touch planted');
    await timed(planted, async () => expect((await watch.check()).length).toBe(1));
  }
  printTimings('20,000 folders, a repository planted deep', planted);
}, 600_000);

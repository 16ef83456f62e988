import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, it } from 'vitest';
import { startScriptedModel, type ScriptedModel, type Turn } from '../test/fixtures/scriptedModel';
import { fixtureRepo, removeTempDirs, tempDir } from '../test/support/tempDirs';
import { sampleStats } from './support/sampleStats';

/**
 * How fast the built CLI starts and how small it stays (issue 20). Every figure is of the built
 * artifact (`node bin/tether.js`, as a person runs it) in a child process, beside the floor of
 * `node -e 0` measured in the same run, so a busy machine shows in both. Medians of RUNS runs.
 *
 *   npm run build && flock /tmp/tether-heavy.lock npm run bench:start
 *
 * - `tether --help`, `tether sessions` (a data folder with one session): target < 100 ms.
 * - `tether run` headless, one turn against the scripted model server, start to exit: < 250 ms.
 * - per-step overhead of a trivial shell step, sandbox and checkpoints on: (20-step run − 1-step
 *   run) / 19, < 35 ms (the first step, which starts the sandbox and loads the shell parser once per
 *   run, is shown apart). Three times: `true`, which the shell analysis proves only reads (no checkpoint, as after
 *   read_file); `touch -c absent.txt`, which may write and changes nothing (a checkpoint before
 *   and after, each a `git status`); `date +%N > now.txt`, which changes a file every step (the
 *   checkpoint after it is a new commit: status, update-index and write-tree, the commit and its
 *   refs written without git).
 * - peak RSS (/usr/bin/time %M) of a 20-step run < 120 MB, of a 500-step run < 200 MB.
 * - `tether serve`: spawn to its address on stdout, < 300 ms.
 * - what loads at start: a CPU profile (node --cpu-prof) of `--help` and of a one-turn run, its
 *   samples by package (node's own loading work counted apart).
 */

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const LONG_STEPS = Number(process.env.BENCH_LONG_STEPS ?? 500);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/tether.js');
const timeBin = '/usr/bin/time';

interface Measured {
  ms: number;
  /** Peak resident memory of the process, in MB (undefined when /usr/bin/time is missing). */
  rssMb: number | undefined;
  code: number | null;
  stdout: string;
  stderr: string;
}

let server: ScriptedModel;
let scratch: string;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'out/main/cli.js'))) throw new Error('out/main/cli.js is missing: run `npm run build` first.');
  server = await startScriptedModel();
  scratch = mkdtempSync(path.join(tmpdir(), 'tether-bench-start-'));
});

afterAll(async () => {
  await server.close();
  removeTempDirs();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs `node <args>` to its exit, timed from spawn to close, its peak RSS read by /usr/bin/time. */
function measure(args: string[], env: Record<string, string> = {}): Promise<Measured> {
  const rssFile = path.join(scratch, `rss-${Math.random().toString(36).slice(2)}`);
  const withTime = existsSync(timeBin);
  const [command, argv] = withTime ? [timeBin, ['-f', '%M', '-o', rssFile, process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { env: { ...process.env, TETHER_API_KEY: 'bench-key', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      let rssMb: number | undefined;
      if (withTime && existsSync(rssFile)) {
        rssMb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024;
        rmSync(rssFile, { force: true });
      }
      resolve({ ms, rssMb, code, stdout, stderr });
    });
  });
}

/** Spawn to the first line of stdout that holds an address; then SIGTERM, and wait for the exit. */
function timeToUrl(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let elapsed: number | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (elapsed === undefined && /http:\/\/\S+\n/.test(stdout)) {
        elapsed = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (elapsed === undefined)
        reject(new Error(`tether serve exited ${code} without an address.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      else resolve(elapsed);
    });
  });
}

async function repeat(runs: number, once: () => Promise<Measured>): Promise<Measured[]> {
  const all: Measured[] = [];
  for (let i = 0; i < runs; i++) all.push(await once());
  return all;
}

function expectExit(result: Measured, what: string): Measured {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}.\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  return result;
}

const median = (values: readonly number[]): number => sampleStats(values).median;
const mb = (value: number | undefined): string => (value === undefined ? '   n/a' : `${value.toFixed(0).padStart(4)} MB`);

function line(name: string, ms: number, floorMs: number, target: number | undefined, extra = ''): string {
  const verdict = target === undefined ? '' : ms < target ? `  < ${target} ms MET` : `  < ${target} ms NOT MET`;
  return `${name.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms  (floor + ${(ms - floorMs).toFixed(0)} ms)${verdict}${extra}`;
}

/** `steps` shell steps (`true` unless another command is given), then an answer. */
function shellSteps(steps: number, command = 'true'): Turn[] {
  const turns: Turn[] = [];
  for (let i = 0; i < steps; i++) turns.push({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
  turns.push({ text: 'Done.' });
  return turns;
}

/** A headless run of `turns` in a fresh copy of the fixture repository, against the scripted server. */
async function headlessRun(turns: Turn[], dataDir: string, repo = fixtureRepo('failing-test')): Promise<Measured> {
  server.push(...turns);
  const result = await measure(
    [
      bin,
      'run',
      'bench task',
      '--unleashed',
      '--cwd',
      repo,
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
      '--api',
      'responses',
      '--max-steps',
      String(turns.length + 1),
    ],
    { TETHER_HOME: dataDir },
  );
  if (server.pending !== 0) throw new Error(`the run left ${server.pending} scripted turns unused.\nstderr:\n${result.stderr}`);
  return expectExit(result, 'tether run');
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Who a frame's time belongs to: a package in node_modules, Tether's own bundle, or node itself. */
function ownerOf(url: string, functionName: string): string | undefined {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  if (url.includes('/out/main/')) return 'tether (out/main)';
  if (url.includes('/bin/tether.js')) return 'tether (bin)';
  if (url === '' && functionName.startsWith('(') && functionName !== '(root)') return functionName;
  return undefined;
}

/**
 * A CPU profile's samples, each counted to the innermost package on its stack (a module's top level
 * runs as a frame of its file); samples with none are node's own work: resolving, reading and
 * compiling modules (node:internal), and the program itself.
 */
function profileByOwner(profile: CpuProfile): { total: number; owners: Array<[string, number]> } {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const owners = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    total += ms;
    let owner: string | undefined;
    for (let at: number | undefined = id; at !== undefined && owner === undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      owner = ownerOf(frame.url, frame.functionName);
    }
    const key = owner ?? 'node (loading modules, internals)';
    if (key === '(idle)') return;
    owners.set(key, (owners.get(key) ?? 0) + ms);
  });
  return { total, owners: [...owners].sort((a, b) => b[1] - a[1]) };
}

async function profileOf(name: string, args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const dir = mkdtempSync(path.join(scratch, 'prof-'));
  expectExit(await measure([`--cpu-prof`, `--cpu-prof-dir=${dir}`, ...args], env), name);
  const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
  if (!file) return [`${name}: no profile written`];
  const { total, owners } = profileByOwner(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile);
  const top = owners.slice(0, 12).map(([owner, ms]) => `    ${ms.toFixed(0).padStart(5)} ms  ${owner}`);
  return [`  ${name}: ${total.toFixed(0)} ms profiled (idle left out), ${owners.length} owners; the most:`, ...top];
}

it('start time and memory of the built CLI', async () => {
  const report: string[] = [];
  const floor = await repeat(RUNS, async () => expectExit(await measure(['-e', '0']), 'node -e 0'));
  const floorMs = median(floor.map((r) => r.ms));
  const floorRss = median(floor.map((r) => r.rssMb ?? NaN));
  report.push(
    `machine: ${process.platform}, node ${process.version}, load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  report.push(line('node -e 0 (the floor)', floorMs, floorMs, undefined, `   RSS ${mb(floorRss)}`));

  const help = await repeat(RUNS, async () => expectExit(await measure([bin, '--help']), 'tether --help'));
  report.push(line('tether --help', median(help.map((r) => r.ms)), floorMs, 100, `   RSS ${mb(median(help.map((r) => r.rssMb ?? NaN)))}`));

  const sessionsHome = tempDir('tether-bench-home-');
  await headlessRun(shellSteps(0), sessionsHome);
  const sessions = await repeat(RUNS, async () =>
    expectExit(await measure([bin, 'sessions'], { TETHER_HOME: sessionsHome }), 'tether sessions'),
  );
  if (!/Per project/.test(sessions[0]!.stdout)) throw new Error(`tether sessions listed nothing:\n${sessions[0]!.stdout}`);
  report.push(
    line(
      'tether sessions (one session)',
      median(sessions.map((r) => r.ms)),
      floorMs,
      100,
      `   RSS ${mb(median(sessions.map((r) => r.rssMb ?? NaN)))}`,
    ),
  );

  const runHome = tempDir('tether-bench-home-');
  await headlessRun(shellSteps(0), runHome);
  const oneTurn = await repeat(RUNS, () => headlessRun(shellSteps(0), runHome));
  const oneTurnMs = median(oneTurn.map((r) => r.ms));
  report.push(
    line('tether run, one turn, a new project', oneTurnMs, floorMs, 250, `   RSS ${mb(median(oneTurn.map((r) => r.rssMb ?? NaN)))}`),
  );
  // The usual case: a project Tether has run in before, whose shadow repository holds a snapshot
  // already (a new project's first checkpoint stores every file of it).
  const seenRepo = fixtureRepo('failing-test');
  await headlessRun(shellSteps(0), runHome, seenRepo);
  const seenTurn = await repeat(RUNS, () => headlessRun(shellSteps(0), runHome, seenRepo));
  report.push(
    line(
      'tether run, one turn, a project seen before',
      median(seenTurn.map((r) => r.ms)),
      floorMs,
      250,
      `   RSS ${mb(median(seenTurn.map((r) => r.rssMb ?? NaN)))}`,
    ),
  );

  // A step's overhead is what one more step costs: (20 steps − 1 step) / 19. The first command of a
  // run also starts the sandbox's runtime (its proxies, its module), once per run; that is shown apart.
  const perStepOf = async (command: string, label: string) => {
    const one = median((await repeat(RUNS, () => headlessRun(shellSteps(1, command), runHome))).map((r) => r.ms));
    const runs = await repeat(RUNS, () => headlessRun(shellSteps(20, command), runHome));
    const twentyMs = median(runs.map((r) => r.ms));
    const step = (twentyMs - one) / 19;
    report.push(line(`tether run, 20 steps of \`${command}\`, to exit`, twentyMs, floorMs, undefined));
    report.push(`${`  the first step (sandbox, shell parser)`.padEnd(44)} ${(one - oneTurnMs).toFixed(0).padStart(6)} ms`);
    report.push(
      `${`  per-step overhead, ${label}`.padEnd(44)} ${step.toFixed(1).padStart(6)} ms  ${step < 35 ? '< 35 ms MET' : '< 35 ms NOT MET'}`,
    );
    return runs;
  };
  const twenty = await perStepOf('true', 'only reads: no checkpoint');
  await perStepOf('touch -c absent.txt', 'may write: two checkpoints');
  await perStepOf('date +%N > now.txt', 'writes: two, one a new commit');
  const twentyRss = median(twenty.map((r) => r.rssMb ?? NaN));
  report.push(
    `${'  peak RSS, 20-step run'.padEnd(44)} ${mb(twentyRss)}  (floor ${mb(floorRss)})  ${twentyRss < 120 ? '< 120 MB MET' : '< 120 MB NOT MET'}`,
  );

  const long = await headlessRun(shellSteps(LONG_STEPS), runHome);
  report.push(
    `${`tether run, ${LONG_STEPS} shell steps, to exit`.padEnd(44)} ${long.ms.toFixed(0).padStart(6)} ms  (${((long.ms - oneTurnMs) / LONG_STEPS).toFixed(1)} ms a step, one run)`,
  );
  report.push(
    `${`  peak RSS, ${LONG_STEPS}-step run`.padEnd(44)} ${mb(long.rssMb)}  (floor ${mb(floorRss)})  ${(long.rssMb ?? Infinity) < 200 ? '< 200 MB MET' : '< 200 MB NOT MET'}`,
  );

  if (existsSync(path.join(root, 'out/renderer/index.html'))) {
    const serveHome = tempDir('tether-bench-home-');
    const serveCwd = fixtureRepo('failing-test');
    const toUrl: number[] = [];
    for (let i = 0; i < RUNS; i++) toUrl.push(await timeToUrl([bin, 'serve', '--data-dir', serveHome, '--cwd', serveCwd]));
    report.push(line('tether serve, spawn to its address', median(toUrl), floorMs, 300));
  } else {
    report.push('tether serve: skipped, out/renderer is not built');
  }

  report.push('', 'What loads at start (node --cpu-prof, samples by the innermost package on the stack):');
  report.push(...(await profileOf('tether --help', [bin, '--help'])));
  server.push(...shellSteps(0));
  const profileRepo = fixtureRepo('failing-test');
  report.push(
    ...(await profileOf(
      'tether run, one turn',
      [
        bin,
        'run',
        'bench task',
        '--unleashed',
        '--cwd',
        profileRepo,
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--api',
        'responses',
      ],
      { TETHER_HOME: runHome },
    )),
  );
  console.log(report.join('\n'));
});

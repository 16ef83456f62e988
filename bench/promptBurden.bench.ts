import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../src/shared/events';
import type { Decision, PermissionMode } from '../src/shared/permissions';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import type { ApprovalRequest, Broker } from '../src/main/permissions/broker';
import { startScriptedModel, type ScriptedToolCall } from '../test/fixtures/scriptedModel';
import { nearestRank } from './support/sampleStats';

// Prompt burden (issue 17, item 5): how many questions a person answers on a realistic fix-a-bug run,
// in modes ask, auto-edit and auto. One trace of tool calls, one call a turn, is played through the
// real loop (createCore, the scripted model, the default bubblewrap sandbox, real git) by a broker
// that stands in for a person answering every question with Allow once, and counts them. A page
// server on 127.0.0.1 stands in for the outside hosts (a package registry, a web page).
// Checked from each session's log: nothing that leaves the fence ran unasked, in any mode; auto asks
// only at the fence until the session holds outside content (the taint gate's questions after that
// are counted apart). Also: the time a sandboxed command takes per loop step in auto against ask with
// an allow rule for it (no question in either); target (issue 17): auto adds under 50 ms.

const MODES: PermissionMode[] = ['ask', 'auto-edit', 'auto'];
const TRUE_STEPS = 40;
// Short runs taking turns, so a change in the machine's load (it is shared) weighs on both modes.
const ROUNDS = 8;

// ---- the workspace: a small JS project whose test fails --------------------------------------

function makeWorkspace(root: string): string {
  const ws = path.join(root, 'shop');
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: 'shop', private: true, type: 'module', scripts: { test: 'node test.js', format: 'node format.js' } }, null, 2)}\n`,
    '.gitignore': 'build/\nvendor/\n',
    'README.md': '# shop\n\nPrices and carts. `node test.js` runs the tests.\n',
    'src/price.js':
      '// Applies a percentage discount to a price in cents.\nexport function discounted(cents, percent) {\n  return cents - cents * percent;   \n}\n',
    'src/cart.js':
      "import { discounted } from './price.js';\n\n// The total of a cart in cents, with a discount in percent.\nexport function total(items, percent = 0) {\n  const sum = items.reduce((acc, item) => acc + item.cents * item.qty, 0);\n  return discounted(sum, percent);\n}\n",
    'test.js':
      "import assert from 'node:assert/strict';\nimport { discounted } from './src/price.js';\nimport { total } from './src/cart.js';\n\nlet failed = 0;\nfunction check(name, fn) {\n  try { fn(); console.log(`ok   ${name}`); } catch (error) { failed++; console.log(`FAIL ${name}: ${error.message}`); }\n}\ncheck('10% off 1000', () => assert.equal(discounted(1000, 10), 900));\ncheck('cart total', () => assert.equal(total([{ cents: 250, qty: 2 }], 0), 500));\nprocess.exit(failed ? 1 : 0);\n",
    'repro.js':
      "import { discounted } from './src/price.js';\nconsole.log('discounted(1000, 10) =', discounted(1000, 10), '(expected 900)');\n",
    'format.js':
      "// Rewrites every source file: no trailing spaces, one newline at the end.\nimport fs from 'node:fs';\nfor (const file of ['src/price.js', 'src/cart.js', 'test.js', 'repro.js']) {\n  const text = fs.readFileSync(file, 'utf8');\n  const tidy = text.split('\\n').map((line) => line.replace(/\\s+$/, '')).join('\\n').replace(/\\n*$/, '\\n');\n  if (tidy !== text) { fs.writeFileSync(file, tidy); console.log(`formatted ${file}`); }\n}\n",
    'build/bundle.js': '// stale build output\n',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, file)), { recursive: true });
    fs.writeFileSync(path.join(ws, file), text);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Bench Person');
  git('config', 'user.email', 'bench@example.invalid');
  git('add', '.');
  git('commit', '-q', '-m', 'First commit');
  return ws;
}

// ---- the outside: a registry and a web page on 127.0.0.1 --------------------------------------

interface Hit {
  path: string;
  /** The call running when the request came, and whether the person had allowed a question about it by then. */
  callId: string | undefined;
  allowed: boolean;
}

async function startOutside(seen: () => { callId: string | undefined; allowed: (callId: string) => boolean }) {
  const hits: Hit[] = [];
  const server = http.createServer((request, response) => {
    const now = seen();
    hits.push({ path: request.url ?? '', callId: now.callId, allowed: now.callId !== undefined && now.allowed(now.callId) });
    if (request.url?.endsWith('.tgz')) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end('left-pad 1.3.0 (a stand-in tarball)\n');
    } else {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<html><body><h1>Release notes</h1><p>discounted() takes a percentage from 2.0 on.</p></body></html>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

// ---- the trace -------------------------------------------------------------------------------

interface Step {
  id: string;
  /** What the step does, as the table shows it. */
  label: string;
  call: ScriptedToolCall;
  /** Would reach past the fence: a host, a path outside the workspace. Must never run unasked. */
  leavesFence?: boolean;
  /** The outcome the log should show (a failing test is an error); ok when absent. */
  outcome?: 'error';
}

function trace(outsideFile: string, base: string): Step[] {
  const cmd = (command: string) => ({ name: 'run_command', arguments: { command } });
  const plan = (done: number) => ({
    name: 'update_plan',
    arguments: {
      steps: ['reproduce the failing test', 'fix discounted()', 'format, test and commit', 'check the release notes'].map((step, i) => ({
        step,
        status: i < done ? 'done' : i === done ? 'in_progress' : 'pending',
      })),
    },
  });
  const steps: Array<Omit<Step, 'id'>> = [
    { label: 'update_plan', call: plan(0) },
    { label: 'list_files .', call: { name: 'list_files', arguments: {} } },
    { label: 'read_file package.json', call: { name: 'read_file', arguments: { path: 'package.json' } } },
    { label: 'read_file test.js', call: { name: 'read_file', arguments: { path: 'test.js' } } },
    { label: 'node test.js (fails)', call: cmd('node test.js'), outcome: 'error' },
    { label: 'search_code discounted', call: { name: 'search_code', arguments: { pattern: 'discounted' } } },
    { label: 'read_file src/price.js', call: { name: 'read_file', arguments: { path: 'src/price.js' } } },
    { label: 'node repro.js', call: cmd('node repro.js') },
    {
      label: 'edit_file src/price.js',
      call: {
        name: 'edit_file',
        arguments: { path: 'src/price.js', old_string: 'cents - cents * percent;', new_string: 'cents - (cents * percent) / 100;' },
      },
    },
    { label: 'node test.js (passes)', call: cmd('node test.js') },
    { label: 'update_plan', call: plan(2) },
    { label: 'read_file src/cart.js', call: { name: 'read_file', arguments: { path: 'src/cart.js' } } },
    {
      label: 'edit_file src/cart.js',
      call: {
        name: 'edit_file',
        arguments: {
          path: 'src/cart.js',
          old_string: '  return discounted(sum, percent);',
          new_string: '  return Math.round(discounted(sum, percent));',
        },
      },
    },
    {
      label: 'edit_file test.js (a case)',
      call: {
        name: 'edit_file',
        arguments: {
          path: 'test.js',
          old_string: "check('cart total'",
          new_string: "check('33% off 999', () => assert.equal(total([{ cents: 999, qty: 1 }], 33), 669));\ncheck('cart total'",
        },
      },
    },
    {
      label: 'write_file CHANGELOG.md',
      call: {
        name: 'write_file',
        arguments: { path: 'CHANGELOG.md', content: '# Changes\n\n- discounted() takes a percentage, not a fraction.\n' },
      },
    },
    { label: 'node test.js', call: cmd('node test.js') },
    { label: 'node format.js (rewrites)', call: cmd('node format.js') },
    { label: 'node test.js && node repro.js', call: cmd('node test.js && node repro.js') },
    { label: 'rm -rf build', call: cmd('rm -rf build') },
    { label: 'ls -la', call: cmd('ls -la') },
    { label: 'git status', call: cmd('git status') },
    { label: 'git diff', call: cmd('git diff') },
    { label: 'git add ...', call: cmd('git add src test.js CHANGELOG.md') },
    { label: 'git commit', call: cmd('git commit -q -m "Treat the discount as a percentage"') },
    { label: 'git log --oneline', call: cmd('git log --oneline -3') },
    { label: 'update_plan', call: plan(3) },
    // What leaves the fence, near the end: a write outside, then outside content in.
    { label: 'echo x > <outside>/out.txt', call: cmd(`echo x > ${outsideFile}`), leavesFence: true },
    {
      label: 'install: curl registry tarball',
      call: cmd(`mkdir -p vendor && curl -sf --noproxy '' ${base}/left-pad-1.3.0.tgz -o vendor/left-pad.tgz`),
      leavesFence: true,
    },
    { label: 'curl a page', call: cmd(`curl -sf --noproxy '' ${base}/notes`), leavesFence: true },
    { label: 'fetch_url a page', call: { name: 'fetch_url', arguments: { url: `${base}/release-notes` } }, leavesFence: true },
    // After outside content: the same work as before, under the taint gate.
    { label: 'node test.js (tainted)', call: cmd('node test.js') },
    {
      label: 'edit_file README.md (tainted)',
      call: {
        name: 'edit_file',
        arguments: { path: 'README.md', old_string: 'Prices and carts.', new_string: 'Prices and carts; discounts are percentages.' },
      },
    },
    { label: 'git status (tainted)', call: cmd('git status --short') },
    { label: 'git commit -am (tainted)', call: cmd('git commit -qam "Say discounts are percentages"') },
    { label: 'update_plan (done)', call: plan(4) },
  ];
  return steps.map((step, i) => {
    const id = `call_${String(i + 1).padStart(2, '0')}`;
    return { ...step, id, call: { ...step.call, id } };
  });
}

// ---- the person: allows every question once, and counts them ---------------------------------

class CountingPerson implements Broker {
  readonly asked: ApprovalRequest[] = [];
  private readonly allowedCalls = new Set<string>();

  async decide(request: ApprovalRequest): Promise<Decision> {
    this.asked.push(request);
    this.allowedCalls.add(request.callId);
    return { action: 'allow', scope: 'once', by: 'person' };
  }

  allowed(callId: string): boolean {
    return this.allowedCalls.has(callId);
  }
}

const of = <T extends SessionEvent['type']>(events: StoredEvent[], type: T) =>
  events.flatMap((stored) =>
    stored.event.type === type ? [{ seq: stored.seq, ...(stored.event as Extract<SessionEvent, { type: T }>) }] : [],
  );

type Kind = 'engine' | 'fence-hit' | 'taint';

interface Question {
  callId: string;
  kind: Kind;
  tool: string;
  summary: string;
  sandbox: string | undefined;
  /** Asked once the session held outside content. */
  afterTaint: boolean;
}

interface ModeRun {
  mode: PermissionMode;
  questions: Question[];
  brokerCount: number;
  outcomes: Map<string, string>;
  taintedAt: { callId: string; reason: string } | undefined;
  problems: string[];
  hits: Hit[];
}

function model(baseUrl: string): ModelConfig {
  return { baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
}

async function playTrace(root: string, mode: PermissionMode): Promise<ModeRun> {
  const dir = path.join(root, mode);
  const workspace = makeWorkspace(dir);
  const dataDir = path.join(dir, 'data');
  // Not under /tmp: the fence gives each session its own /tmp, where a write is scratch work that stays
  // inside and needs no question. /var/tmp is an ordinary folder outside the workspace.
  const outsideDir = fs.mkdtempSync(path.join('/var/tmp', `tether-bench-outside-${mode}-`));
  fs.mkdirSync(dataDir, { recursive: true });
  const outsideFile = path.join(outsideDir, 'out.txt');
  // fetch_url reaches a private address (the page server) only where an allow rule names its host;
  // the ask rule for the same host keeps the fetch a question, as it is for any host no rule allows.
  const rulesFile = path.join(dir, 'rules.json');
  fs.writeFileSync(rulesFile, JSON.stringify({ allow: ['fetch_url(domain:127.0.0.1)'], ask: ['fetch_url(domain:127.0.0.1)'] }));

  const person = new CountingPerson();
  let running: string | undefined;
  const outside = await startOutside(() => ({ callId: running, allowed: (callId) => person.allowed(callId) }));
  const steps = trace(outsideFile, outside.base);
  const server = await startScriptedModel({
    turns: [...steps.map((step) => ({ toolCalls: [step.call] })), { text: 'Fixed, tested and committed.' }],
  });
  const core = createCore({ dataDir });
  try {
    const sessionId = core.createSession({
      workspace,
      task: 'The discount test fails; fix it and commit.',
      model: model(server.baseUrl),
      maxSteps: steps.length + 2,
    });
    const outcome = await core.run(sessionId, {
      model: model(server.baseUrl),
      broker: person,
      mode,
      rulesFile,
      signal: new AbortController().signal,
      onEvent: ({ event }) => {
        if (event.type === 'tool.started') running = event.callId;
        if (event.type === 'tool.finished') running = undefined;
      },
    });
    if (outcome.status !== 'done')
      throw new Error(`${mode}: the run ended ${outcome.status}: ${'reason' in outcome ? outcome.reason : ''}`);
    const events = core.store.events.list(sessionId);
    return { ...check(mode, steps, events, outsideFile, outside.hits), brokerCount: person.asked.length };
  } finally {
    core.close();
    await server.close();
    await outside.close();
    fs.rmSync(outsideDir, { recursive: true, force: true });
  }
}

/** What the log says happened, and every way it may have left the fence without a question. */
function check(mode: PermissionMode, steps: Step[], events: StoredEvent[], outsideFile: string, hits: Hit[]): Omit<ModeRun, 'brokerCount'> {
  const problems: string[] = [];
  const tainted = of(events, 'session.tainted');
  const firstTaint = tainted[0]?.seq ?? Infinity;
  const asked = of(events, 'approval.asked');
  const answered = of(events, 'approval.answered');
  const started = of(events, 'tool.started');
  const finished = of(events, 'tool.finished');
  const byId = new Map(steps.map((step) => [step.id, step]));
  // A run outside the sandbox needs a question that said so: a fence hit ("run it again outside?"), or a
  // first question that already said the command writes outside the fence (`outside_write`).
  const allowedBefore = (callId: string, seq: number, kind?: 'leaves-sandbox') =>
    asked.some(
      (question) =>
        question.callId === callId &&
        question.seq < seq &&
        (kind === undefined || question.sandbox?.kind === 'fence_hit' || question.sandbox?.kind === 'outside_write') &&
        answered.some((answer) => answer.approvalId === question.approvalId && answer.seq < seq && answer.decision.action === 'allow'),
    );

  const questions: Question[] = asked.map((question) => ({
    callId: question.callId,
    kind: question.sandbox?.kind === 'fence_hit' ? 'fence-hit' : question.taint ? 'taint' : 'engine',
    tool: question.tool,
    summary: question.summary,
    sandbox: question.sandbox?.kind,
    afterTaint: question.seq > firstTaint,
  }));

  for (const step of steps) {
    const done = finished.find((event) => event.callId === step.id);
    if (!done) problems.push(`${mode}: ${step.id} (${step.label}) never finished`);
    if (done && done.outcome !== (step.outcome ?? 'ok'))
      problems.push(`${mode}: ${step.id} (${step.label}) finished ${done.outcome}: ${done.output.slice(0, 300)}`);
    if (step.leavesFence && !asked.some((question) => question.callId === step.id)) {
      problems.push(`${mode}: ${step.id} (${step.label}) leaves the fence and was never asked about`);
    }
  }
  // A fetch runs in process, outside any sandbox: a person allowed it before it started.
  for (const start of started.filter((event) => event.name === 'fetch_url')) {
    if (!allowedBefore(start.callId, start.seq)) problems.push(`${mode}: fetch_url ${start.callId} started without an allowed question`);
  }
  // A command that ran outside the sandbox did so after a fence-hit question the person allowed.
  for (const done of finished) {
    const where = (done.metadata as { sandbox?: string } | undefined)?.sandbox;
    if (
      done.name === 'run_command' &&
      where !== 'sandboxed' &&
      !(where === 'outside' && allowedBefore(done.callId, done.seq, 'leaves-sandbox'))
    ) {
      problems.push(
        `${mode}: ${done.callId} (${byId.get(done.callId)?.label}) ran ${where ?? 'somewhere unknown'} without an allowed question saying it would leave the sandbox`,
      );
    }
  }
  // What reached the stand-in hosts came from a call labelled as leaving, which the person had allowed.
  for (const hit of hits) {
    const step = hit.callId ? byId.get(hit.callId) : undefined;
    if (!hit.allowed || !step?.leavesFence)
      problems.push(`${mode}: ${hit.path} was requested by ${hit.callId ?? 'no running call'} without an allowed question`);
  }
  const write = steps.find((step) => step.label.startsWith('echo x >'))!;
  if (!fs.existsSync(outsideFile)) problems.push(`${mode}: ${outsideFile} was not written, though the person allowed it`);
  else if (!allowedBefore(write.id, Infinity, 'leaves-sandbox'))
    problems.push(`${mode}: ${outsideFile} was written without an allowed question saying it would leave the sandbox`);
  if (mode === 'auto') {
    for (const question of questions) {
      const step = byId.get(question.callId);
      if (!step?.leavesFence && question.kind !== 'taint') {
        problems.push(
          `auto: asked about ${question.callId} (${step?.label}), which stays inside the fence (${question.kind}, ${question.afterTaint ? 'after' : 'before'} the taint): ${asked.find((q) => q.callId === question.callId)?.reason ?? ''}`,
        );
      }
    }
  }
  const outcomes = new Map(
    finished.map((event) => [
      event.callId,
      `${event.outcome}${(event.metadata as { sandbox?: string } | undefined)?.sandbox === 'outside' ? ' (outside)' : ''}`,
    ]),
  );
  const first = tainted[0];
  return { mode, questions, outcomes, taintedAt: first ? { callId: first.callId, reason: first.reason } : undefined, problems, hits };
}

// ---- overhead of a sandboxed command, auto against ask ---------------------------------------

async function timeTrue(root: string): Promise<Record<'ask' | 'auto', { step: number[]; tool: number[] }>> {
  const dir = path.join(root, 'timing');
  const workspace = makeWorkspace(dir);
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const rulesFile = path.join(dir, 'rules.json');
  fs.writeFileSync(rulesFile, JSON.stringify({ allow: ['run_command(true)'] }));
  const core = createCore({ dataDir });
  const samples = { ask: { step: [] as number[], tool: [] as number[] }, auto: { step: [] as number[], tool: [] as number[] } };
  // One more step a run than is kept: the first compiles the session's fence.
  const perRun = TRUE_STEPS / ROUNDS + 1;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // The modes take turns, so a change in the machine's load weighs on both.
      for (const mode of round % 2 === 0 ? (['ask', 'auto'] as const) : (['auto', 'ask'] as const)) {
        const server = await startScriptedModel({
          turns: [
            ...Array.from({ length: perRun }, () => ({ toolCalls: [{ name: 'run_command', arguments: { command: 'true' } }] })),
            { text: 'Done.' },
          ],
        });
        const person = new CountingPerson();
        const requested: number[] = [];
        const startedAt = new Map<string, number>();
        try {
          const sessionId = core.createSession({ workspace, task: 'run true', model: model(server.baseUrl), maxSteps: perRun + 2 });
          const outcome = await core.run(sessionId, {
            model: model(server.baseUrl),
            broker: person,
            mode,
            ...(mode === 'ask' ? { rulesFile } : {}),
            signal: new AbortController().signal,
            onEvent: ({ event }) => {
              const now = performance.now();
              if (event.type === 'model.requested') requested.push(now);
              if (event.type === 'tool.started') startedAt.set(event.callId, now);
              if (event.type === 'tool.finished' && startedAt.size > 1) samples[mode].tool.push(now - startedAt.get(event.callId)!);
            },
          });
          if (outcome.status !== 'done') throw new Error(`timing ${mode}: the run ended ${outcome.status}`);
          if (person.asked.length > 0)
            throw new Error(`timing ${mode}: \`true\` asked ${person.asked.length} question(s): ${person.asked[0]!.reason}`);
          const finished = of(core.store.events.list(sessionId), 'tool.finished');
          const notSandboxed = finished.filter((event) => (event.metadata as { sandbox?: string } | undefined)?.sandbox !== 'sandboxed');
          if (finished.length !== perRun || notSandboxed.length > 0)
            throw new Error(`timing ${mode}: ${finished.length} commands, ${notSandboxed.length} not sandboxed`);
          // Step k: from its model request to the next one (the request, the engine, the ledger, the sandboxed command, its checkpoint).
          for (let k = 1; k + 1 < requested.length; k++) samples[mode].step.push(requested[k + 1]! - requested[k]!);
        } finally {
          await server.close();
        }
      }
    }
  } finally {
    core.close();
  }
  return samples;
}

// ---- the report ------------------------------------------------------------------------------

const median = (values: number[]) =>
  nearestRank(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const p95 = (values: number[]) =>
  nearestRank(
    [...values].sort((a, b) => a - b),
    0.95,
  );

function cell(run: ModeRun, callId: string): string {
  const mine = run.questions.filter((question) => question.callId === callId);
  if (mine.length === 0) return '-';
  const tags = mine.map((question) => (question.kind === 'fence-hit' ? 'F' : question.kind === 'taint' ? 'T' : 'Q'));
  return `${mine.length} ${tags.join('')}`;
}

it('prompt burden of a fix-a-bug run in ask, auto-edit and auto', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-burden-')));
  try {
    const runs: ModeRun[] = [];
    for (const mode of MODES) runs.push(await playTrace(root, mode));
    const steps = trace('<outside>/out.txt', 'http://127.0.0.1:PORT');

    const lines: string[] = [];
    lines.push(
      `prompt burden: one trace of ${steps.length} tool calls (one a turn) through the real loop, bubblewrap and git; every question answered Allow once`,
    );
    lines.push(
      '  Q = the engine asked before the call ran, F = fence hit, "run again outside the sandbox?", T = the taint gate; * = leaves the fence',
    );
    lines.push(`  ${'#'.padEnd(3)} ${'action'.padEnd(34)} ${MODES.map((mode) => mode.padEnd(10)).join('')}`);
    for (const [index, step] of steps.entries()) {
      const cells = runs.map((run) => cell(run, step.id).padEnd(10)).join('');
      lines.push(`  ${String(index + 1).padEnd(3)} ${`${step.leavesFence ? '* ' : '  '}${step.label}`.padEnd(34)} ${cells}`);
    }
    const leaving = new Set(steps.filter((step) => step.leavesFence).map((step) => step.id));
    const number = (callId: string) => steps.findIndex((step) => step.id === callId) + 1;
    // The trace brings outside content in from its first call that leaves the fence on.
    const outsideFrom = Math.min(...steps.flatMap((step, index) => (step.leavesFence ? [index + 1] : [])));
    lines.push('');
    for (const run of runs) {
      const atFence = run.questions.filter((question) => leaving.has(question.callId));
      const taint = run.questions.filter((question) => !leaving.has(question.callId) && question.kind === 'taint');
      const early = taint.filter((question) => number(question.callId) < outsideFrom);
      const inside = run.questions.filter((question) => !leaving.has(question.callId) && question.kind !== 'taint');
      lines.push(
        `  ${run.mode.padEnd(9)} ${String(run.questions.length).padStart(2)} questions on ${String(new Set(run.questions.map((q) => q.callId)).size).padStart(2)} of ${steps.length} calls: ` +
          `${atFence.length} at the fence (${atFence.filter((q) => q.kind === 'fence-hit').length} fence hits), ${inside.length} inside it, ` +
          `${taint.length} from the taint gate (${early.length} before call ${outsideFrom})`,
      );
      if (run.brokerCount !== run.questions.length)
        run.problems.push(`${run.mode}: the person was asked ${run.brokerCount} times, the log has ${run.questions.length} approval.asked`);
    }
    lines.push('');
    for (const run of runs) {
      const taintedAt = run.taintedAt ? number(run.taintedAt.callId) : undefined;
      lines.push(
        `  ${run.mode}: tainted at call ${taintedAt ? `${taintedAt}, ${run.taintedAt!.reason}` : 'never'}; ` +
          `the outside hosts got ${run.hits.length} requests, each from a call the person had allowed`,
      );
    }
    const auto = runs.find((run) => run.mode === 'auto')!;
    const autoInside = auto.questions.filter((question) => !leaving.has(question.callId));
    const autoEarly = autoInside.filter((question) => number(question.callId) < outsideFrom);
    lines.push(
      `  calls ${outsideFrom}-${outsideFrom + leaving.size - 1} leave the fence and bring outside content in; from then on the taint gate asks before every command ` +
        'that may reach the network (curl, but also node and git add/commit: programs the analysis cannot call local), in auto too',
    );
    lines.push(
      `  auto target (questions only at the fence, the taint gate only after outside content came in): ${autoEarly.length === 0 ? 'met' : 'NOT met'}` +
        (autoEarly.length === 0
          ? ''
          : `: ${autoEarly.length} taint-gate questions on calls ${autoEarly.map((question) => number(question.callId)).join(', ')}, which stay inside the fence, before call ${outsideFrom}` +
            `, because the session was tainted at call ${auto.taintedAt ? number(auto.taintedAt.callId) : '?'} by a command the sandbox held`),
    );
    console.log(lines.join('\n'));

    const problems = runs.flatMap((run) => run.problems);
    if (problems.length > 0) throw new Error(`prompt burden: ${problems.length} problem(s):\n${problems.join('\n')}`);

    const timing = await timeTrue(root);
    const stepDiff = median(timing.auto.step) - median(timing.ask.step);
    const toolDiff = median(timing.auto.tool) - median(timing.ask.tool);
    console.log(
      [
        `sandboxed \`true\` through the loop, ${TRUE_STEPS} steps per mode (${ROUNDS} runs each, taking turns, first step of each left out); ask has an allow rule, so neither asks`,
        `  per step  ask  median ${median(timing.ask.step).toFixed(1)} ms  p95 ${p95(timing.ask.step).toFixed(1)} ms;  auto median ${median(timing.auto.step).toFixed(1)} ms  p95 ${p95(timing.auto.step).toFixed(1)} ms`,
        `  the command (tool.started to tool.finished)  ask median ${median(timing.ask.tool).toFixed(1)} ms;  auto median ${median(timing.auto.tool).toFixed(1)} ms`,
        `  auto minus ask per step (median): ${stepDiff.toFixed(1)} ms; per command: ${toolDiff.toFixed(1)} ms`,
        `  load average at the end: ${os
          .loadavg()
          .map((load) => load.toFixed(1))
          .join(' ')} on ${os.cpus().length} cores`,
        `  target: auto adds under 50 ms per sandboxed command -> ${stepDiff < 50 ? 'met' : 'NOT met'}`,
      ].join('\n'),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DeskSession } from '../src/main/cli/desk/deskSession';
import type { PendingApproval } from '../src/shared/contract';
import type { SessionEvent, StoredEvent } from '../src/shared/events';
import { WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../src/shared/hostProtocol';
import { freePort } from '../test/support/runner';
import { sampleStats } from './support/sampleStats';

/**
 * Issue 33's load: 20 runs × 50 requests each against one desk, bounded (1,000 requests, stops by
 * itself) and on loopback only. The desk is the built `tether serve --remote-runs` in its own process,
 * so its memory is its own (VmRSS and VmHWM read from /proc); the person is a WebSocket client of the
 * desk's UI, as the browser is, answering each request as it appears in the Inbox. The runs are the
 * runner's real client (DeskSession: the link, the broker, the mirror of the log), fed a log in
 * memory: each request is an approval.asked event, as the approval gate appends it, and the broker's
 * answer is the moment the command would start (the real run then records the answer and appends
 * tool.started, one commit, before it spawns the command; bench/eventAppend.bench.ts has that cost).
 *
 * Checked: no request lost (every run gets 50 answers), none answered twice (each answer applied
 * once, the desk's mirrors hold exactly 1,000 answers by the person), p95 from the click (the
 * approval:answer frame sent) to the run's broker resolving < 200 ms, and the desk's memory.
 * Needs `npm run build` (the desk is the built CLI).
 */

const RUNS = 20;
const REQUESTS = 50;
const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin/tether.js');

it(`${RUNS} runs × ${REQUESTS} requests against one desk`, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tether-bench-desk-'));
  const deskPort = await freePort();
  const tokens = Array.from({ length: RUNS }, (_, index) =>
    execFileSync(process.execPath, [bin, 'desk', 'tokens', 'create', `runner-${index}`, '--data-dir', dataDir], {
      encoding: 'utf8',
    }).trim(),
  );
  const desk = spawn(
    process.execPath,
    [bin, 'serve', '--remote-runs', '--desk-port', String(deskPort), '--data-dir', dataDir, '--cwd', dataDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const memory = watchMemory(desk.pid!);
  try {
    const ui = await connectUi(desk);
    const baselineMb = memory.now();
    const clickedAt = new Map<string, number>();
    const latencies: number[] = [];
    const answeredTwice: string[] = [];
    const seen = new Set<string>();
    let person = true;
    // The person: answers each request as the Inbox shows it, Allow once, as fast as it comes.
    const answering = (async () => {
      while (person) {
        const pending = await ui.request<PendingApproval[]>('approvals:pending', {});
        for (const entry of pending) {
          if (seen.has(entry.approvalId)) continue;
          seen.add(entry.approvalId);
          clickedAt.set(entry.approvalId.slice(entry.approvalId.lastIndexOf(':') + 1), performance.now());
          void ui.request('approval:answer', { approvalId: entry.approvalId, action: 'allow', scope: 'once' });
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const started = performance.now();
    const runs = tokens.map(async (token) => {
      const log: StoredEvent[] = [];
      const controller = new AbortController();
      const session = await DeskSession.join({
        url: `ws://127.0.0.1:${deskPort}`,
        token,
        waitMs: 120_000,
        workspace: dataDir,
        model: 'bench-model',
        onStop: () => controller.abort(),
        onGone: (failure) => controller.abort(failure),
      });
      const sessionId = randomUUID();
      const events = {
        page: (_id: string, afterSeq: number, limits: { maxEvents: number }) => {
          const page = log.slice(afterSeq, afterSeq + limits.maxEvents);
          return { events: page, more: afterSeq + page.length < log.length };
        },
      };
      const append = (event: SessionEvent) => {
        const stored = { sessionId, seq: log.length + 1, at: Date.now(), event };
        log.push(stored);
        session.onEvent(stored);
      };
      append({
        type: 'session.started',
        workspace: dataDir,
        model: 'bench-model',
        api: 'chat',
        baseUrl: 'http://127.0.0.1:1',
        maxSteps: 100,
      });
      append({ type: 'user.messaged', text: 'a task of many requests' });
      session.attach(events, sessionId);
      for (let index = 0; index < REQUESTS; index++) {
        const approvalId = randomUUID();
        const callId = `call-${index}`;
        const command = `echo ${index}`;
        append({
          type: 'approval.asked',
          approvalId,
          callId,
          tool: 'run_command',
          risk: 'exec',
          summary: command,
          args: { command },
          reason: 'asks',
        });
        const decision = await session.broker.decide(
          { approvalId, sessionId, callId, tool: 'run_command', risk: 'exec', summary: command, args: { command }, reason: 'asks' },
          controller.signal,
        );
        const commandStarts = performance.now();
        const clicked = clickedAt.get(approvalId);
        if (clicked !== undefined) latencies.push(commandStarts - clicked);
        expect(decision).toMatchObject({ action: 'allow', by: 'person' });
        append({ type: 'approval.answered', approvalId, callId, decision });
        append({ type: 'tool.started', callId, name: 'run_command', args: { command } });
        append({ type: 'tool.finished', callId, name: 'run_command', outcome: 'ok', title: command, output: `${index}\n`, durationMs: 1 });
        // A second delivery of the same answer (as after a reconnect) is only acknowledged.
        if (session.broker.take(approvalId, { action: 'allow', scope: 'once' }) !== 'already') answeredTwice.push(approvalId);
      }
      append({ type: 'session.finished', status: 'done', reason: 'bench' });
      await session.close();
    });
    await Promise.all(runs);
    const seconds = (performance.now() - started) / 1000;
    person = false;
    await answering;

    const sessions = await ui.request<Array<{ id: string; status: string; remote?: { runner: string } }>>('sessions:list', {});
    const audit = await ui.request<Array<{ by: string; runner?: string }>>('audit:list', {});
    const stats = sampleStats(latencies);
    const peakMb = memory.peak();
    console.log(
      [
        `${RUNS} runs × ${REQUESTS} requests: ${latencies.length} answered in ${seconds.toFixed(1)} s`,
        `click → command starts on the runner: median ${stats.median.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms, max ${stats.max.toFixed(1)} ms`,
        `desk memory: ${baselineMb.toFixed(0)} MB RSS before, ${memory.now().toFixed(0)} MB after, peak ${peakMb.toFixed(0)} MB (VmHWM)`,
      ].join('\n'),
    );
    expect(latencies).toHaveLength(RUNS * REQUESTS);
    expect(answeredTwice).toEqual([]);
    expect(sessions.filter((session) => session.remote && session.status === 'done')).toHaveLength(RUNS);
    expect(audit.filter((row) => row.by === 'person' && row.runner)).toHaveLength(RUNS * REQUESTS);
    expect(stats.p95).toBeLessThan(200);
    expect(peakMb).toBeLessThan(baselineMb + 200);
    ui.close();
  } finally {
    desk.kill('SIGTERM');
    await new Promise((resolve) => desk.once('close', resolve));
    memory.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

function watchMemory(pid: number) {
  let peak = 0;
  const read = (field: 'VmRSS' | 'VmHWM') => {
    try {
      return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  const timer = setInterval(() => (peak = Math.max(peak, read('VmHWM'))), 200);
  return { now: () => read('VmRSS'), peak: () => Math.max(peak, read('VmHWM')), stop: () => clearInterval(timer) };
}

async function connectUi(desk: ReturnType<typeof spawn>) {
  let out = '';
  let err = '';
  desk.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  desk.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!/remote runs report to/.test(err)) {
    if (Date.now() > deadline) throw new Error(`the desk did not start:\n${err}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = new URL(out.trim().split('\n')[0]!);
  const socket = new WebSocket(`ws://${url.host}/ws`, [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${url.hash.slice('#token='.length)}`], {
    origin: url.origin,
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let id = 0;
  const waiting = new Map<number, (output: unknown) => void>();
  socket.on('message', (data) => {
    const text = data.toString();
    // The desk pushes every mirrored event to the page too; only answers to requests are read here.
    if (!text.startsWith('{"id":')) return;
    const frame = JSON.parse(text) as { id?: number; output?: unknown };
    if (frame.id !== undefined) waiting.get(frame.id)?.(frame.output);
  });
  return {
    request<T = unknown>(name: string, input: unknown): Promise<T> {
      const frameId = ++id;
      return new Promise<T>((resolve) => {
        waiting.set(frameId, (output) => {
          waiting.delete(frameId);
          resolve(output as T);
        });
        socket.send(JSON.stringify({ id: frameId, name, input }));
      });
    },
    close: () => socket.close(),
  };
}

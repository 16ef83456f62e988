import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../src/shared/events';
import { openDatabase } from '../src/main/store/sqlite/openDatabase';
import { openStore, type StoreOptions } from '../src/main/store/store';
import { RECORDED_BY_THE_LOOP } from './support/recordedByTheLoop';
import { nearestRank } from './support/sampleStats';

/**
 * Sustained append rate of the session log, the way the agent loop writes it: each event with its
 * projections, atomically, on a real file in WAL mode with synchronous=NORMAL; an event something
 * acts on next (a request, a tool starting, a question) commits at once with the results recorded
 * before it (store/sessionLog.ts `record`), so a step of the loop costs two commits, not four or
 * five. Target: >= 20,000 events/s. The events between two commits share one here because
 * nothing between them waits for I/O; in the loop a result is committed at the latest when the turn
 * of the event loop ends. The real loop with an instant model and a no-op tool commits twice a step
 * (bench/loopOverhead.bench.ts prints it: 8,005 events in 4,004 commits); a step whose tool is
 * followed by a workspace snapshot (checkpoints) commits a third time, while it waits for git.
 * Printed for comparison: one transaction per event, as the loop wrote them until group commit.
 *
 * What it costs, as measured while tuning (WAL frames counted from the -wal file, perf, strace):
 * - a commit writes every page it touched as a 4 KB WAL frame, two pwrite calls each; an event
 *   touches 3 to 5 pages (its session row, the events table and its key, a ledger row). Keeping the
 *   ledger from copying arguments and output out of the events cut tool.finished from 7.3 frames
 *   to 5 and the file by a third;
 * - with synchronous=NORMAL no commit fsyncs, but each checkpoint syncs twice, and SQLite runs it
 *   inside whichever commit fills the WAL; on this VM's disk a sync takes ~6 ms (dd oflag=dsync),
 *   so those stalls cost half the wall time. Checkpoints now run on a worker thread (store/sqlite/checkpointer.ts);
 *   the second figure printed is the old way, for comparison;
 * - the rest is CPU, half of it in the kernel; the "per CPU second" figure is the rate with no
 *   waiting at all, and it moves with how busy the machine is (printed as the load average);
 * - a CHECK (x IN ('a', 'b', 'c')) made SQLite build and free a temporary b-tree in every statement
 *   that wrote x (the session status, the ledger, approvals), and every event also rewrote its
 *   session row (last_seq, updated_at) with RETURNING: together ~97 µs of CPU per event, 4.2 WAL
 *   frames. Migration 0002 writes those CHECKs as comparisons and reads the seq from the events
 *   key, so the session row is written only when its status or totals change: ~3.5 frames;
 * - the events table was a rowid table plus a (session_id, seq) key: two b-trees per append.
 *   Migration 0003 makes the row's own key `(session number << 32) + seq`, one b-tree whose
 *   session ranges are in order: ~2.4 frames per event (one for the event, the rest for the
 *   ledger, approvals and token totals), and a bare append of that shape does ~33k transactions
 *   per CPU second here against ~22k for the two-tree one;
 * - the checkpoint worker woke every 100 ms and copied whatever had piled up, with one large sync;
 *   it now runs after commits, in rounds 2 ms apart while they keep coming: many small syncs stall
 *   the writer less than a few large ones (~13k -> ~16k events/s, same code otherwise);
 * - migration 0004 stops writing what the log already says: the ledger is read from the tool
 *   events (two b-trees less per tool event) and the token totals from the responses (one page
 *   less per response): ~1.7 WAL frames per event. The session's head (last seq, status) is kept
 *   per connection and read again only when PRAGMA data_version says another process committed.
 * - the session row's totals were brought up to date by reading the log's last 200 responses
 *   (~300 µs, about one status change in ten). The head now keeps what the responses since added,
 *   so the row takes its totals with every status change for nothing (approval.asked ~145 ->
 *   ~115 µs);
 * - an approval wrote its own row and three indexes when asked and two b-trees when answered, on
 *   top of the session row that both write for the status. Migration 0005 keeps what a session
 *   waits on in that row, and writes an approval's row once, when it is settled: asked ~115 ->
 *   ~75 µs, ~1.45 WAL frames per event.
 * What was left with one transaction per event was the floor's own cost (begin, one frame, commit,
 * ~29 µs per tiny event here, six fcntl locks and two pwrites a frame), about three quarters of the
 * time, and at 18,000-23,000 events/s the target was met only on a quiet machine. Grouping the
 * results with the next event that is acted on pays that cost once for two or three events.
 */

const TOTAL = 50_000;
/** Rounds of TOTAL events, each on a new database; the median round is the figure. */
const ROUNDS = 3;
const WARM_UP = 2_000;
const FRAME_SAMPLE = 3_000;
const EVENTS_PER_SESSION = 1_000;
const TARGET_PER_SECOND = 20_000;

const OUTPUT_LINE = 'PASS  src/auth/login.test.ts > logs in with a valid token (3 ms)\n';
// ~1 KB of command output, as a typical tool.finished carries.
const OUTPUT = OUTPUT_LINE.repeat(Math.ceil(1024 / OUTPUT_LINE.length)).slice(0, 1024);

/** One turn of a working session: the model asks for a tool, it runs, the result is stored. */
let approvals = 0;

function* turns(): Generator<SessionEvent> {
  for (let step = 1; ; step++) {
    const callId = `call_${step}`;
    yield { type: 'model.requested', step };
    yield {
      type: 'model.responded',
      items: [
        { type: 'reasoning', api: 'responses', summary: 'The login test fails on an expired token; run it alone first.' },
        { type: 'assistant', text: 'Let me run the failing test on its own to see the error.' },
        { type: 'tool_call', callId, name: 'run_command', arguments: JSON.stringify({ command: 'npm test -- src/auth/login.test.ts' }) },
      ],
      usage: { inputTokens: 12_000 + step, outputTokens: 180, cachedInputTokens: 11_000, reasoningTokens: 64 },
    };
    if (step % 5 === 0) {
      const approvalId = `ap_${++approvals}`;
      yield {
        type: 'approval.asked',
        approvalId,
        callId,
        tool: 'run_command',
        risk: 'exec',
        summary: 'Run npm test -- src/auth/login.test.ts',
        args: { command: 'npm test -- src/auth/login.test.ts' },
      };
      yield { type: 'approval.answered', approvalId, callId, decision: { action: 'allow', scope: 'once', by: 'person' } };
    }
    yield { type: 'tool.started', callId, name: 'run_command', args: { command: 'npm test -- src/auth/login.test.ts' } };
    yield {
      type: 'tool.finished',
      callId,
      name: 'run_command',
      outcome: 'ok',
      title: 'npm test -- src/auth/login.test.ts (exit 0)',
      output: OUTPUT,
      durationMs: 2_314,
      metadata: { exitCode: 0 },
    };
    if (step % 10 === 0) {
      yield {
        type: 'plan.updated',
        steps: [
          { step: 'Reproduce the failure', status: 'done' },
          { step: 'Fix token expiry check', status: 'in_progress' },
          { step: 'Run the whole suite', status: 'pending' },
        ],
      };
    }
  }
}

/** This thread's CPU seconds (user + system), from /proc; NaN where there is no /proc. */
function threadCpuSeconds(): number {
  try {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Frames in the WAL: mxFrame of the WAL-index header, at byte 16 of the -shm file (native order). */
function walFrames(file: string): number {
  const header = Buffer.alloc(4);
  const fd = fs.openSync(`${file}-shm`, 'r');
  try {
    fs.readSync(fd, header, 0, 4, 16);
  } finally {
    fs.closeSync(fd);
  }
  return os.endianness() === 'LE' ? header.readUInt32LE(0) : header.readUInt32BE(0);
}

interface Run {
  rate: number;
  seconds: number;
  /** Events per second of the process's CPU time (this thread, the checkpointer, GC). */
  cpuRate: number;
  /** Events per second of this thread's CPU time: what the rate would be with no waiting at all. */
  threadCpuRate: number;
  /** WAL frames (pages written) per event, counted while a reader pinned the WAL. */
  framesPerEvent: number;
  latencies: Float64Array;
  counts: Record<string, number>;
  /** Mean time of one append, by event type (ms). */
  meanByType: Record<string, number>;
  megabytes: number;
}

/** How the events are committed: as the loop does, or each alone (as it did before group commit). */
type Commits = 'as the loop does' | 'every event alone';

function run(options: StoreOptions, commits: Commits = 'as the loop does'): Run {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-'));
  const store = openStore(dir, options);
  try {
    const newSession = (): string =>
      store.sessions.create({
        workspace: '/work/app',
        model: 'gpt-bench',
        api: 'responses',
        baseUrl: 'http://127.0.0.1:9',
        maxSteps: 10_000,
      }).id;

    let sessionId = newSession();
    let events = turns();
    let inSession = 0;
    const append = (event: SessionEvent): void => {
      if (commits === 'every event alone' || !RECORDED_BY_THE_LOOP.has(event.type)) store.events.append(sessionId, event);
      else store.events.appendGrouped(sessionId, event);
    };
    const next = (): SessionEvent => {
      if (inSession === EVENTS_PER_SESSION) {
        // A session's last results are committed before the next session starts.
        store.events.commit();
        sessionId = newSession();
        events = turns();
        inSession = 0;
      }
      inSession++;
      return events.next().value as SessionEvent;
    };

    for (let i = 0; i < WARM_UP; i++) append(next());

    const latencies = new Float64Array(TOTAL);
    const counts: Record<string, number> = {};
    const timeByType: Record<string, number> = {};
    const threadBefore = threadCpuSeconds();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < TOTAL; i++) {
      const event = next();
      const before = performance.now();
      append(event);
      const took = performance.now() - before;
      latencies[i] = took;
      counts[event.type] = (counts[event.type] ?? 0) + 1;
      timeByType[event.type] = (timeByType[event.type] ?? 0) + took;
    }
    store.events.commit();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const threadSeconds = threadCpuSeconds() - threadBefore;
    let bytes = 0;
    for (const name of fs.readdirSync(dir)) bytes += fs.statSync(path.join(dir, name)).size;
    // After the timed run (it leaves the WAL larger). A reader holds its snapshot, so no checkpoint
    // can restart the WAL meanwhile and its frame count only grows.
    const pin = openDatabase(store.file, { backgroundCheckpoints: false });
    pin.exec('BEGIN');
    pin.prepare('SELECT COUNT(*) FROM projects').get();
    const framesBefore = walFrames(store.file);
    for (let i = 0; i < FRAME_SAMPLE; i++) append(next());
    store.events.commit();
    const framesPerEvent = (walFrames(store.file) - framesBefore) / FRAME_SAMPLE;
    pin.exec('COMMIT');
    pin.close();

    expect(store.events.count(sessionId)).toBe(inSession);
    latencies.sort();
    return {
      rate: TOTAL / seconds,
      seconds,
      cpuRate: TOTAL / ((cpu.user + cpu.system) / 1e6),
      threadCpuRate: TOTAL / threadSeconds,
      framesPerEvent,
      latencies,
      counts,
      meanByType: Object.fromEntries(Object.entries(timeByType).map(([type, total]) => [type, total / (counts[type] ?? 1)])),
      megabytes: bytes / 1024 / 1024,
    };
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The machine's floor for the same durability: bare one-row transactions into a table shaped like
 * the log (one b-tree, ~700-byte rows), with no projections, through the same connection settings.
 * What the store does per event can only add to this.
 */
function bareFloor(): { rate: number; threadCpuRate: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-bench-floor-'));
  const db = openDatabase(path.join(dir, 'floor.db'), { migrations: [] });
  try {
    db.exec('CREATE TABLE log (key INTEGER PRIMARY KEY, payload TEXT NOT NULL) STRICT');
    const insert = db.prepare<[number, string]>('INSERT INTO log (key, payload) VALUES (?, ?)');
    const append = db.writer((key: number) => insert.run(key, OUTPUT.slice(0, 700)));
    for (let i = 1; i <= WARM_UP; i++) append(i);
    const threadBefore = threadCpuSeconds();
    const started = performance.now();
    for (let i = 1; i <= TOTAL; i++) append(WARM_UP + i);
    const seconds = (performance.now() - started) / 1000;
    return { rate: TOTAL / seconds, threadCpuRate: TOTAL / (threadCpuSeconds() - threadBefore) };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function describeRun(label: string, result: Run): string {
  const us = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`;
  const { latencies } = result;
  return [
    `${label}`,
    `  throughput:  ${Math.round(result.rate)} events/s (${result.seconds.toFixed(2)} s)`,
    `  CPU:         ${Math.round(result.threadCpuRate)} events per CPU second of the appending thread, ${Math.round(result.cpuRate)} of the whole process`,
    `  pages:       ${result.framesPerEvent.toFixed(2)} WAL frames written per event`,
    `  latency:     median ${us(nearestRank(latencies, 0.5))}, p95 ${us(nearestRank(latencies, 0.95))}, p99 ${us(nearestRank(latencies, 0.99))}, max ${us(latencies[latencies.length - 1] ?? 0)}`,
    `  by type:     ${Object.entries(result.meanByType)
      .map(([type, ms]) => `${type} ${us(ms)}`)
      .join(', ')} (mean)`,
    `  on disk:     ${result.megabytes.toFixed(1)} MB (database + WAL)`,
  ].join('\n');
}

describe('event append', () => {
  it(`sustains >= ${TARGET_PER_SECOND} events/s, committed as the loop commits them`, () => {
    const load = os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
    const inOrder = Array.from({ length: ROUNDS }, () => run({}));
    const rounds = [...inOrder].sort((a, b) => a.rate - b.rate);
    const loop = rounds[Math.floor(ROUNDS / 2)] as Run;
    // For comparison: every event its own transaction, and SQLite checkpointing inside the commit
    // that fills the WAL, as it does by default.
    const alone = run({}, 'every event alone');
    const inline = run({ backgroundCheckpoints: false });
    const floor = bareFloor();
    const met = loop.rate >= TARGET_PER_SECOND;
    console.log(
      [
        `event append: WAL, synchronous=NORMAL, each event with its projections; results commit with the next event acted on`,
        `  ${ROUNDS} rounds of ${TOTAL} events after ${WARM_UP} warm-up, ${EVENTS_PER_SESSION} per session; mix ${JSON.stringify(loop.counts)}`,
        `  machine: ${os.cpus().length} cores, load average ${load} at start`,
        `  rounds:      ${inOrder.map((round) => Math.round(round.rate)).join(', ')} events/s, in the order they ran`,
        describeRun('the median round, as the loop runs it (grouped commits, checkpoints on the worker thread):', loop),
        describeRun('every event its own transaction, for comparison:', alone),
        describeRun('checkpoints inline (backgroundCheckpoints: false), for comparison:', inline),
        `this machine's floor, a bare one-row transaction per append into one b-tree, same settings:`,
        `  throughput:  ${Math.round(floor.rate)} transactions/s, ${Math.round(floor.threadCpuRate)} per CPU second of the thread`,
        `target >= ${TARGET_PER_SECOND} events/s: ${met ? 'MET' : 'NOT MET'} (median round ${Math.round(loop.rate)} events/s)`,
      ].join('\n'),
    );
  }, 600_000);
});

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { LAST_ANSWER_MARK, writeLongSession, type LongSession } from './longSession';
import { longAnswer } from './longAnswer';
import { profileFolder, startProfiling } from './cpuProfile';
import {
  armDiffProbe,
  armFrameProbe,
  armOpenProbe,
  conversationSize,
  diffResult,
  diffShows,
  frameLog,
  openResult,
  probeDone,
  socketRequests,
  watchSocket,
  type DiffTiming,
  type FrameLog,
  type OpenTiming,
} from './pageProbes';
import { CHROMIUM, launchBenchBrowser } from './benchBrowser';
import { missingBuild, serveTether, type ServedTether } from './servedTether';
import { nearestRank } from '../support/sampleStats';
import {
  BIG_FILE,
  BIG_FILE_LINES,
  bigFileAfter,
  bigFileAgain,
  bigFileBefore,
  FIRST_CHANGE_MARK,
  NEAR_CHANGE_MARK,
  PRICE_FILE,
  PRICE_FIXED,
  SECOND_CHANGE_MARK,
} from './workspaceFiles';

/**
 * The renderer's speed targets (issue 4), measured in Debian's headless Chromium against the built
 * `tether serve` with the scripted model:
 *
 * - opening a session of 5,000 events, and one of 50,000 (issue 18): first paint under 1 s. From the
 *   click on the session in the sidebar to the first frame drawn with the session's last message in
 *   view (the page reloaded before each run, so nothing of the session is held); the page's JS heap
 *   with the session open is printed, since a session opens from a snapshot of bounded size;
 * - streaming 200 tokens/s into the conversation: frame time p95 under 50 ms. The gaps between
 *   consecutive animation frames while the streamed message is on screen;
 * - opening the diff of a 10,000-line file: under 500 ms from the click on the file to the diff editor
 *   showing it (both sides drawn); also when the changes are marked (Monaco diffs in a worker); on a
 *   freshly loaded page (Monaco loads first), the changes marked under 800 ms.
 *
 * Figures, not assertions: each says whether its target is met. The machine's load is printed, since
 * two cores shared with other work move these numbers. Times are split where the page talks to the
 * host (pageProbes.js watches the WebSocket), so the host's part and the page's part show apart.
 *
 * `npm run bench:renderer` builds first. TETHER_BENCH_OUT=<folder in the repo> serves another build
 * (an unminified one, to profile); TETHER_BENCH_PROFILE=<folder> adds a profiled run of each
 * scenario and prints where its main-thread time went (cpuProfile.ts); TETHER_CHROMIUM picks the browser.
 */

const VIEWPORT = { width: 1440, height: 900 };

const SESSION_EVENTS = 5_000;
const OPEN_RUNS = 7;
const LONG_SESSION_EVENTS = 50_000;
const LONG_OPEN_RUNS = 5;
const OPEN_TARGET_MS = 1_000;

const TOKENS_PER_SECOND = 200;
const STREAM_WORDS = 1_600;
const STREAM_RUNS = 3;
const HEADROOM_TOKENS_PER_SECOND = 500;
const FRAME_P95_TARGET_MS = 50;

const DIFF_RUNS = 9;
const DIFF_COLD_RUNS = 5;
const DIFF_TARGET_MS = 500;
/** On a freshly loaded page (Monaco and its diff worker load first), counted to the changes marked. */
const DIFF_FRESH_TARGET_MS = 800;
const DIFF_LINK_RUNS = 5;
/** Line 4 of the big file, unchanged, just above the line the link runs edit: in view once their diff shows. */
const LINK_CONTEXT_MARK = 'Stock of item group 0 in one warehouse.';
const linkMark = (run: number) => `/* marked by run ${run} */`;

/** Run `run`'s edit of line 5: a comment added the first time, then renumbered, so each session has one change of its own. */
function linkEdit(run: number): { old_string: string; new_string: string } {
  const line = 'export function stockOfGroup0(levels';
  return { old_string: run === 0 ? line : `${line} ${linkMark(run - 1)}`, new_string: `${line} ${linkMark(run)}` };
}

const skip = missingBuild();
let browser: Browser | undefined;

beforeAll(async () => {
  if (skip) return;
  browser = await launchBenchBrowser();
  console.log(
    `Chromium ${browser.version()} (headless, ${CHROMIUM}); load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
});

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(skip !== null)('renderer', () => {
  it('opens a session of 5,000 events', async () => {
    await openLongSession(SESSION_EVENTS, OPEN_RUNS);
  });

  it('opens a session of 50,000 events', async () => {
    await openLongSession(LONG_SESSION_EVENTS, LONG_OPEN_RUNS);
  });

  it('streams 200 tokens/s into the conversation', async () => {
    const answer = longAnswer(STREAM_WORDS);
    const words = answer.split(/\s+/).filter(Boolean).length;
    const app = await serveTether();
    const page = await newPage();
    try {
      await page.goto(app.url);
      // One delta per word; a pause of 5 ms between them is 200 a second.
      const logs = await streamRuns(page, app, answer, 1000 / TOKENS_PER_SECOND, STREAM_RUNS);
      const rates = logs.map((log) => words / (streamedFor(log) / 1000));
      // Headroom: the scripted model's pauses are timers, which a busy machine stretches; this run asks for more.
      const fast = await streamRuns(page, app, answer, 1000 / HEADROOM_TOKENS_PER_SECOND, 1);
      const fastGaps = frameGaps(fast);
      if (profileFolder) {
        app.model.push({ text: answer, chunkDelayMs: 1000 / TOKENS_PER_SECOND });
        await page.evaluate(armFrameProbe);
        const profiling = await startProfiling(page);
        await startTask(page, 'Explain the changes (profiled)');
        await page.waitForFunction(probeDone, 'frames' as const, { timeout: 120_000 });
        await profiling.stop('streaming');
      }
      const gaps = frameGaps(logs);
      const longTasks = logs.flatMap((log) => log.longTasks);
      const p95 = percentile(gaps, 95);
      report(
        `Stream a ${words.toLocaleString('en-US')}-word markdown answer at ${TOKENS_PER_SECOND} tokens/s (one word a token), ${STREAM_RUNS} runs`,
        [
          `delivered: ${summary(rates, ' words/s')} while the streamed message was on screen (${logs.map((log) => (streamedFor(log) / 1000).toFixed(1)).join(', ')} s)`,
          `frame time over ${gaps.length.toLocaleString('en-US')} frames: median ${median(gaps).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${percentile(gaps, 99).toFixed(1)} ms, max ${Math.max(...gaps).toFixed(1)} ms`,
          `frames over 50 ms: ${gaps.filter((gap) => gap > 50).length}; tasks over 50 ms: ${longTasks.length} (longest ${Math.max(0, ...longTasks).toFixed(0)} ms)`,
          `target: frame time p95 < ${FRAME_P95_TARGET_MS} ms: ${verdict(p95 < FRAME_P95_TARGET_MS)}`,
          `headroom, 1 run asking for ${HEADROOM_TOKENS_PER_SECOND} tokens/s: delivered ${(words / (streamedFor(fast[0]!) / 1000)).toFixed(0)} words/s, frame time p95 ${percentile(fastGaps, 95).toFixed(1)} ms, max ${Math.max(...fastGaps).toFixed(1)} ms`,
        ],
      );
    } finally {
      await page.close();
      await app.close();
    }
  });

  it('opens the diff of a 10,000-line file', async () => {
    const before = bigFileBefore();
    const after = bigFileAfter(before);
    const app = await serveTether({
      prepare: ({ workspace }) => {
        mkdirSync(path.join(workspace, path.dirname(BIG_FILE)), { recursive: true });
        writeFileSync(path.join(workspace, BIG_FILE), before);
      },
    });
    const page = await newPage();
    await page.context().addInitScript(watchSocket);
    try {
      // The agent changes both files (the scripted model's turn edits them as a tool would), then reads one.
      // The agent changes both files with a command the person allows: the diff shows only a session's own steps.
      staged(app.workspace, { [PRICE_FILE]: PRICE_FIXED, [BIG_FILE]: after });
      app.model.push(
        { toolCalls: [{ name: 'run_command', arguments: { command: copyStaged([PRICE_FILE, BIG_FILE]) } }] },
        { text: 'Fixed the discount and reserved stock before shipping.' },
      );
      await page.goto(app.url);
      await startTask(page, 'Fix the discount and reserve stock before shipping');
      await allowOnce(page);
      await sessionDone(page);
      const bigItem = `[data-testid="diff-file"][data-path="${BIG_FILE}"]`;
      const smallItem = `[data-testid="diff-file"][data-path="${PRICE_FILE}"]`;
      await page.locator(bigItem).waitFor();
      await showsPrice(page);

      const warm: DiffTiming[] = [];
      const host: number[] = [];
      const inPage: number[] = [];
      const beforeRequest: number[] = [];
      const warmCpu: number[] = [];
      for (let run = 0; run < DIFF_RUNS; run++) {
        await page.evaluate(armDiffProbe, { clickSelector: bigItem, mark: NEAR_CHANGE_MARK, changeMark: FIRST_CHANGE_MARK });
        const cpuBefore = await mainThreadCpu(page);
        await page.locator(`${bigItem} button`).click();
        await page.waitForFunction(probeDone, 'diff' as const, { timeout: 60_000 });
        warmCpu.push((await mainThreadCpu(page)) - cpuBefore);
        const timing = await page.evaluate(diffResult);
        warm.push(timing);
        const answer = await lastAnswer(page, 'diff:file');
        if (answer) {
          beforeRequest.push(answer.requestedAt - timing.clickAt);
          host.push(answer.answeredAt - answer.requestedAt);
          inPage.push(timing.contentAt - answer.answeredAt);
        }
        await page.locator(`${smallItem} button`).click();
        await showsPrice(page);
      }

      if (profileFolder) {
        await page.evaluate(armDiffProbe, { clickSelector: bigItem, mark: NEAR_CHANGE_MARK, changeMark: FIRST_CHANGE_MARK });
        const profiling = await startProfiling(page);
        await page.locator(`${bigItem} button`).click();
        await page.waitForFunction(probeDone, 'diff' as const, { timeout: 60_000 });
        await profiling.stop('diff-open');
      }

      // A second session whose one changed file is the big one: opening it loads Monaco for the first time in the page.
      staged(app.workspace, { [BIG_FILE]: bigFileAgain(after) });
      app.model.push(
        { toolCalls: [{ name: 'run_command', arguments: { command: copyStaged([BIG_FILE]) } }] },
        { text: 'Returns count as stock now.' },
      );
      await startTask(page, 'Count returns as stock');
      await allowOnce(page);
      await sessionDone(page);
      const second = await page.locator('[data-testid="session-view"]').getAttribute('data-session-id');
      const secondItem = `[data-testid="session-item"][data-session-id="${second}"]`;
      const cold: DiffTiming[] = [];
      const coldSplit: (DiffSplit | null)[] = [];
      const coldCpu: number[] = [];
      for (let run = 0; run < DIFF_COLD_RUNS; run++) {
        await reload(page, app.url);
        await page.locator(secondItem).waitFor();
        await page.evaluate(armDiffProbe, { clickSelector: secondItem, mark: NEAR_CHANGE_MARK, changeMark: SECOND_CHANGE_MARK });
        const cpuBefore = await mainThreadCpu(page);
        await page.locator(`${secondItem} .session-select`).click();
        await page.waitForFunction(probeDone, 'diff' as const, { timeout: 60_000 });
        coldCpu.push((await mainThreadCpu(page)) - cpuBefore);
        cold.push(await page.evaluate(diffResult));
        coldSplit.push(await splitSince(page, cold.at(-1)!));
      }
      if (profileFolder) {
        await reload(page, app.url);
        await page.locator(secondItem).waitFor();
        await page.evaluate(armDiffProbe, { clickSelector: secondItem, mark: NEAR_CHANGE_MARK, changeMark: SECOND_CHANGE_MARK });
        const profiling = await startProfiling(page);
        await page.locator(`${secondItem} .session-select`).click();
        await page.waitForFunction(probeDone, 'diff' as const, { timeout: 60_000 });
        await profiling.stop('diff-fresh-page');
      }

      // Opened from a link on a freshly loaded page: a request to change the file waits (what the
      // page may load ahead, it loads meanwhile), the person allows it, then clicks the path on its
      // tool card with the review column folded. Each run is a new session editing line 5 again.
      const column = page.getByTestId('review-column');
      if (await column.isVisible()) await page.getByTestId('review-toggle').click();
      await column.waitFor({ state: 'detached' });
      const fromLink: DiffTiming[] = [];
      const linkSplit: (DiffSplit | null)[] = [];
      const linkCpu: number[] = [];
      // With TETHER_BENCH_PROFILE, one more run, profiled and left out of the figures.
      for (let run = 0; run < DIFF_LINK_RUNS + (profileFolder ? 1 : 0); run++) {
        await reload(page, app.url);
        await page.locator(secondItem).waitFor();
        app.model.push(
          { toolCalls: [{ name: 'edit_file', arguments: { path: BIG_FILE, ...linkEdit(run) } }] },
          { text: `Marked the group (${run}).` },
        );
        await startTask(page, `Mark group 0 (${run})`);
        await allowOnce(page);
        await sessionDone(page);
        const link = '[data-testid="tool-card"] [data-testid="file-link"]';
        await page.evaluate(armDiffProbe, { clickSelector: link, mark: LINK_CONTEXT_MARK, changeMark: linkMark(run) });
        if (run === DIFF_LINK_RUNS) {
          const profiling = await startProfiling(page);
          await page.locator(link).last().click();
          await page.waitForFunction(probeDone, 'diff' as const, { timeout: 60_000 });
          await profiling.stop('diff-from-link');
          break;
        }
        const cpuBefore = await mainThreadCpu(page);
        await page.locator(link).last().click();
        await page.waitForFunction(probeDone, 'diff' as const, { timeout: 60_000 });
        linkCpu.push((await mainThreadCpu(page)) - cpuBefore);
        fromLink.push(await page.evaluate(diffResult));
        linkSplit.push(await splitSince(page, fromLink.at(-1)!));
      }

      const lines = readFileSync(path.join(app.workspace, BIG_FILE), 'utf8').split('\n').length - 1;
      const content = warm.map((t) => t.contentAt - t.clickAt);
      const changes = warm.map((t) => t.changesAt - t.clickAt);
      const coldContent = cold.map((t) => t.contentAt - t.clickAt);
      const coldChanges = cold.map((t) => t.changesAt - t.clickAt);
      report(
        `Open the diff of a ${BIG_FILE_LINES.toLocaleString('en-US')}-line file (${lines.toLocaleString('en-US')} lines after the edit, ${(after.length / 1024).toFixed(0)} KB, TypeScript)`,
        [
          `click on the file (editor already open on another file), ${DIFF_RUNS} runs:`,
          `  -> both sides drawn:   ${summary(content)}`,
          `  -> changes marked:     ${summary(changes)}`,
          `  of which: click -> request sent: ${summary(beforeRequest)}`,
          `            asking the host for the file's two versions until they arrived: ${summary(host)}`,
          `            their arrival -> both sides drawn: ${summary(inPage)}`,
          `  longest task: ${summary(warm.map((t) => Math.max(0, ...t.longTasks)))}`,
          `  the page's main thread on the CPU, the click -> done: ${summary(warmCpu)}`,
          `click on a session whose only change is that file (page reloaded: Monaco loads), ${DIFF_COLD_RUNS} runs:`,
          `  -> both sides drawn:   ${summary(coldContent)}`,
          `  -> changes marked:     ${summary(coldChanges)}`,
          ...splitLines(coldSplit),
          `  the page's main thread on the CPU, the click -> done: ${summary(coldCpu)}`,
          `click on the path on an edit's tool card (page reloaded, the request allowed, the column folded), ${DIFF_LINK_RUNS} runs:`,
          `  -> both sides drawn:   ${summary(fromLink.map((t) => t.contentAt - t.clickAt))}`,
          `  -> changes marked:     ${summary(fromLink.map((t) => t.changesAt - t.clickAt))}`,
          ...splitLines(linkSplit),
          `  the page's main thread on the CPU, the click -> done: ${summary(linkCpu)}`,
          `target: < ${DIFF_TARGET_MS} ms from the click on the file to the editor showing it (median): ${verdict(median(content) < DIFF_TARGET_MS)}; p95 ${verdict(percentile(content, 95) < DIFF_TARGET_MS)}`,
          `        the same counted to the changes marked (median): ${verdict(median(changes) < DIFF_TARGET_MS)}; on a freshly loaded page (median): ${verdict(median(coldContent) < DIFF_TARGET_MS)}`,
          `target: on a freshly loaded page, changes marked < ${DIFF_FRESH_TARGET_MS} ms (median): ${verdict(median(coldChanges) < DIFF_FRESH_TARGET_MS)}; p95 ${verdict(percentile(coldChanges, 95) < DIFF_FRESH_TARGET_MS)}`,
          `target: from a link on a freshly loaded page, changes marked < ${DIFF_TARGET_MS} ms (median): ${verdict(median(fromLink.map((t) => t.changesAt - t.clickAt)) < DIFF_TARGET_MS)}`,
        ],
      );
    } finally {
      await page.close();
      await app.close();
    }
  });
});

/**
 * Opens the long session of `minEvents` events `runs` times, the page reloaded before each: from
 * the click in the sidebar to the first frame with its last message in view, split at the answer to
 * session:open (the snapshot); then the page's JS heap with the session open, after a collection.
 */
async function openLongSession(minEvents: number, runs: number): Promise<void> {
  let session: LongSession | undefined;
  const app = await serveTether({
    prepare: ({ dataDir, workspace, baseUrl }) => {
      session = writeLongSession({ dataDir, workspace, baseUrl, minEvents });
    },
  });
  const page = await newPage();
  await page.context().addInitScript(watchSocket);
  try {
    const { sessionId, events, conversationItems } = session!;
    const item = `[data-testid="session-item"][data-session-id="${sessionId}"]`;
    const timings: OpenTiming[] = [];
    const host: number[] = [];
    const inPage: number[] = [];
    let answerChars = 0;
    for (let run = 0; run < runs; run++) {
      await reload(page, app.url);
      await page.locator(item).waitFor();
      await page.evaluate(armOpenProbe, { clickSelector: item, mark: LAST_ANSWER_MARK });
      await page.locator(`${item} .session-select`).click();
      await page.waitForFunction(probeDone, 'open' as const, { timeout: 60_000 });
      const timing = await page.evaluate(openResult);
      timings.push(timing);
      const answer = await lastAnswer(page, 'session:open');
      if (answer) {
        host.push(answer.answeredAt - answer.requestedAt);
        inPage.push(timing.paintedAt - answer.answeredAt);
        answerChars = answer.chars;
      }
    }
    const heap = await jsHeap(page);
    const largestFrame = Math.max(0, ...(await page.evaluate(socketRequests)).map((request) => request.answerChars ?? 0));
    if (profileFolder) {
      await reload(page, app.url);
      await page.locator(item).waitFor();
      await page.evaluate(armOpenProbe, { clickSelector: item, mark: LAST_ANSWER_MARK });
      const profiling = await startProfiling(page);
      await page.locator(`${item} .session-select`).click();
      await page.waitForFunction(probeDone, 'open' as const, { timeout: 60_000 });
      await profiling.stop(`open-session-${minEvents}`);
    }
    const dom = await page.evaluate(conversationSize);
    const painted = timings.map((t) => t.paintedAt - t.clickAt);
    const frame = timings.map((t) => t.frameAt - t.clickAt);
    const longest = timings.map((t) => Math.max(0, ...t.longTasks));
    const blocked = timings.map((t) => t.longTasks.reduce((sum, d) => sum + d, 0));
    report(
      `Open a session of ${events.toLocaleString('en-US')} events (${conversationItems.toLocaleString('en-US')} conversation items, ${dom.cards.toLocaleString('en-US')} tool cards, ${dom.nodes.toLocaleString('en-US')} DOM nodes in the conversation), ${runs} runs, page reloaded before each`,
      [
        `click -> first frame drawn with the last message in view: ${summary(painted)}`,
        `click -> last message laid out (before that frame paints): ${summary(frame)}`,
        `of which: asking the host for the snapshot until its answer (${(answerChars / 1e6).toFixed(2)} MB) arrived: ${summary(host)}`,
        `          the answer's arrival -> painted (parse, fold, draw):          ${summary(inPage)}`,
        `main thread in tasks over 50 ms: ${summary(blocked)}; longest task ${summary(longest)}`,
        `page's JS heap with the session open (after a collection): ${(heap / 1e6).toFixed(1)} MB; largest answer ${(largestFrame / 1e6).toFixed(2)} MB`,
        `runs (ms): ${painted.map((n) => n.toFixed(0)).join(', ')}`,
        `target: first paint < ${OPEN_TARGET_MS} ms (median): ${verdict(median(painted) < OPEN_TARGET_MS)}; p95 ${verdict(percentile(painted, 95) < OPEN_TARGET_MS)}`,
      ],
    );
  } finally {
    await page.close();
    await app.close();
  }
}

/** The page's used JS heap in bytes, after a garbage collection (DevTools protocol). */
async function jsHeap(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize;
  } finally {
    await cdp.detach();
  }
}

if (skip) {
  describe('renderer', () => {
    it('needs the built app', () => {
      console.log(`Renderer benchmarks skipped: ${skip}.`);
    });
  });
}

/** Where a diff opened on a fresh page spent its time: the requests after the click, and Monaco's editor module arriving. */
interface DiffSplit {
  /** The click -> the answer to the list of changed files (absent when the list was not asked again). */
  listAnswered?: number;
  /** The click -> the file's two versions asked for. */
  fileRequested: number;
  /** Asking for them until they arrived. */
  fileHost: number;
  /** Their arrival -> the changes marked. */
  fileToChanges: number;
}

async function splitSince(page: Page, timing: DiffTiming): Promise<DiffSplit | null> {
  const after = (await page.evaluate(socketRequests)).filter((sent) => sent.requestedAt >= timing.clickAt && sent.answeredAt !== undefined);
  const file = after.filter((sent) => sent.name === 'diff:file').at(-1);
  const list = after.find((sent) => sent.name === 'diff:files');
  // The file may have been asked for before the click (a refresh after the last step): nothing to split then.
  if (!file) return null;
  return {
    ...(list && { listAnswered: list.answeredAt! - timing.clickAt }),
    fileRequested: file.requestedAt - timing.clickAt,
    fileHost: file.answeredAt! - file.requestedAt,
    fileToChanges: timing.changesAt - file.answeredAt!,
  };
}

function splitLines(all: (DiffSplit | null)[]): string[] {
  const splits = all.filter((split) => split !== null);
  if (splits.length === 0) return [`  (no run asked for the file after the click)`];
  const listed = splits.flatMap((split) => (split.listAnswered === undefined ? [] : [split.listAnswered]));
  return [
    ...(listed.length > 0
      ? [`  of which: click -> list of changes answered: ${summary(listed)} (${listed.length} of ${all.length} runs asked)`]
      : []),
    `  of which: click -> file's two versions asked for: ${summary(splits.map((split) => split.fileRequested))} (${splits.length} of ${all.length} runs asked)`,
    `            asking the host for them until they arrived: ${summary(splits.map((split) => split.fileHost))}`,
    `            their arrival -> changes marked: ${summary(splits.map((split) => split.fileToChanges))}`,
  ];
}

/**
 * The CPU time the page's main thread has used, in ms (DevTools' ThreadTime). Unlike the times from
 * the click, it hardly moves with the machine's load: on two cores shared with other work it is the
 * figure to compare two builds by. Read around a run, it includes the probe's own frames (a little).
 * One DevTools session per page, enabled once: a new session starts the counters again.
 */
async function mainThreadCpu(page: Page): Promise<number> {
  let cdp = cpuSessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    cpuSessions.set(page, cdp);
  }
  const { metrics } = await cdp.send('Performance.getMetrics');
  const seconds = metrics.find((metric) => metric.name === 'ThreadTime')?.value;
  if (seconds === undefined) throw new Error('Chromium reported no ThreadTime: the CPU figure cannot be read.');
  return seconds * 1000;
}

const cpuSessions = new WeakMap<Page, CDPSession>();

/** The last answered request named `name` the page sent (see watchSocket). */
async function lastAnswer(page: Page, name: string): Promise<{ requestedAt: number; answeredAt: number; chars: number } | undefined> {
  const requests = await page.evaluate(socketRequests);
  const request = requests.filter((sent) => sent.name === name && sent.answeredAt !== undefined).at(-1);
  return request && { requestedAt: request.requestedAt, answeredAt: request.answeredAt!, chars: request.answerChars ?? 0 };
}

async function newPage(): Promise<Page> {
  const context = await browser!.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  page.on('close', () => void context.close());
  return page;
}

/**
 * A fresh document. (The app takes the token out of the address, so going to the same address again
 * would only change the hash of the page already loaded.)
 */
async function reload(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
}

/** Starts `runs` sessions, each answered with `answer` streamed a word every `delayMs`, logging the frames. */
async function streamRuns(page: Page, app: ServedTether, answer: string, delayMs: number, runs: number): Promise<FrameLog[]> {
  const logs: FrameLog[] = [];
  for (let run = 0; run < runs; run++) {
    app.model.push({ text: answer, chunkDelayMs: delayMs });
    await page.evaluate(armFrameProbe);
    await startTask(page, `Explain the changes (${logs.length + 1}, ${delayMs} ms a word)`);
    await page.waitForFunction(probeDone, 'frames' as const, { timeout: 120_000 });
    logs.push(await page.evaluate(frameLog));
    await page.getByTestId('message-assistant').last().waitFor();
  }
  return logs;
}

function streamedFor(log: FrameLog): number {
  return (log.endedAt ?? 0) - (log.startedAt ?? 0);
}

/** The time between consecutive frames while the streamed message was on screen. */
function frameGaps(logs: FrameLog[]): number[] {
  return logs.flatMap((log) => log.frames.slice(1).map((time, i) => time - log.frames[i]!));
}

/**
 * As a person starts a task: the project's "new session" button, the task box, Enter. A project
 * opened for the first time asks how it should work first: "Ask before every command", as
 * e2e/support/ui.ts answers it.
 */
async function startTask(page: Page, task: string): Promise<void> {
  await page.getByTestId('project-item').first().locator('.project-header').hover();
  await page.getByTestId('project-new-session').first().click();
  const box = page.getByTestId('task-box');
  const question = page.getByTestId('project-mode-question');
  await box.or(question).first().waitFor();
  if (await question.isVisible()) await question.getByTestId('project-mode-ask').click();
  await box.fill(task);
  await box.press('Enter');
  await page.getByTestId('session-view').waitFor();
}

/** Where the benchmark puts a file's next version for the agent's command to copy in: written by hand, so never one of a session's changes. */
const STAGED = '.bench-staged';

function staged(workspace: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(workspace, STAGED, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

function copyStaged(files: string[]): string {
  return files.map((file) => `cp ${STAGED}/${file} ${file}`).join(' && ');
}

/** Allows the request the session shows, once. */
async function allowOnce(page: Page): Promise<void> {
  await page.getByTestId('permission-allow-once').click({ timeout: 30_000 });
}

async function sessionDone(page: Page): Promise<void> {
  await page.locator('[data-testid="session-header-status"][data-status="done"]').waitFor({ timeout: 30_000 });
}

/**
 * Waits for the diff editor to show the small file's fix: by its path first, as the big file's lines
 * (stockOfGroup100…) may show the same text.
 */
async function showsPrice(page: Page): Promise<void> {
  await page.locator(`[data-testid="diff-viewer"][data-path="${PRICE_FILE}"]`).waitFor({ timeout: 30_000 });
  await showsInDiff(page, '100');
}

/** Waits for the diff editor to show `text` on its modified side. */
async function showsInDiff(page: Page, text: string): Promise<void> {
  await page.waitForFunction(diffShows, text, { timeout: 30_000 });
}

function report(title: string, lines: string[]): void {
  console.log([title, ...lines.map((line) => `  ${line}`)].join('\n'));
}

function summary(values: number[], unit = ' ms'): string {
  return `median ${median(values).toFixed(0)}${unit}, p95 ${percentile(values, 95).toFixed(0)}${unit}, min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}`;
}

function median(values: number[]): number {
  return percentile(values, 50);
}

function percentile(values: number[], p: number): number {
  return nearestRank(
    [...values].sort((a, b) => a - b),
    p / 100,
  );
}

function verdict(met: boolean): string {
  return met ? 'MET' : 'NOT MET';
}

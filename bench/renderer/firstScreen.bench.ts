import { loadavg } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { sampleStats } from '../support/sampleStats';
import { CHROMIUM, launchBenchBrowser } from './benchBrowser';
import { missingBuild, serveTether, type ServedTether } from './servedTether';

/**
 * The first screen (issue 20): `tether serve` prints its address (bench/start.bench.ts times that)
 * and the page, loaded from it in Debian's headless Chromium, paints within 500 ms; what the first
 * screen loads is only what it shows: Monaco loads with the first diff opened, xterm with the first
 * terminal opened. Each run is a fresh browser context (nothing cached), timed from the navigation's
 * start: its first contentful paint, and the sidebar drawn. The scripts and styles it fetched are
 * listed with their sizes (as served, and once decoded).
 *
 *   npm run build && npx vitest run --config bench/vitest.config.ts bench/renderer/firstScreen.bench.ts
 */

const RUNS = 9;
const PAINT_TARGET_MS = 500;
/** What must not load before it is asked for: Monaco (the diff viewer) and xterm (the terminal). */
const LATER = [/editor\.api/, /DiffViewer/, /terminalView/, /\.worker/];

/** The first contentful paint, once the frame that presents it is done, and the scripts and styles fetched. */
const IN_PAGE = `(async () => {
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  return {
    fcp: paint ? paint.startTime : NaN,
    resources: performance
      .getEntriesByType('resource')
      .filter((entry) => /[.](js|css)([?]|$)/.test(entry.name))
      .map((entry) => ({ name: entry.name, transfer: entry.transferSize, decoded: entry.decodedBodySize })),
  };
})()`;

const skip = missingBuild();
let browser: Browser | undefined;
let served: ServedTether | undefined;

beforeAll(async () => {
  if (skip) return;
  browser = await launchBenchBrowser();
  served = await serveTether();
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

interface Loaded {
  name: string;
  transferKb: number;
  decodedKb: number;
}

describe.skipIf(skip !== null)('first screen', () => {
  it('paints soon after the address, loading only what it shows', async () => {
    const paint: number[] = [];
    const sidebar: number[] = [];
    let loaded: Loaded[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser!.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(served!.url);
      await page.getByTestId('sidebar').waitFor();
      sidebar.push(performance.now() - started);
      // In the page (a string: this file is type-checked for node, not for the browser).
      const timing = (await page.evaluate(IN_PAGE)) as { fcp: number; resources: { name: string; transfer: number; decoded: number }[] };
      paint.push(timing.fcp);
      loaded = timing.resources.map((entry) => ({
        name: path.basename(new URL(entry.name).pathname),
        transferKb: entry.transfer / 1024,
        decodedKb: entry.decoded / 1024,
      }));
      await context.close();
    }
    const median = (values: number[]) => sampleStats(values).median;
    const p95 = (values: number[]) => sampleStats(values).p95;
    const early = loaded.filter((file) => LATER.some((pattern) => pattern.test(file.name)));
    const sum = (pick: (file: Loaded) => number) => loaded.reduce((total, file) => total + pick(file), 0).toFixed(0);
    console.log(
      [
        `Chromium ${browser!.version()} (headless, ${CHROMIUM}); load average ${loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}; ${RUNS} runs, a fresh browser context each`,
        `  navigation -> first contentful paint: median ${median(paint).toFixed(0)} ms, p95 ${p95(paint).toFixed(0)} ms (runs: ${paint.map((ms) => ms.toFixed(0)).join(', ')})`,
        `  navigation -> sidebar drawn (as Playwright sees it): median ${median(sidebar).toFixed(0)} ms, p95 ${p95(sidebar).toFixed(0)} ms`,
        `  target: first paint < ${PAINT_TARGET_MS} ms after the address (median): ${median(paint) < PAINT_TARGET_MS ? 'MET' : 'NOT MET'}`,
        `  scripts and styles of the first screen: ${loaded.length} files, ${sum((file) => file.transferKb)} KB as served, ${sum((file) => file.decodedKb)} KB decoded`,
        ...loaded.map(
          (file) =>
            `    ${file.name.padEnd(36)} ${file.transferKb.toFixed(0).padStart(6)} KB served ${file.decodedKb.toFixed(0).padStart(6)} KB decoded`,
        ),
        `  loaded before they were asked for (Monaco, xterm, workers): ${early.length === 0 ? 'none: MET' : `${early.map((file) => file.name).join(', ')}: NOT MET`}`,
      ].join('\n'),
    );
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** A CPU profile of the page's main thread, started now; `stop` saves it and prints where the time went. */
export interface Profiling {
  stop(name: string): Promise<void>;
}

/**
 * With TETHER_BENCH_PROFILE=<folder>, one extra run of each scenario is profiled: the .cpuprofile
 * is written there (open it in Chrome DevTools' Performance panel) and the functions with the most
 * self time are printed. Profile an unminified build to read the names.
 */
export const profileFolder = process.env.TETHER_BENCH_PROFILE ? path.resolve(process.env.TETHER_BENCH_PROFILE) : null;

export async function startProfiling(page: Page): Promise<Profiling> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop(name) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      await cdp.detach();
      if (!profileFolder) return;
      mkdirSync(profileFolder, { recursive: true });
      const file = path.join(profileFolder, `${name}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`CPU profile of ${name}: ${file}\n${topSelfTime(profile, 20)}`);
    },
  };
}

function topSelfTime(profile: Profile, count: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i] ?? 0) / 1000);
  const byFunction = new Map<string, number>();
  for (const [id, ms] of self) {
    const frame = byId.get(id)!.callFrame;
    const where = frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
  }
  const total = [...byFunction.values()].reduce((sum, ms) => sum + ms, 0);
  return [...byFunction.entries()]
    .filter(([key]) => key !== '(idle)' && key !== '(program)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n');
}

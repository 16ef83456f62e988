import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { z } from 'zod';
import { zeroUsage } from '../src/shared/conversation';
import { buildInstructions } from '../src/main/agent/context';
import { runLoop } from '../src/main/agent/loop';
import { SessionLog } from '../src/main/store/sessionLog';
import type { ModelEvent, ModelProvider } from '../src/main/model/provider';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { createPermissionEngine } from '../src/main/permissions/engine';
import { initShellParser } from '../src/main/shell/analyzeCommand';
import type { CommitGroup } from '../src/main/store/sqlite/database';
import { openStore, type Store } from '../src/main/store/store';
import type { Terminal } from '../src/main/terminal/terminal';
import { defineTool } from '../src/main/tools/defineTool';
import { ToolRegistry } from '../src/main/tools/registry';
import { openWorkspace } from '../src/main/workspace/paths';
import { createCommandSandbox } from '../src/main/sandbox/commandSandbox';
import { nearestRank } from './support/sampleStats';

// Loop overhead per step: everything but the model and the tool. The model answers at once from
// memory and the tool does nothing, so what is measured is the loop itself: building the request,
// the real permission engine, the ledger and log appends to SQLite (WAL; results commit with the next
// event acted on, store/sessionLog.ts), the fold.
// Target (issue 2): median under 5 ms.

const STEPS = 2000;

const noop = defineTool({
  name: 'noop',
  description: 'Does nothing.',
  risk: 'read',
  parameters: z.object({ n: z.number().int() }),
  summarize: ({ n }) => `noop ${n}`,
  execute: async ({ n }) => ({ title: `noop ${n}`, output: `did nothing for the ${n}th time` }),
});

function instantModel(steps: number): ModelProvider {
  let call = 0;
  return {
    api: 'responses',
    async *stream(): AsyncIterable<ModelEvent> {
      call += 1;
      const items =
        call <= steps
          ? [{ type: 'tool_call' as const, callId: `call_${call}`, name: 'noop', arguments: JSON.stringify({ n: call }) }]
          : [{ type: 'assistant' as const, text: 'done' }];
      yield { type: 'done', items, usage: { ...zeroUsage, inputTokens: 100, outputTokens: 10 }, stopReason: 'completed' };
    },
  };
}

const unusedTerminal: Terminal = {
  run: () => Promise.reject(new Error('the benchmark runs no commands')),
  dispose: () => {},
};

/**
 * Counts the commits the log's appends make: each `append` commits (with the events grouped before
 * it), and a group that commits without one (at the end of a turn of the event loop) is one more.
 */
function countCommits(store: Store): () => number {
  const { events } = store;
  const append = events.append.bind(events);
  const appendGrouped = events.appendGrouped.bind(events);
  let commits = 0;
  let open: CommitGroup | undefined;
  const committedAlone = (): void => {
    if (open?.state === 'committed') commits++;
    open = undefined;
  };
  events.append = (...args) => {
    if (open?.state === 'open') open = undefined;
    committedAlone();
    commits++;
    return append(...args);
  };
  events.appendGrouped = (...args) => {
    const result = appendGrouped(...args);
    if (open && open !== result.group) committedAlone();
    open = result.group;
    return result;
  };
  return () => {
    committedAlone();
    return commits;
  };
}

it(`loop overhead per step over ${STEPS} steps`, async () => {
  await initShellParser();
  const dir = mkdtempSync(path.join(tmpdir(), 'tether-bench-loop-'));
  try {
    const store = openStore(dir);
    const session = store.sessions.create({ workspace: dir, model: 'instant', api: 'responses', baseUrl: 'memory:', maxSteps: STEPS + 1 });
    const commits = countCommits(store);
    const stepStarts: number[] = [];
    const log = new SessionLog(store, session.id, (stored) => {
      if (stored.event.type === 'model.requested') stepStarts.push(performance.now());
    });
    log.append({ type: 'session.started', workspace: dir, model: 'instant', api: 'responses', baseUrl: 'memory:', maxSteps: STEPS + 1 });
    log.append({ type: 'user.messaged', text: 'run the no-op tool many times' });

    const started = performance.now();
    const outcome = await runLoop({
      log,
      tools: new ToolRegistry([noop]),
      provider: instantModel(STEPS),
      instructions: buildInstructions(dir),
      policy: createPermissionEngine({ workspaceRoot: dir, mode: 'ask', outsideContent: 'ask', rules: [], projectTrusted: false }),
      broker: new HeadlessBroker({ unleashed: false }),
      workspace: openWorkspace(dir),
      // The no-op tool never runs a command: the sandbox is only wired, as every host wires it.
      sandbox: createCommandSandbox({ workspace: dir, dataDir: dir }),
      terminal: unusedTerminal,
      signal: new AbortController().signal,
      onLive: () => {},
    });
    const total = performance.now() - started;
    if (outcome.status !== 'done') throw new Error(`the loop ended ${outcome.status}: ${outcome.reason}`);

    const perStep = stepStarts.slice(1).map((at, i) => at - stepStarts[i]!);
    const sorted = [...perStep].sort((a, b) => a - b);
    const pick = (q: number) => nearestRank(sorted, q);
    const firstHundred = [...perStep.slice(0, 100)].sort((a, b) => a - b)[50]!;
    console.log(
      [
        `loop overhead: ${perStep.length} steps in ${total.toFixed(0)} ms (${store.events.count(session.id)} events in ${commits()} commits)`,
        `  per step: median ${pick(0.5).toFixed(3)} ms, p95 ${pick(0.95).toFixed(3)} ms, max ${sorted.at(-1)!.toFixed(3)} ms`,
        `  median of the first 100 steps ${firstHundred.toFixed(3)} ms (the request grows with the conversation)`,
        `  target: median < 5 ms -> ${pick(0.5) < 5 ? 'MET' : 'NOT MET'}`,
      ].join('\n'),
    );
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { it } from 'vitest';
import type { SessionEvent } from '../src/shared/events';
import { initialSessionState, reduce, type SessionState } from '../src/shared/session';
import { compactionCut } from '../src/main/agent/compaction';
import { estimateNextRequest } from '../src/main/agent/contextBudget';
import { builtinTools } from '../src/main/tools/builtinTools';
import { ToolRegistry } from '../src/main/tools/registry';

/**
 * What the context budget costs the loop per turn, on a long session: 300 turns, each a read_file of
 * a ~2,000-token file (about 900,000 tokens of conversation, as a 1M-token gpt-4.1 session would reach).
 *  - the estimate with the provider's last usage as its base (every turn but the first and the one
 *    after a compaction): counts only what came after the last response;
 *  - the estimate without a base (the whole request counted with the tokenizer);
 *  - choosing where a compaction cuts (a quarter of a 1M window kept).
 * Target: the per-turn estimate under 5 ms median; the full count and the cut under 1 s.
 *
 *   npx vitest run --config bench/vitest.config.ts bench/contextBudget.bench.ts
 */

const TURNS = 300;
const RUNS = 15;
const usage = { inputTokens: 0, outputTokens: 30, cachedInputTokens: 0, reasoningTokens: 0 };

function longSession(): SessionState {
  const file = Array.from(
    { length: 160 },
    (_, line) => `export const value${line} = computeSomething(${line}, 'a string literal ${line}');`,
  ).join('\n');
  const events: SessionEvent[] = [
    { type: 'session.started', workspace: '/w', model: 'gpt-4.1', api: 'responses', baseUrl: 'http://x', maxSteps: 1000 },
    { type: 'user.messaged', text: 'Read every module and summarise the codebase.' },
  ];
  for (let turn = 0; turn < TURNS; turn++) {
    const callId = `call_${turn}`;
    events.push(
      {
        type: 'model.responded',
        usage: { ...usage, inputTokens: 3_000 + turn * 2_000 },
        items: [{ type: 'tool_call', callId, name: 'read_file', arguments: `{"path":"src/m${turn}.ts"}` }],
      },
      {
        type: 'tool.finished',
        callId,
        name: 'read_file',
        outcome: 'ok',
        title: 'read',
        output: file.replaceAll('value', `v${turn}_`),
        durationMs: 1,
      },
    );
  }
  return events.reduce(reduce, initialSessionState);
}

function time(run: () => unknown): { median: number; p95: number } {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(RUNS / 2)]!, p95: samples[Math.min(RUNS - 1, Math.ceil(RUNS * 0.95) - 1)]! };
}

it('budgets a 300-turn session', () => {
  const state = longSession();
  const request = {
    instructions: 'You are Tether.'.repeat(100),
    tools: new ToolRegistry(builtinTools().filter((tool) => tool.name !== 'fetch_url')).specs(),
  };
  const withBasis = time(() => estimateNextRequest(state, request));
  const unbased = { ...state, context: { ...state.context, basis: null } };
  let total = 0;
  const full = time(() => (total = estimateNextRequest(unbased, request)));
  let cut: number | undefined;
  const cutting = time(() => (cut = compactionCut(state, 250_000)));
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(`items: ${state.items.length}; whole request counted: ${total.toLocaleString('en-US')} tokens; cut at item ${cut}`);
  console.log(
    `estimate with the provider's base: median ${ms(withBasis.median)}, p95 ${ms(withBasis.p95)} (target < 5 ms: ${withBasis.median < 5 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `estimate without a base (whole request): median ${ms(full.median)}, p95 ${ms(full.p95)} (target < 1 s: ${full.median < 1000 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `compaction cut (250k kept): median ${ms(cutting.median)}, p95 ${ms(cutting.p95)} (target < 1 s: ${cutting.median < 1000 ? 'met' : 'NOT met'})`,
  );
});

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldEvents } from '../src/shared/session';
import { createCore, type Core } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { startScriptedModel, type ScriptedModel, type ScriptedRequestBody, type Turn } from './fixtures/scriptedModel';
import { removeTempDirs, tempDir } from './support/tempDirs';
import { eventsOf } from './support/events';

// Compaction through the real loop, store and openai SDK, against the scripted model over HTTP. The
// model's window is set in settings to 10,000 tokens, so compaction starts past 8,500.

const fastRetry = { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 2 };
const TASK = 'Find out what the modules in src/ do and write NOTES.md';
const PLAN = [
  { step: 'Read every module', status: 'in_progress' as const },
  { step: 'Write NOTES.md', status: 'pending' as const },
];

let core: Core;
let dataDir: string;
let server: ScriptedModel | undefined;

beforeEach(() => {
  dataDir = tempDir('tether-data-');
  writeFileSync(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({ models: { 'scripted-model': { contextWindow: 10_000, inputPrice: 2, cachedInputPrice: 0.5, outputPrice: 8 } } }),
  );
  core = createCore({ dataDir });
});

afterEach(async () => {
  core.close();
  await server?.close();
  server = undefined;
  removeTempDirs();
});

/** A workspace whose modules are about 1,300 tokens each, so a few reads fill a small window. */
function workspace(): string {
  const dir = tempDir('tether-ws-');
  mkdirSync(path.join(dir, 'src'));
  for (const name of ['a', 'b', 'c', 'd']) {
    const lines = Array.from({ length: 100 }, (_, i) => `export const ${name}${i} = 'value number ${i} of module ${name}';`);
    writeFileSync(path.join(dir, 'src', `${name}.js`), `${lines.join('\n')}\n`);
  }
  return dir;
}

const isSummaryRequest = (body: ScriptedRequestBody) =>
  typeof body.instructions === 'string' && body.instructions.startsWith('You summarise');

/** The texts of the user messages a Responses request carried, in order. */
function userTexts(body: ScriptedRequestBody): string[] {
  return (body.input ?? []).flatMap((item) => (item.role === 'user' && typeof item.content === 'string' ? [item.content] : []));
}

async function run(turns: Turn[], options: { message?: string; sessionId?: string } = {}) {
  server ??= await startScriptedModel();
  server.push(...turns);
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = options.sessionId ?? core.createSession({ workspace: workspace(), task: TASK, model, maxSteps: 20 });
  const outcome = await core.run(sessionId, {
    model,
    broker: new HeadlessBroker({ unleashed: true }),
    signal: new AbortController().signal,
    retry: fastRetry,
    ...(options.message ? { message: options.message, resume: true } : {}),
  });
  const events = core.store.events.list(sessionId);
  return { sessionId, outcome, events, model };
}

/** The turns of a session that reads four big modules while its reported usage climbs to 9,000 tokens. */
function growingTurns(): Turn[] {
  return [
    { toolCalls: [{ name: 'update_plan', arguments: { steps: PLAN } }], usage: { inputTokens: 1_200, outputTokens: 40 } },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.js' } }], usage: { inputTokens: 1_400, outputTokens: 30 } },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/b.js' } }], usage: { inputTokens: 3_500, outputTokens: 30 } },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/c.js' } }], usage: { inputTokens: 5_600, outputTokens: 30 } },
    {
      toolCalls: [{ name: 'read_file', arguments: { path: 'src/d.js' } }],
      usage: { inputTokens: 7_000, outputTokens: 30, cachedInputTokens: 5_000 },
    },
  ];
}

describe('automatic compaction', () => {
  it('summarises the older turns before the window fills, then the session goes on to its answer with the task and plan', async () => {
    const { outcome, events } = await run([
      ...growingTurns(),
      (body) => {
        expect(isSummaryRequest(body)).toBe(true);
        return { text: 'SUMMARY: read a.js, b.js and c.js; each exports 100 constants.', usage: { inputTokens: 6_000, outputTokens: 200 } };
      },
      { text: 'NOTES.md is not needed after all: every module only exports constants.', usage: { inputTokens: 3_000, outputTokens: 50 } },
    ]);

    expect(outcome).toEqual({ status: 'done', reason: 'The model answered.' });
    const requests = server!.requests;
    expect(requests).toHaveLength(7);
    const summaryRequest = requests[5]!;
    const before = requests[4]!;
    const after = requests[6]!;

    // The summarising request: a prompt of its own, no tools, the conversation as a transcript.
    expect(isSummaryRequest(summaryRequest)).toBe(true);
    expect(summaryRequest.tools).toBeUndefined();
    expect(userTexts(summaryRequest)[0]).toContain('[agent calls read_file]');

    // The next request is smaller, and carries the task, the summary with the plan, and the recent turns.
    // (`before` is the request before the last read; the one compacted away also held that read.)
    expect(JSON.stringify(after.input).length).toBeLessThan(JSON.stringify(before.input).length * 0.75);
    expect(after.instructions).toBe(before.instructions);
    const texts = userTexts(after);
    expect(texts[0]).toBe(TASK);
    expect(texts[1]).toContain('SUMMARY: read a.js, b.js and c.js');
    expect(texts[1]).toContain('[in_progress] Read every module');
    expect(texts[1]).toContain('- src/a.js');
    const outputs = (after.input ?? []).filter((item) => item.type === 'function_call_output').map((item) => String(item.output));
    expect(outputs.some((output) => output.includes('d99 '))).toBe(true); // the last read is kept word for word
    expect(outputs.some((output) => output.includes('a99 '))).toBe(false); // the first is summarised
    // Every call sent has its result, and every result its call.
    const calls = (after.input ?? []).filter((item) => item.type === 'function_call').map((item) => item.call_id);
    const results = (after.input ?? []).filter((item) => item.type === 'function_call_output').map((item) => item.call_id);
    expect(results).toEqual(calls);

    const [compacting] = eventsOf(events, 'context.compacting');
    const [compacted] = eventsOf(events, 'context.compacted');
    expect(compacting).toMatchObject({ trigger: 'auto' });
    expect(compacting!.tokensBefore).toBeGreaterThan(8_500);
    // The system prompt and the tool definitions stay; the rest shrank to the task, the summary and the last read.
    expect(compacted!.tokensAfter).toBeLessThan(compacted!.tokensBefore * 0.7);
    expect(compacted!.plan).toEqual(PLAN);
    expect(compacted!.files.map((file) => file.path)).toEqual(['src/a.js', 'src/b.js', 'src/c.js', 'src/d.js']);
    // The summary is paid for: 6,000 in at $2/M and 200 out at $8/M.
    expect(compacted!.costUsd).toBeCloseTo(0.0136, 10);

    // The log keeps everything; the fold marks where the compaction happened.
    const state = foldEvents(events);
    expect(state.items.filter((item) => item.type === 'tool_result')).toHaveLength(5);
    expect(state.compactions).toHaveLength(1);
    expect(state.compactions[0]!.atItem).toBeGreaterThan(state.compactions[0]!.keptFromItem);
    expect(state.context.compacting).toBe(false);

    // The meter's figures went out with each request: the window, and the estimate.
    const requested = eventsOf(events, 'model.requested');
    expect(requested.every((event) => event.contextWindow === 10_000)).toBe(true);
    expect(requested.at(-1)!.estimatedTokens).toBe(compacted!.tokensAfter);
  });

  it('goes on uncompacted, with a warning, when the summarising request fails', async () => {
    const { outcome, events } = await run([
      ...growingTurns(),
      { error: { status: 400 } },
      { text: 'Done without compacting.', usage: { inputTokens: 9_200, outputTokens: 10 } },
    ]);

    expect(outcome.status).toBe('done');
    const [failed] = eventsOf(events, 'context.compaction_failed');
    expect(failed!.reason).toMatch(/could not summarise the conversation .*goes on uncompacted/);
    expect(eventsOf(events, 'context.compacted')).toHaveLength(0);
    // The request after the failure carried the whole conversation.
    const last = server!.requests.at(-1)!;
    const outputs = (last.input ?? []).filter((item) => item.type === 'function_call_output').map((item) => String(item.output));
    expect(outputs.some((output) => output.includes('a99 '))).toBe(true);
    expect(foldEvents(events).context.warning).toBe(failed!.reason);
  });

  it('fails clearly, without sending it, when the next request cannot fit the window and compacting failed', async () => {
    const turns = growingTurns();
    turns[4] = { toolCalls: [{ name: 'read_file', arguments: { path: 'src/d.js' } }], usage: { inputTokens: 9_900, outputTokens: 30 } };
    const { outcome, events } = await run([...turns, { error: { status: 400 } }]);

    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(/needs about [\d,]+ tokens, more than the 10,000-token context window of scripted-model/);
    expect(outcome.reason).toMatch(/Compact now/);
    expect(server!.requests).toHaveLength(6); // the five turns and the failed summary; the over-long request never went out
    expect(eventsOf(events, 'context.compaction_failed')).toHaveLength(1);
  });
});

describe('compact now', () => {
  it('compacts a finished session on its own; the next message goes out from the summary', async () => {
    const first = await run([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.js' } }], usage: { inputTokens: 900, outputTokens: 20 } },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/b.js' } }], usage: { inputTokens: 2_500, outputTokens: 20 } },
      { text: 'Read two modules.', usage: { inputTokens: 6_100, outputTokens: 20 } },
    ]);
    expect(first.outcome.status).toBe('done');

    server!.push({ text: 'SUMMARY: two modules were read.', usage: { inputTokens: 4_000, outputTokens: 30 } });
    const result = await core.compact(first.sessionId, { model: first.model, signal: new AbortController().signal, retry: fastRetry });
    expect(result).toBe('compacted');
    const compacted = eventsOf(core.store.events.list(first.sessionId), 'context.compacted')[0]!;
    expect(compacted.tokensAfter).toBeLessThan(compacted.tokensBefore);
    expect(eventsOf(core.store.events.list(first.sessionId), 'context.compacting')[0]!.trigger).toBe('manual');

    const second = await run([{ text: 'Still two modules.' }], { sessionId: first.sessionId, message: 'How many modules did you read?' });
    expect(second.outcome.status).toBe('done');
    const texts = userTexts(server!.requests.at(-1)!);
    expect(texts[0]).toBe(TASK);
    expect(texts[1]).toContain('SUMMARY: two modules were read.');
    expect(texts.at(-1)).toBe('How many modules did you read?');
  });

  it('says there is nothing to compact when the conversation is only the task and one turn', async () => {
    const first = await run([{ text: 'Nothing to do.', usage: { inputTokens: 900, outputTokens: 20 } }]);
    const result = await core.compact(first.sessionId, { model: first.model, signal: new AbortController().signal });
    expect(result).toBe('failed');
    const events = core.store.events.list(first.sessionId);
    expect(eventsOf(events, 'context.compaction_failed')[0]!.reason).toMatch(/nothing older to summarise/);
    expect(eventsOf(events, 'context.compacting')).toHaveLength(0);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationItem } from '../src/shared/conversation';
import { createCore, type Core } from '../src/main/core';
import type { ModelApi } from '../src/main/model/provider';
import type { Turn } from './fixtures/scriptedModel';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { eventsOf } from './support/events';
import { closeScriptedModels, runScripted } from './support/scriptedRun';
import { allToolOutputs } from './support/toolResults';

// The real loop, tools and SQLite against the scripted model speaking Anthropic Messages over real
// HTTP through @anthropic-ai/sdk; and prompt caching as each API sees it across the turns of a session.

let core: Core;

beforeEach(() => {
  core = createCore({ dataDir: tempDir('tether-data-') });
});

afterEach(async () => {
  core.close();
  await closeScriptedModels();
  removeTempDirs();
});

function runTask(workspace: string, turns: Turn[], api: ModelApi = 'anthropic') {
  return runScripted(core, workspace, turns, { api, task: 'read the price code and explain it', maxSteps: 10 });
}

/** The request body up to its conversation: tools, then system, as the provider writes them. */
function stablePrefix(text: string): string {
  return text.slice(0, text.indexOf('"messages":'));
}

describe('the agent loop over Anthropic Messages', () => {
  it('thinks, calls a tool, gets its result, answers; the thinking block goes back unchanged', async () => {
    const repo = fixtureRepo('failing-test');
    const { outcome, events, server } = await runTask(repo, [
      {
        reasoning: 'I should read the code before explaining it.',
        text: 'Reading the code.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'src/price.js' } }],
      },
      { text: 'It applies a percentage discount to a price in cents.' },
    ]);
    expect(outcome).toEqual({ status: 'done', reason: 'The model answered.' });
    expect(eventsOf(events, 'session.started')[0]?.api).toBe('anthropic');
    expect(eventsOf(events, 'tool.finished').map((event) => `${event.name}:${event.outcome}`)).toEqual(['read_file:ok']);

    const responded = eventsOf(events, 'model.responded');
    expect(responded.map((event) => event.items.map((item) => item.type))).toEqual([
      ['reasoning', 'assistant', 'tool_call'],
      ['assistant'],
    ]);
    const thinking = responded[0]!.items[0] as Extract<ConversationItem, { type: 'reasoning' }>;
    expect(thinking).toMatchObject({ api: 'anthropic', summary: 'I should read the code before explaining it.' });

    // Request 2 carries the assistant turn as it came: thinking (signature and all), text, tool_use;
    // then the file's content as the tool_result.
    const [, second] = server.requests;
    const messages = second!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    const assistant = messages[1]!.content;
    expect(JSON.stringify(assistant[0])).toBe(JSON.stringify(thinking.replay));
    expect((assistant[0] as { signature: string }).signature).toMatch(/^EoQD/);
    expect(assistant.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    const call = responded[0]!.items[2] as Extract<ConversationItem, { type: 'tool_call' }>;
    expect(assistant[2]).toEqual({ type: 'tool_use', id: call.callId, name: 'read_file', input: { path: 'src/price.js' } });
    expect(messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: call.callId });
    expect(allToolOutputs(second!)[0]).toContain(readFileSync(path.join(repo, 'src/price.js'), 'utf8').split('\n')[0]);
    expect(second).toMatchObject({ model: 'scripted-model', max_tokens: 8192, stream: true });
  });

  it('retries an overloaded_error sent mid-stream, and the retried answer is the one kept', async () => {
    const repo = fixtureRepo('failing-test');
    const { outcome, events, server } = await runTask(repo, [
      { text: 'Half an ans', streamError: { code: 'overloaded_error', message: 'Overloaded' } },
      { text: 'The whole answer.' },
    ]);
    expect(outcome.status).toBe('done');
    const retrying = eventsOf(events, 'model.retrying');
    expect(retrying).toHaveLength(1);
    expect(retrying[0]?.reason).toMatch(/in the middle of the response.*Overloaded.*overloaded_error/);
    expect(eventsOf(events, 'model.responded').map((event) => event.items)).toEqual([[{ type: 'assistant', text: 'The whole answer.' }]]);
    expect(server.requests).toHaveLength(2);
  });
});

describe('prompt caching across the turns of one session', () => {
  const threeTurns = (cached: number[]): Turn[] => [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/price.js' } }], usage: { inputTokens: 3000, cachedInputTokens: cached[0] } },
    { toolCalls: [{ name: 'list_files', arguments: {} }], usage: { inputTokens: 3400, cachedInputTokens: cached[1] } },
    { text: 'Done.', usage: { inputTokens: 3800, cachedInputTokens: cached[2] } },
  ];

  it('Anthropic: tools and system are byte-identical in every request and marked for the cache; so is the last message', async () => {
    const { outcome, events, server } = await runTask(fixtureRepo('failing-test'), threeTurns([0, 2900, 3300]));
    expect(outcome.status).toBe('done');
    const bodies = server.received.filter((r) => r.path === '/v1/messages');
    expect(bodies).toHaveLength(3);
    const prefixes = bodies.map((r) => stablePrefix(r.text));
    expect(prefixes[0]).toMatch(/^\{"model":"scripted-model","max_tokens":\d+,"stream":true,"tools":\[/);
    expect(prefixes[1]).toBe(prefixes[0]);
    expect(prefixes[2]).toBe(prefixes[0]);
    for (const { body } of bodies) {
      const tools = body!.tools!;
      expect(tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(tools.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
      expect(body!.system).toEqual([{ type: 'text', text: expect.any(String), cache_control: { type: 'ephemeral' } }]);
      const last = (body!.messages!.at(-1)!.content as Array<Record<string, unknown>>).at(-1);
      expect(last?.cache_control).toEqual({ type: 'ephemeral' });
      expect(JSON.stringify(body).match(/"cache_control"/g)).toHaveLength(3);
    }
    // The conversation of each request starts with the whole conversation of the one before it.
    const conversations = bodies.map(({ body }) =>
      JSON.stringify(body!.messages, (key, value: unknown) => (key === 'cache_control' ? undefined : value)),
    );
    expect(conversations[1]!.startsWith(conversations[0]!.slice(0, -1))).toBe(true);
    expect(conversations[2]!.startsWith(conversations[1]!.slice(0, -1))).toBe(true);
    // Cache reads reach the log as cached input tokens, inside the input total.
    expect(eventsOf(events, 'model.responded').map((event) => [event.usage.inputTokens, event.usage.cachedInputTokens])).toEqual([
      [3000, 0],
      [3400, 2900],
      [3800, 3300],
    ]);
  });

  for (const api of ['responses', 'chat'] as const) {
    it(`${api}: every request carries prompt_cache_key = the session id, and cached tokens reach model.responded`, async () => {
      const { sessionId, outcome, events, server } = await runTask(fixtureRepo('failing-test'), threeTurns([0, 2048, 3072]), api);
      expect(outcome.status).toBe('done');
      expect(server.requests.map((body) => body.prompt_cache_key)).toEqual([sessionId, sessionId, sessionId]);
      expect(eventsOf(events, 'model.responded').map((event) => event.usage.cachedInputTokens)).toEqual([0, 2048, 3072]);
      // The stable prefix is the same bytes in every request here too.
      const stable = server.received
        .filter((r) => r.method === 'POST')
        .map((r) => JSON.stringify(api === 'responses' ? [r.body!.instructions, r.body!.tools] : [r.body!.messages![0], r.body!.tools]));
      expect(new Set(stable).size).toBe(1);
      // Each request's conversation extends the one before it: two tool-only responses stay two.
      const conversations = server.requests.map((body) => JSON.stringify(body.input ?? body.messages));
      expect(conversations[1]!.startsWith(conversations[0]!.slice(0, -1))).toBe(true);
      expect(conversations[2]!.startsWith(conversations[1]!.slice(0, -1))).toBe(true);
    });
  }
});

import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationItem, Usage } from '../src/shared/conversation';
import { createProvider } from '../src/main/model/createProvider';
import { checkToolSupport, listModels } from '../src/main/model/models';
import { ModelError, type ModelErrorKind, type ModelEvent } from '../src/main/model/provider';
import { streamWithRetries, type RetryingEvent } from '../src/main/model/retry';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { collect, config, request, usage, type Collected } from './fixtures/scriptedModel/collect';
import { bodyText, loadRecording, loadRecordings, replayTurn, type RecordedExchange } from './fixtures/scriptedModel/recordings';
import { expectShape } from './support/recordedShape';

/**
 * Anthropic Messages against real API traffic: every recording in
 * test/fixtures/recorded/anthropic is replayed byte for byte by the scripted server into
 * the real provider (the @anthropic-ai/sdk sends the request), and must come out as the same model
 * events the OpenAI recordings give. Then the scripted server's own Anthropic streams are held to
 * the recordings' shape, and go through the same provider.
 */

const recordings = loadRecordings(['anthropic']);

const servers: ScriptedModel[] = [];
async function serve(turns: Turn[], options: Parameters<typeof startScriptedModel>[0] = {}): Promise<ScriptedModel> {
  const server = await startScriptedModel({ ...options, turns });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function replay(exchange: RecordedExchange): Promise<Collected> {
  const server = await serve([replayTurn(exchange)]);
  return collect(server.baseUrl, 'anthropic');
}

/** The data payloads of a recorded body, parsed without the code under test. */
function recordedEvents(exchange: RecordedExchange): Array<Record<string, unknown>> {
  return bodyText(exchange)
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
}

/** Each thinking block of a recorded stream as the API wants it back: its text and signature joined. */
function recordedThinking(exchange: RecordedExchange): Array<{ type: string; thinking: string; signature: string }> {
  const blocks = new Map<number, { type: string; thinking: string; signature: string }>();
  for (const event of recordedEvents(exchange)) {
    const index = event.index as number;
    const block = event.content_block as Record<string, unknown> | undefined;
    if (event.type === 'content_block_start' && block?.type === 'thinking')
      blocks.set(index, { type: 'thinking', thinking: '', signature: '' });
    const delta = event.delta as Record<string, string> | undefined;
    const open = blocks.get(index);
    if (event.type === 'content_block_delta' && open && delta) {
      if (delta.type === 'thinking_delta') open.thinking += delta.thinking;
      if (delta.type === 'signature_delta') open.signature += delta.signature;
    }
  }
  return [...blocks.values()];
}

interface Expected {
  items?: Array<ConversationItem['type']>;
  text?: string | RegExp;
  calls?: Array<[name: string, callId: string, args: unknown]>;
  reasoning?: string | RegExp;
  usage?: Usage;
  stopReason?: string;
  error?: [kind: ModelErrorKind, message: RegExp];
}

const expectations: Record<string, Expected> = {
  'anthropic/llm-anthropic__thinking-tool-use-chain.vcr.yaml#0': {
    // Summarized thinking with a signature, then a tool_use whose only partial_json is "".
    items: ['reasoning', 'tool_call'],
    reasoning:
      'The user wants me to:\n1. Use the fixed_version tool\n2. Tell them the version\n3. Make a short joke about it\n\nLet me first call the fixed_version tool to see what version it returns.',
    calls: [['fixed_version', 'toolu_01825dXWLSoJwCst1qTsiWdb', {}]],
    usage: usage(598, 92, 0, 53),
    stopReason: 'tool_use',
  },
  'anthropic/llm-anthropic__thinking-tool-use-chain.vcr.yaml#1': {
    items: ['assistant'],
    text: /^The version is \*\*0\.32a0\*\*\.\n\nHere's a joke about it: .*plenty of room to grow!\)$/s,
    usage: usage(707, 89),
    stopReason: 'end_turn',
  },
  'anthropic/llm-anthropic__tool-use-chain.vcr.yaml#0': {
    items: ['tool_call'],
    calls: [['fixed_version', 'toolu_01UmKD1vMphVCN9vw8PEMk1q', {}]],
    usage: usage(563, 37),
    stopReason: 'tool_use',
  },
  'anthropic/llm-anthropic__tool-use-chain.vcr.yaml#1': {
    items: ['assistant'],
    text: 'The version is **0.32a0**.\n\nHere\'s a joke: I guess you could say this version is still in the "alpha" stages of being useful! 😄',
    usage: usage(617, 41),
  },
  'anthropic/mastra__sonnet46-stream-400-prefill-error-with-chunks.recording.json#0': {
    // Replayed in its original network reads.
    items: ['assistant'],
    text: 'The ALPHA team completed all 7 missions without a single failure.',
    usage: usage(39, 18),
    stopReason: 'end_turn',
  },
  'anthropic/mastra__sonnet46-stream-400-prefill-error-with-chunks.recording.json#1': {
    // A stream:true request refused with plain JSON, not SSE: final.
    error: [
      'bad_request',
      /^400 from .*: the request for model 'scripted-model' was refused: server said: This model does not support assistant message prefill\. The conversation must end with a user message\.$/,
    ],
  },
  'anthropic/mastra__sonnet46-stream-400-prefill-error-with-chunks.recording.json#2': {
    items: ['assistant'],
    text: 'The ALPHA squad trained for 7 grueling weeks before their mission began.',
    usage: usage(160, 20),
  },
  'anthropic/pydantic-ai__thinking-stream.vcr.yaml#0': {
    items: ['reasoning', 'assistant'],
    reasoning: /^This is a straightforward question about pedestrian safety\. .* help prevent accidents\.$/,
    text: /^Here are the basic steps for safely crossing the street:\n\n.*Always prioritize safety over speed when crossing streets\.$/s,
    usage: usage(43, 282),
    stopReason: 'end_turn',
  },
  'anthropic/pydantic-ai__tool-search-then-tool-use.vcr.yaml#0': {
    // server_tool_use and tool_search_tool_result are the server's own: skipped, not fatal. The
    // input count in message_delta (1591) is the final one, not message_start's (702).
    items: ['assistant', 'assistant', 'tool_call'],
    text: 'Let me search for a tool that can provide current exchange rate information.I found the right tool! Let me fetch the current USD to EUR exchange rate for you.',
    calls: [['get_exchange_rate', 'toolu_01EFn5wTNBYA8Reni8rbmnHT', { from_currency: 'USD', to_currency: 'EUR' }]],
    usage: usage(1591, 175),
    stopReason: 'tool_use',
  },
  'anthropic/pydantic-ai__tool-search-then-tool-use.vcr.yaml#1': {
    items: ['assistant'],
    text: /^The current exchange rate is \*\*1 USD = 0\.92 EUR\*\*\./,
    usage: usage(1007, 59),
  },
  'anthropic/vercel-ai__text-then-tool-use-no-args.chunks.jsonl#0': {
    // Data lines only (no `event:`), pings between blocks, a tool without arguments.
    items: ['assistant', 'tool_call'],
    text: "I'll update the issue list for you.",
    calls: [['updateIssueList', 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', {}]],
    usage: usage(565, 48),
    stopReason: 'tool_use',
  },
  'anthropic/vercel-ai__text-then-tool-use.chunks.jsonl#0': {
    items: ['assistant', 'tool_call'],
    text: "I'll invoke the JSON response tool.",
    calls: [['json', 'toolu_01KFbKqPYSuAKujiL6mTfzYA', { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] }]],
    usage: usage(849, 47),
  },
  'anthropic/vercel-ai__text.chunks.jsonl#0': {
    items: ['assistant'],
    text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    usage: usage(12, 30),
    stopReason: 'end_turn',
  },
  'anthropic/vercel-ai__thinking-then-text.chunks.jsonl#0': {
    items: ['reasoning', 'assistant'],
    reasoning: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
    text: '925 ÷ 5 = 185',
    usage: usage(69, 53),
  },
  'anthropic/vercel-ai__tool-use-weather.chunks.jsonl#0': {
    items: ['tool_call'],
    calls: [['weather', 'toolu_019Zvehfe1XQWweT1pm7okyt', { location: 'San Francisco' }]],
    usage: usage(843, 28),
  },
};

function assistantText(items: ConversationItem[]): string {
  return items.map((item) => (item.type === 'assistant' ? item.text : '')).join('');
}

function matches(actual: string, expected: string | RegExp): void {
  if (typeof expected === 'string') expect(actual).toBe(expected);
  else expect(actual).toMatch(expected);
}

describe('real Anthropic recordings replayed into the provider', () => {
  it('covers every recording with an expectation', () => {
    expect(recordings.map((exchange) => exchange.key).sort()).toEqual(Object.keys(expectations).sort());
    expect(recordings.every((exchange) => exchange.api === 'anthropic' && !exchange.handwritten)).toBe(true);
  });

  for (const exchange of recordings) {
    it(exchange.key, async () => {
      const expected = expectations[exchange.key]!;
      const result = await replay(exchange);
      if (expected.error) {
        expect(result.error, 'the request should have failed').toBeInstanceOf(ModelError);
        expect(result.error?.kind).toBe(expected.error[0]);
        expect(result.error?.message).toMatch(expected.error[1]);
        expect(result.done).toBeUndefined();
        return;
      }
      expect(result.error, result.error?.message).toBeUndefined();
      expect(result.events.filter((event) => event.type === 'done')).toHaveLength(1);
      expect(result.events.at(-1)?.type).toBe('done');
      if (expected.items) expect(result.items.map((item) => item.type)).toEqual(expected.items);
      if (expected.text !== undefined) {
        matches(result.text, expected.text);
        // What streamed is what was kept.
        expect(assistantText(result.items)).toBe(result.text);
      }
      if (expected.calls) {
        expect(result.toolCalls.map((call) => [call.name, call.callId, JSON.parse(call.arguments)])).toEqual(expected.calls);
      }
      if (expected.reasoning !== undefined) matches(result.reasoning, expected.reasoning);
      if (expected.usage) expect(result.usage).toEqual(expected.usage);
      if (expected.stopReason) expect(result.done?.stopReason).toBe(expected.stopReason);

      // Every thinking block comes back exactly as the API wants it passed back: text and signature.
      const reasoning = result.items.filter((item) => item.type === 'reasoning');
      const thinking = recordedThinking(exchange);
      expect(reasoning).toHaveLength(thinking.length);
      reasoning.forEach((item, i) => {
        expect(item.api).toBe('anthropic');
        expect(item.replay).toEqual(thinking[i]);
        expect(item.summary).toBe(thinking[i]!.thinking);
        expect(thinking[i]!.signature.length).toBeGreaterThan(100);
      });
    });
  }

  it('maps the recorded 400 invalid_request_error (with its headers) to bad_request', async () => {
    const [exchange] = loadRecording('errors/pydantic-ai__anthropic-400-invalid-request.vcr.yaml');
    expect(exchange?.api).toBe('anthropic');
    const result = await replay(exchange!);
    expect(result.error?.kind).toBe('bad_request');
    expect(result.error?.retryable).toBe(false);
    expect(result.error?.message).toMatch(/server said: This model does not support effort level 'xhigh'/);
  });

  it('treats a recorded stream cut before message_delta as a connection error, with no done', async () => {
    const [exchange] = loadRecording('anthropic/llm-anthropic__tool-use-chain.vcr.yaml').slice(1);
    const body = bodyText(exchange!);
    const server = await serve([{ raw: body.slice(0, body.indexOf('event: message_delta')) }]);
    const result = await collect(server.baseUrl, 'anthropic');
    expect(result.text).toMatch(/^The version is/);
    expect(result.done).toBeUndefined();
    expect(result.error?.kind).toBe('connection');
    expect(result.error?.message).toMatch(/ended before message_stop/);
  });
});

describe('requests the provider sends, checked against the recorded follow-up requests', () => {
  /** The messages without our cache marks, which the recorded clients did not send. */
  function withoutCacheMarks(value: unknown): unknown {
    return JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'cache_control' ? undefined : inner)));
  }

  for (const file of ['anthropic/llm-anthropic__thinking-tool-use-chain.vcr.yaml', 'anthropic/llm-anthropic__tool-use-chain.vcr.yaml']) {
    it(`${file}: the thinking block, the tool_use and the tool_result go back as the recorded client sent them`, async () => {
      const exchanges = loadRecording(file);
      const recorded = exchanges[1]!.request as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
      const question = String(recorded.messages[0]!.content[0]!.text);
      const server = await serve(exchanges.map(replayTurn));
      const first = await collect(server.baseUrl, 'anthropic', request([{ type: 'user', text: question }]));
      const call = first.toolCalls[0]!;
      const items: ConversationItem[] = [
        { type: 'user', text: question },
        ...first.items,
        { type: 'tool_result', callId: call.callId, output: '0.32a0', isError: false },
      ];
      const second = await collect(server.baseUrl, 'anthropic', request(items));
      expect(second.text).toMatch(/^The version is \*\*0\.32a0\*\*/);
      // Byte for byte: the signature the API gave is the one sent back.
      expect(JSON.stringify(withoutCacheMarks(server.requests[1]!.messages))).toBe(JSON.stringify(recorded.messages));
    });
  }
});

/** The parts of a Messages stream whose fields are compared: each event, and what it carries. */
function parts(events: Array<Record<string, unknown>>): Map<string, Array<Record<string, unknown>>> {
  const out = new Map<string, Array<Record<string, unknown>>>();
  const add = (label: string, value: unknown) => {
    if (typeof value === 'object' && value !== null) out.set(label, [...(out.get(label) ?? []), value as Record<string, unknown>]);
  };
  for (const event of events) {
    const type = String(event.type);
    add(type, event);
    const message = event.message as Record<string, unknown> | undefined;
    if (message) {
      add(`${type}.message`, message);
      add(`${type}.message.usage`, message.usage);
    }
    const block = event.content_block as Record<string, unknown> | undefined;
    if (block) add(`${type}.content_block(${String(block.type)})`, block);
    const delta = event.delta as Record<string, unknown> | undefined;
    if (delta) add(type === 'message_delta' ? 'message_delta.delta' : `${type}.delta(${String(delta.type)})`, delta);
    if (type === 'message_delta') add('message_delta.usage', event.usage);
  }
  return out;
}

describe('the scripted server speaks what the Anthropic recordings show', () => {
  const realStreams = recordings.filter((exchange) => exchange.status === 200);
  const real = parts(realStreams.flatMap(recordedEvents));

  async function generated(turn: Turn): Promise<string> {
    const server = await serve([turn]);
    const response = await fetch(`${server.baseUrl}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('request-id')).toMatch(/^req_011C/);
    return response.text();
  }

  const turns: Turn[] = [
    { text: 'Hello there, friend.' },
    { reasoning: 'Think it through.', text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
    {
      toolCalls: [
        { name: 'read_file', arguments: { path: 'a.txt' } },
        { name: 'list_files', arguments: {} },
      ],
      usage: { inputTokens: 900, cachedInputTokens: 600, cacheWriteInputTokens: 200 },
    },
  ];

  it('event lines, event order, and the fields of events, messages, blocks, deltas and usage', async () => {
    // The cassettes keep `event:` lines, and each names its data's type.
    for (const exchange of realStreams.filter((e) => e.file.endsWith('.vcr.yaml'))) {
      for (const block of bodyText(exchange)
        .split('\n\n')
        .filter((b) => b.trim() !== '')) {
        const [eventLine, dataLine] = block.trim().split('\n');
        expect(eventLine).toBe(`event: ${String((JSON.parse(dataLine!.slice(5)) as { type: string }).type)}`);
      }
    }
    for (const turn of turns) {
      const text = await generated(turn);
      const blocks = text.split('\n\n').filter((block) => block !== '');
      const events = blocks.map((block) => {
        const [eventLine, dataLine, ...rest] = block.split('\n');
        expect(rest).toEqual([]);
        const event = JSON.parse(dataLine!.slice('data: '.length)) as Record<string, unknown>;
        expect(eventLine).toBe(`event: ${String(event.type)}`);
        return event;
      });
      expect(events[0]?.type).toBe('message_start');
      expect(events[2]?.type).toBe('ping');
      expect(events.slice(-2).map((event) => event.type)).toEqual(['message_delta', 'message_stop']);
      for (const [label, objects] of parts(events)) {
        expect(real.has(label), `${label} never appears in a real recording`).toBe(true);
        expectShape(label, objects, real.get(label)!);
      }
      // Blocks open, stream and close one at a time, indexed from 0.
      const starts = events.filter((event) => event.type === 'content_block_start').map((event) => event.index);
      expect(starts).toEqual(starts.map((_, i) => i));
    }
  });

  it('a mid-stream error is `event: error` with the documented body, and no message_stop', async () => {
    // ERRORS.md: `event: error` + `{"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}}`, then the connection closes.
    const text = await generated({ text: 'Half an', streamError: { code: 'overloaded_error', message: 'Overloaded' } });
    expect(text).not.toContain('message_stop');
    expect(
      text.endsWith(
        `event: error\ndata: ${JSON.stringify({ type: 'error', error: { details: null, type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
      ),
    ).toBe(true);
  });

  it('takes the key as x-api-key or a bearer token, and records each body as it arrived', async () => {
    const server = await serve([{ text: 'one' }, { text: 'two' }, { text: 'never' }], { apiKey: 'sk-ant' });
    const body = '{"model":"claude-sonnet-4-6",  "max_tokens":8,"messages":[]}';
    const post = (headers: Record<string, string>) => fetch(`${server.baseUrl}/messages`, { method: 'POST', headers, body });
    expect((await post({ 'x-api-key': 'sk-ant' })).status).toBe(200);
    expect((await post({ authorization: 'Bearer sk-ant' })).status).toBe(200);
    const refused = await post({ 'x-api-key': 'sk-other' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(server.received.map((r) => r.text)).toEqual([body, body, body]);
  });

  it("HTTP errors carry Anthropic's envelope and headers", async () => {
    const server = await serve([{ error: { status: 529 } }, { error: { status: 429, retryAfter: 3 } }]);
    const post = () => fetch(`${server.baseUrl}/messages`, { method: 'POST', body: JSON.stringify({ model: 'claude-x' }) });
    const overloaded = await post();
    expect(overloaded.status).toBe(529);
    expect(overloaded.headers.get('request-id')).toMatch(/^req_011C/);
    expect(await overloaded.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const limited = await post();
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    // The recorded 400 has the same envelope.
    const [recorded] = loadRecording('anthropic/mastra__sonnet46-stream-400-prefill-error-with-chunks.recording.json').slice(1);
    expect(Object.keys(JSON.parse(bodyText(recorded!)) as object)).toEqual(['type', 'error', 'request_id']);
  });
});

describe('the scripted server streams Anthropic through the same provider', () => {
  it('streams text word by word and ends with one done', async () => {
    const server = await serve([
      { text: 'Hello there, friend.', usage: { inputTokens: 1200, outputTokens: 4, cachedInputTokens: 1000, cacheWriteInputTokens: 150 } },
    ]);
    const result = await collect(server.baseUrl, 'anthropic');
    expect(result.events.filter((event) => event.type === 'text_delta').length).toBeGreaterThan(1);
    expect(result.text).toBe('Hello there, friend.');
    expect(result.items).toEqual([{ type: 'assistant', text: 'Hello there, friend.' }]);
    // input_tokens (50) + cache_read (1000) + cache_creation (150); cache reads are the cached part.
    expect(result.usage).toEqual(usage(1200, 4, 1000, 0));
    expect(result.done?.stopReason).toBe('end_turn');
    expect(server.received[0]).toMatchObject({ method: 'POST', path: '/v1/messages' });
  });

  it('returns parallel tool calls in order, after the text, with toolu_ ids and {} for no arguments', async () => {
    const server = await serve([
      {
        text: 'Reading both.',
        toolCalls: [
          { name: 'read_file', arguments: { path: 'a.txt' } },
          { name: 'list_files', arguments: {} },
        ],
      },
    ]);
    const result = await collect(server.baseUrl, 'anthropic');
    expect(result.items.map((item) => item.type)).toEqual(['assistant', 'tool_call', 'tool_call']);
    expect(result.toolCalls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['read_file', { path: 'a.txt' }],
      ['list_files', {}],
    ]);
    expect(result.toolCalls.every((call) => /^toolu_01[A-Za-z0-9]{22}$/.test(call.callId))).toBe(true);
    expect(result.done?.stopReason).toBe('tool_use');
  });

  it('streams thinking as reasoning and keeps the block, signature included, to pass back', async () => {
    const server = await serve([{ reasoning: 'Look before leaping.', text: 'Looked.' }]);
    const result = await collect(server.baseUrl, 'anthropic');
    expect(result.reasoning).toBe('Look before leaping.');
    expect(result.items[0]).toMatchObject({
      type: 'reasoning',
      api: 'anthropic',
      summary: 'Look before leaping.',
      replay: { type: 'thinking', thinking: 'Look before leaping.' },
    });
    const replay = result.items[0]?.type === 'reasoning' ? (result.items[0].replay as { signature: string }) : undefined;
    expect(replay?.signature).toMatch(/^EoQD[A-Za-z0-9+/]+=*$/);
    expect(result.usage?.reasoningTokens).toBeGreaterThan(0);
  });

  it('reports the stop reason the server gave (max_tokens, pause_turn...)', async () => {
    const server = await serve([
      { text: 'Cut sho', stopReason: 'max_tokens' },
      { text: 'Paused.', stopReason: 'pause_turn' },
    ]);
    expect((await collect(server.baseUrl, 'anthropic')).done?.stopReason).toBe('max_tokens');
    expect((await collect(server.baseUrl, 'anthropic')).done?.stopReason).toBe('pause_turn');
  });

  it('keeps a scripted invalid-JSON input as it was written', async () => {
    const server = await serve([{ toolCalls: [{ name: 'read_file', arguments: '{"path": "a.txt"' }] }]);
    expect((await collect(server.baseUrl, 'anthropic')).toolCalls[0]?.arguments).toBe('{"path": "a.txt"');
  });

  it('sends the key as the SDK does, and a 401 says to set TETHER_API_KEY or ANTHROPIC_API_KEY', async () => {
    const server = await serve([{ text: 'never' }], { apiKey: 'sk-right' });
    const { error } = await collect(server.baseUrl, 'anthropic');
    expect(error?.kind).toBe('auth');
    expect(error?.message).toContain(`401 from ${server.baseUrl}: the API key was refused (server said: invalid x-api-key)`);
    expect(error?.message).toContain('TETHER_API_KEY or ANTHROPIC_API_KEY');
    expect(server.received[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(server.received[0]?.headers['anthropic-version']).toBeDefined();
  });
});

describe("Anthropic errors become ModelErrors of the same kinds as OpenAI's", () => {
  const cases: Array<[status: number, kind: ModelErrorKind, retryable: boolean, message: RegExp]> = [
    [400, 'bad_request', false, /was refused: server said: This model does not support assistant message prefill/],
    [403, 'auth', false, /may not use model 'scripted-model'/],
    [
      404,
      'not_found',
      false,
      /model 'scripted-model' not found \(server said: model: scripted-model\)\. List the models it offers with: curl http:\/\/127\.0\.0\.1:\d+\/v1\/models/,
    ],
    [413, 'bad_request', false, /Request exceeds the maximum allowed number of bytes/],
    [500, 'server', true, /the server failed while answering model 'scripted-model' \(server said: Internal server error\)/],
    [529, 'server', true, /^529 from .*\(server said: Overloaded\)\.$/],
  ];
  for (const [status, kind, retryable, message] of cases) {
    it(`${status}: ${kind}${retryable ? ', retried' : ''}`, async () => {
      const server = await serve([{ error: { status } }]);
      const { error } = await collect(server.baseUrl, 'anthropic');
      expect(error?.kind).toBe(kind);
      expect(error?.options.status).toBe(status);
      expect(error?.retryable).toBe(retryable);
      expect(error?.message).toMatch(message);
    });
  }

  it('429 with retry-after: rate_limit carrying the wait in ms', async () => {
    const server = await serve([{ error: { status: 429, retryAfter: 2 } }]);
    const { error } = await collect(server.baseUrl, 'anthropic');
    expect(error?.kind).toBe('rate_limit');
    expect(error?.options.retryAfterMs).toBe(2000);
    expect(error?.message).toMatch(/rate limited for model 'scripted-model' \(server said: This request would exceed the rate limit/);
  });

  const midStream: Array<[type: string, kind: ModelErrorKind]> = [
    ['overloaded_error', 'server'],
    ['api_error', 'server'],
    ['rate_limit_error', 'rate_limit'],
    ['invalid_request_error', 'bad_request'],
    ['authentication_error', 'auth'],
  ];
  for (const [type, kind] of midStream) {
    it(`an ${type} event mid-stream: ${kind}, after the text it streamed, with no done`, async () => {
      const server = await serve([{ text: 'Half an', streamError: { code: type, message: 'Overloaded' } }]);
      const result = await collect(server.baseUrl, 'anthropic');
      expect(result.text).toBe('Half an');
      expect(result.done).toBeUndefined();
      expect(result.error?.kind).toBe(kind);
      expect(result.error?.message).toMatch(new RegExp(`in the middle of the response from model 'scripted-model'.*Overloaded.*${type}`));
    });
  }

  it('a connection dropped after the tool call was announced: connection, and no done', async () => {
    const server = await serve([
      { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }], dropAfter: 'toolCall' },
    ]);
    const result = await collect(server.baseUrl, 'anthropic');
    expect(result.text).toBe('Reading.');
    expect(result.done).toBeUndefined();
    expect(result.error?.kind).toBe('connection');
  });

  it('invalid JSON in the stream: bad_response', async () => {
    const server = await serve([{ raw: 'event: message_start\ndata: {"type":"message_start",\n\n' }]);
    const { error } = await collect(server.baseUrl, 'anthropic');
    expect(error?.kind).toBe('bad_response');
    expect(error?.message).toMatch(/not valid JSON.*Anthropic Messages API/);
  });

  it('nothing listening: connection, naming the base URL', async () => {
    const server = await serve([]);
    const baseUrl = server.baseUrl;
    await server.close();
    const { error } = await collect(baseUrl, 'anthropic');
    expect(error?.kind).toBe('connection');
    expect(error?.message).toContain(`Could not reach ${baseUrl}`);
  });

  it('abort mid-stream: aborted, promptly', async () => {
    const server = await serve([{ text: 'one two three four five six seven eight', chunkDelayMs: 200 }]);
    const controller = new AbortController();
    const provider = createProvider(config(server.baseUrl, 'anthropic'));
    const started = Date.now();
    let error: unknown;
    try {
      for await (const event of provider.stream(request([{ type: 'user', text: 'Hi' }], { signal: controller.signal }))) {
        if (event.type === 'text_delta') controller.abort();
      }
    } catch (thrown) {
      error = thrown;
    }
    expect((error as ModelError).kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a stream that goes silent past the idle limit: connection', async () => {
    const server = await serve([{ text: 'one two', chunkDelayMs: 400 }]);
    const result = await collect(server.baseUrl, 'anthropic', undefined, { idleTimeoutMs: 100 });
    expect(result.error?.kind).toBe('connection');
    expect(result.error?.message).toMatch(/sent nothing for/);
  });

  it('the script running out is a loud 500 that says so', async () => {
    const server = await serve([]);
    const { error } = await collect(server.baseUrl, 'anthropic');
    expect(error?.kind).toBe('server');
    expect(error?.message).toMatch(/script ran out of turns/);
  });

  it('a server without /v1/messages: not_found', async () => {
    const server = await serve([], { apis: ['responses', 'chat'] });
    const { error } = await collect(server.baseUrl, 'anthropic');
    expect(error?.kind).toBe('not_found');
  });
});

describe('retries over Anthropic', () => {
  async function run(server: ScriptedModel) {
    const provider = createProvider(config(server.baseUrl, 'anthropic'));
    const events: Array<ModelEvent | RetryingEvent> = [];
    for await (const event of streamWithRetries(provider, request([{ type: 'user', text: 'Hi' }]), { baseDelayMs: 5 })) events.push(event);
    return events;
  }

  it('overloaded mid-stream, then 529, then 429 with retry-after: retried until the answer', async () => {
    const server = await serve([
      { text: 'Half', streamError: { code: 'overloaded_error', message: 'Overloaded' } },
      { error: { status: 529 } },
      { error: { status: 429, retryAfter: 0.1 } },
      { text: 'Whole.' },
    ]);
    const events = await run(server);
    const retries = events.filter((event): event is RetryingEvent => event.type === 'retrying');
    expect(retries.map((event) => event.error.kind)).toEqual(['server', 'server', 'rate_limit']);
    expect(retries[2]?.delayMs).toBe(100);
    expect(events.at(-1)).toMatchObject({ type: 'done', items: [{ type: 'assistant', text: 'Whole.' }] });
    expect(server.requests).toHaveLength(4);
  });
});

describe('model listing over Anthropic', () => {
  it('reads GET /v1/models through the SDK, with the input window; tool support is assumed', async () => {
    const server = await serve([], {
      models: [
        { id: 'claude-sonnet-4-6', type: 'model', display_name: 'Claude Sonnet 4.6', max_input_tokens: 1_000_000, max_tokens: 128_000 },
      ],
    });
    expect(await listModels(config(server.baseUrl, 'anthropic', 'claude-sonnet-4-6'))).toEqual([
      { id: 'claude-sonnet-4-6', contextWindow: 1_000_000 },
    ]);
    await expect(checkToolSupport(config(server.baseUrl, 'anthropic', 'claude-sonnet-4-6'))).resolves.toMatchObject({
      id: 'claude-sonnet-4-6',
    });
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'GET /v1/models']);
    expect(server.received[0]?.headers.authorization).toBe('Bearer sk-test');
  });

  it('a failing listing does not stop a session', async () => {
    const server = await serve([], { models: { error: { status: 500 } } });
    await expect(checkToolSupport(config(server.baseUrl, 'anthropic', 'claude-sonnet-4-6'))).resolves.toBeUndefined();
    await expect(listModels(config(server.baseUrl, 'anthropic'))).rejects.toThrow(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/models failed: 500/);
  });
});

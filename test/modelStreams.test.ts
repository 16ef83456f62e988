import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationItem, Usage } from '../src/shared/conversation';
import { checkToolSupport, listModels } from '../src/main/model/models';
import { ModelError, type ModelErrorKind, type ModelEvent } from '../src/main/model/provider';
import { streamWithRetries, type RetryingEvent } from '../src/main/model/retry';
import { createProvider } from '../src/main/model/createProvider';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { collect, config, request, usage, type Collected } from './fixtures/scriptedModel/collect';
import { bodyText, loadRecording, loadRecordings, replayTurn, type RecordedExchange } from './fixtures/scriptedModel/recordings';
import { expectShape, keyProfile } from './support/recordedShape';

/**
 * The model layer against real API traffic. Every REAL recording in
 * test/fixtures/recorded is replayed byte for byte by the scripted server into the real
 * providers; then the scripted server's own streams are held to the same shape, so tests that use
 * it exercise what the real APIs send.
 */

// Loading here (not in a hook) makes a missing recordings folder fail the whole file, loudly.
const recordings = loadRecordings(['openai-responses', 'openai-chat']);
const real = recordings.filter((exchange) => !exchange.handwritten);

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
  return collect(server.baseUrl, exchange.api === 'responses' ? 'responses' : 'chat');
}

/** The data payloads of a recorded body, parsed without the code under test. */
function recordedEvents(exchange: RecordedExchange): Array<Record<string, unknown>> {
  return bodyText(exchange)
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

interface Expected {
  /** The item types of `done`, in order. */
  items?: Array<ConversationItem['type']>;
  /** The text deltas joined (and the assistant items joined). */
  text?: string;
  assistant?: RegExp[];
  calls?: Array<[name: string, callId: string, args: unknown]>;
  reasoning?: string | RegExp;
  usage?: Usage;
  stopReason?: string;
  error?: [kind: ModelErrorKind, message: RegExp];
}

const WEATHER_SF = { location: 'San Francisco' };

const expectations: Record<string, Expected> = {
  // --- Responses API ---
  'openai-responses/mastra__gpt4o-text-with-tcp-chunks-and-timings.recording.json#0': {
    items: ['assistant'],
    text: 'Hello! How can I assist you today?',
    usage: usage(19, 10),
    stopReason: 'completed',
  },
  'openai-responses/pydantic-ai__function-call-then-answer.vcr.yaml#0': {
    items: ['tool_call'],
    calls: [['get_capital', 'call_kL0PCQV7M2WMoVX8V8OtYSAL', { country: 'France' }]],
    usage: usage(255, 16),
  },
  'openai-responses/pydantic-ai__function-call-then-answer.vcr.yaml#1': {
    items: ['assistant'],
    text: 'The capital of France is Paris.',
    usage: usage(278, 9),
  },
  'openai-responses/pydantic-ai__gpt5-reasoning-function-call.vcr.yaml#0': {
    items: ['reasoning', 'tool_call'],
    calls: [['final_result', 'call_CWXgs68YprAjp6t0371hiPOI', { result: 6666 }]],
    reasoning: '',
    usage: usage(53, 469, 0, 448),
  },
  'openai-responses/pydantic-ai__reasoning-commentary-function-call.vcr.yaml#0': {
    items: ['reasoning', 'assistant', 'tool_call'],
    text: 'I’ll check the capital lookup tool for “PotatoLand.”',
    calls: [['get_capital', 'call_LabG58Uhrq9kZvR52BYKjToD', { country: 'PotatoLand' }]],
    usage: usage(63, 69, 0, 26),
  },
  'openai-responses/pydantic-ai__reasoning-commentary-function-call.vcr.yaml#1': {
    items: ['assistant'],
    text: 'The capital of PotatoLand is **Potato City**.',
    usage: usage(147, 16),
  },
  'openai-responses/simonw-llm__tool-use-streaming.vcr.yaml#0': {
    items: ['tool_call'],
    calls: [['multiply', 'call_sVidsfFJ6zlzRpelrPkTPlpd', { a: 1231, b: 2331 }]],
    usage: usage(58, 23),
  },
  'openai-responses/simonw-llm__tool-use-streaming.vcr.yaml#1': {
    items: ['assistant'],
    text: '1231 × 2331 = **2,869,461**',
    usage: usage(94, 18),
  },
  'openai-responses/vercel-ai__azure-responses-function-call.chunks.jsonl#0': {
    items: ['tool_call'],
    calls: [['weather', 'call_H5DxLSFnsGhiROnUiDHmgyc8', WEATHER_SF]],
    usage: usage(45, 24),
  },
  'openai-responses/vercel-ai__phase-two-messages.chunks.jsonl#0': {
    // The fixture was trimmed (sequence 5 → 41): the deltas hold only the first words, the items the whole text.
    items: ['assistant', 'assistant'],
    text: 'Got itHere are a few **AI',
    assistant: [/^Got it — I’ll quickly check reliable, up-to-date sources/, /^Here are a few \*\*AI headlines for today/],
    usage: usage(7112, 463, 3072, 64),
  },
  'openai-responses/vercel-ai__reasoning-encrypted-content-function-calls.chunks.jsonl#0': {
    items: ['reasoning', 'tool_call'],
    reasoning:
      "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
    calls: [['calculator', 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', { a: 12, b: 7, op: 'add' }]],
    usage: usage(134, 28),
  },
  'openai-responses/vercel-ai__reasoning-encrypted-content-function-calls.chunks.jsonl#1': {
    items: ['tool_call'],
    calls: [['calculator', 'call_Q6pW65MUgW9vF59BmItYGos3', { a: 19, b: 3, op: 'multiply' }]],
    usage: usage(221, 26),
  },
  'openai-responses/vercel-ai__reasoning-encrypted-content-function-calls.chunks.jsonl#2': {
    items: ['tool_call'],
    calls: [['calculator', 'call_Zl5vIMnD7dVAjgU6FkhmiCZh', { a: 57, b: 10, op: 'multiply' }]],
    usage: usage(260, 26),
  },
  'openai-responses/vercel-ai__reasoning-encrypted-content-function-calls.chunks.jsonl#3': {
    items: ['assistant'],
    text: 'The final result is **570**.',
    usage: usage(299, 12),
  },
  'openai-responses/vercel-ai__stream-error-insufficient-quota.chunks.jsonl#0': {
    error: ['bad_request', /no quota left.*insufficient_quota.*retrying will not help/],
  },
  'openai-responses/vercel-ai__tool-search-then-function-call.chunks.jsonl#0': {
    // tool_search_call and tool_search_output are hosted-tool items: skipped, not fatal.
    items: ['tool_call'],
    calls: [['get_weather', 'call_pddfxhfOx4gY56zn4vIIEbFp', { location: 'San Francisco, CA', unit: 'fahrenheit' }]],
    usage: usage(640, 46, 0, 20),
  },
  'openai-responses/EXCERPT__mastra__gpt4o-mini-5-parallel-function-calls.chunks.json#0': {
    // Only the middle of a stream: it never reaches response.completed.
    error: ['connection', /ended before response\.completed/],
  },

  // --- Chat Completions ---
  'openai-chat/openai-node__ChatCompletionStream.test.ts.snap#0': {
    items: ['assistant'],
    text: '{"city":"San Francisco","units":"f"}',
    usage: usage(17, 10),
    stopReason: 'stop',
  },
  'openai-chat/openai-node__ChatCompletionStream.test.ts.snap#1': {
    // A refusal is what the model said; the person must see it.
    items: ['assistant'],
    text: "I'm very sorry, but I can't assist with that request.",
    usage: usage(17, 13),
  },
  'openai-chat/openai-node__ChatCompletionStream.test.ts.snap#2': {
    items: ['assistant'],
    text: '{"city":"San Francisco","units":"c"}',
    usage: usage(17, 10),
  },
  'openai-chat/openai-node__ChatCompletionStream.test.ts.snap#3': {
    items: ['assistant'],
    text: '\n\n{"city":"San Francisco","units":"c"}',
    usage: usage(17, 10),
  },
  'openai-chat/pydantic-ai__gpt4o-parallel-tool-calls.vcr.yaml#0': {
    items: ['tool_call', 'tool_call'],
    calls: [
      ['get_country', 'call_q2UyBRP7eXNTzAoR8lEhjc9Z', {}],
      ['get_product_name', 'call_b51ijcpFkDiTQG1bQzsrmtW5', {}],
    ],
    usage: usage(364, 40),
    stopReason: 'tool_calls',
  },
  'openai-chat/pydantic-ai__gpt4o-parallel-tool-calls.vcr.yaml#1': {
    items: ['tool_call'],
    calls: [['get_weather', 'call_LwxJUB9KppVyogRRLQsamRJv', { city: 'Mexico City' }]],
    usage: usage(423, 15),
  },
  'openai-chat/pydantic-ai__gpt4o-parallel-tool-calls.vcr.yaml#2': {
    items: ['tool_call'],
    calls: [
      [
        'final_result',
        'call_CCGIWaMeYWmxOQ91orkmTvzn',
        {
          answers: [
            { label: 'Capital', answer: 'The capital of Mexico is Mexico City.' },
            { label: 'Weather', answer: 'The weather in Mexico City is currently sunny.' },
            { label: 'Product Name', answer: 'The product name is Pydantic AI.' },
          ],
        },
      ],
    ],
    usage: usage(448, 62),
  },
  'openai-chat/pydantic-ai__groq-midstream-error-event.vcr.yaml#0': {
    // `event: error` after 200 and reasoning: the server rejected the model's tool call. Retryable.
    reasoning: /^We need to call the tool with invalid parameters first/,
    error: ['server', /tool call the server rejected.*Tool call validation failed.*tool_use_failed/],
  },
  'openai-chat/pydantic-ai__groq-midstream-error-event.vcr.yaml#1': {
    items: ['reasoning', 'tool_call'],
    reasoning: 'We need to call the function with correct parameter "name". Provide a name, e.g., "example".',
    calls: [['get_something_by_name', 'fc_bfb39741-3748-4def-9886-a93fc9c64a90', { name: 'example' }]],
    usage: usage(304, 49, 0, 23),
  },
  'openai-chat/pydantic-ai__groq-midstream-error-event.vcr.yaml#2': {
    items: ['reasoning', 'assistant'],
    text: 'The tool returned the expected result for the valid call.',
    usage: usage(339, 58, 0, 38),
    stopReason: 'stop',
  },
  'openai-chat/pydantic-ai__openrouter-comments-and-error-chunk.vcr.yaml#0': {
    // Keep-alive comments first, reasoning in `reasoning`, then a chunk that carries `error`.
    reasoning: 'We need to respond to a greeting. The user',
    error: ['bad_request', /Token limit reached/],
  },
  'openai-chat/simonw-llm__compat-variant-a-repeated-id.vcr.yaml#0': {
    // id "0" repeated with the name and '{}' in a second piece: one call, arguments not doubled.
    items: ['tool_call'],
    calls: [['llm_version', '0', {}]],
    usage: usage(57, 17),
  },
  'openai-chat/simonw-llm__compat-variant-a-repeated-id.vcr.yaml#1': {
    items: ['assistant'],
    text: 'The current version of *llm* is **0.fixed-version**.',
    usage: usage(107, 15),
  },
  'openai-chat/simonw-llm__compat-variant-b-args-first.vcr.yaml#0': {
    items: ['tool_call'],
    calls: [['llm_version', '0', {}]],
    usage: usage(57, 17),
  },
  'openai-chat/simonw-llm__compat-variant-b-args-first.vcr.yaml#1': {
    items: ['assistant'],
    text: 'The current version of *llm* is **0.fixed-version**.',
    usage: usage(107, 15),
  },
  'openai-chat/simonw-llm__compat-variant-c-no-args-key.vcr.yaml#0': {
    items: ['tool_call'],
    calls: [['llm_version', 'llm_version:0', {}]],
    usage: usage(56, 12),
    stopReason: 'tool_calls',
  },
  'openai-chat/simonw-llm__compat-variant-c-no-args-key.vcr.yaml#1': {
    items: ['assistant'],
    text: 'The installed version of LLM on this system is 0.fixed-version.',
    usage: usage(105, 16),
  },
  'openai-chat/simonw-llm__compat-variant-d-null-args.vcr.yaml#0': {
    // arguments: null and nothing else: the call takes no arguments.
    items: ['tool_call'],
    calls: [['llm_version', '0', {}]],
    usage: usage(57, 17),
  },
  'openai-chat/simonw-llm__compat-variant-d-null-args.vcr.yaml#1': {
    items: ['assistant'],
    text: 'The current version of *llm* is **0.fixed-version**.',
    usage: usage(107, 15),
  },
  'openai-chat/simonw-llm__tool-use-basic.vcr.yaml#0': {
    items: ['tool_call'],
    calls: [['multiply', 'call_1EYWDzueHEp8OsB8jJSEp7WB', { a: 1231, b: 2331 }]],
    usage: usage(54, 20),
  },
  'openai-chat/simonw-llm__tool-use-basic.vcr.yaml#1': {
    items: ['assistant'],
    text: 'The result of \\( 1231 \\times 2331 \\) is \\( 2,869,461 \\).',
    usage: usage(87, 26),
  },
  'openai-chat/vercel-ai__anthropic-openai-compat-tool-call.sse#0': {
    // The first tool_calls index is 1, not 0.
    items: ['assistant', 'tool_call'],
    text: 'Reading it.',
    calls: [['read_file', 'toolu_sanitized', { path: 'a.txt' }]],
    usage: usage(0, 0),
    stopReason: 'tool_calls',
  },
  'openai-chat/vercel-ai__azure-model-router-text.chunks.jsonl#0': {
    items: ['assistant'],
    text: 'Capital of Denmark.',
    usage: usage(15, 78, 0, 64),
    stopReason: 'stop',
  },
  'openai-chat/vercel-ai__deepseek-reasoner-tool-call.chunks.jsonl#0': {
    items: ['reasoning', 'tool_call'],
    reasoning: /^The user is asking for the weather in San Francisco\. I need to use the weather tool/,
    calls: [['weather', 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', WEATHER_SF]],
    usage: usage(339, 83, 320, 39),
  },
  'openai-chat/vercel-ai__groq-llama-tool-call-whole.chunks.jsonl#0': {
    items: ['tool_call'],
    calls: [['weather', 'tk85n1k4m', {}]],
    usage: usage(210, 15),
  },
  'openai-chat/vercel-ai__mistral-api-glm-tool-call-empty-name.chunks.jsonl#0': {
    // The second piece repeats the call with name "" and the whole arguments.
    items: ['tool_call'],
    calls: [['webSearchTool', 'chatcmpl-tool-9f149c74c42f265b', { query: 'current Berlin weather' }]],
    usage: usage(171, 14, 128, 0),
  },
  'openai-chat/vercel-ai__xai-grok-reasoning-tool-call.chunks.jsonl#0': {
    items: ['reasoning', 'tool_call'],
    reasoning: /^First, the user is asking about the weather in San Francisco\./,
    calls: [['weather', 'call_79382389', WEATHER_SF]],
    usage: usage(307, 26, 306, 227),
  },
};

describe('real recordings replayed into the providers', () => {
  it('covers every REAL recording with an expectation', () => {
    expect(real.map((exchange) => exchange.key).sort()).toEqual(Object.keys(expectations).sort());
  });

  for (const exchange of real) {
    it(`${exchange.key}`, async () => {
      const expected = expectations[exchange.key];
      if (!expected) throw new Error(`No expectation for ${exchange.key}`);
      const result = await replay(exchange);

      if (expected.error) {
        expect(result.error, 'the stream should have failed').toBeInstanceOf(ModelError);
        expect(result.error?.kind).toBe(expected.error[0]);
        expect(result.error?.message).toMatch(expected.error[1]);
        expect(result.done).toBeUndefined();
      } else {
        expect(result.error, result.error?.message).toBeUndefined();
        // Exactly one done, and it is the last event.
        expect(result.events.filter((event) => event.type === 'done')).toHaveLength(1);
        expect(result.events.at(-1)?.type).toBe('done');
      }
      if (expected.items) expect(result.items.map((item) => item.type)).toEqual(expected.items);
      if (expected.text !== undefined) expect(result.text).toBe(expected.text);
      if (expected.assistant) {
        const said = result.items.filter((item) => item.type === 'assistant').map((item) => item.text);
        expect(said).toHaveLength(expected.assistant.length);
        expected.assistant.forEach((pattern, i) => expect(said[i]).toMatch(pattern));
      } else if (expected.text !== undefined) {
        expect(assistantText(result.items)).toBe(expected.text);
      }
      if (expected.calls) {
        expect(result.toolCalls.map((call) => [call.name, call.callId, JSON.parse(call.arguments)])).toEqual(expected.calls);
      }
      if (expected.reasoning !== undefined) {
        if (typeof expected.reasoning === 'string') expect(result.reasoning).toBe(expected.reasoning);
        else expect(result.reasoning).toMatch(expected.reasoning);
      }
      if (expected.usage) expect(result.usage).toEqual(expected.usage);
      if (expected.stopReason) expect(result.done?.stopReason).toBe(expected.stopReason);

      checkReasoningReplay(exchange, result);
    });
  }
});

function assistantText(items: ConversationItem[]): string {
  return items.map((item) => (item.type === 'assistant' ? item.text : '')).join('');
}

/** Reasoning must come back exactly as the server sent it, so the next turn can pass it back. */
function checkReasoningReplay(exchange: RecordedExchange, result: Collected): void {
  const reasoning = result.items.filter((item) => item.type === 'reasoning');
  if (exchange.api === 'responses') {
    const doneItems = recordedEvents(exchange)
      .filter((event) => event.type === 'response.output_item.done')
      .map((event) => event.item as Record<string, unknown>)
      .filter((item) => item.type === 'reasoning');
    expect(reasoning).toHaveLength(doneItems.length);
    reasoning.forEach((item, i) => {
      expect(item.api).toBe('responses');
      expect(item.replay).toEqual(doneItems[i]);
      expect(JSON.stringify(item.replay)).toBe(JSON.stringify(doneItems[i]));
    });
  } else {
    for (const item of reasoning) {
      expect(item.api).toBe('chat');
      expect(Object.values(item.replay as Record<string, string>)).toEqual([item.summary]);
      expect(item.summary).toBe(result.reasoning);
    }
  }
}

describe('negative examples and partial streams', () => {
  it('reports the hand-written parallel wrapper (a line of broken JSON) as a bad response', async () => {
    const [exchange] = loadRecording('openai-responses/HANDWRITTEN__vercel-ai__parallel-tool-call-wrapper.chunks.jsonl');
    const result = await replay(exchange!);
    expect(result.error?.kind).toBe('bad_response');
    expect(result.error?.message).toMatch(/not valid JSON/);
  });

  it('reads the five parallel calls of the mastra excerpt once the stream is completed', async () => {
    // The excerpt is the real middle of a gpt-4o-mini stream; the created/completed events around
    // it are added here (an empty output list, so the provider must rely on the item events).
    const [excerpt] = loadRecording('openai-responses/EXCERPT__mastra__gpt4o-mini-5-parallel-function-calls.chunks.json');
    const completed = `event: response.completed\ndata: ${JSON.stringify({
      type: 'response.completed',
      sequence_number: 131,
      response: { id: 'resp_x', object: 'response', status: 'completed', output: [], usage: null },
    })}\n\n`;
    const server = await serve([{ raw: [...(excerpt!.body as string[]), completed] }]);
    const result = await collect(server.baseUrl, 'responses');
    expect(result.error).toBeUndefined();
    expect(result.toolCalls.map((call) => call.name)).toEqual(['getWeather', 'getPopulation', 'getTimezone', 'getLanguage', 'getCurrency']);
    expect(result.toolCalls.every((call) => call.callId.startsWith('call_'))).toBe(true);
    for (const call of result.toolCalls) expect(() => JSON.parse(call.arguments)).not.toThrow();
  });

  it('treats a recorded Responses stream cut before response.completed as a connection error', async () => {
    const [exchange] = loadRecording('openai-responses/simonw-llm__tool-use-streaming.vcr.yaml');
    const body = bodyText(exchange!);
    const cut = body.slice(0, body.indexOf('event: response.completed'));
    const server = await serve([{ raw: cut }]);
    const result = await collect(server.baseUrl, 'responses');
    expect(result.error?.kind).toBe('connection');
    expect(result.error?.message).toMatch(/ended before response\.completed/);
  });

  it('treats a recorded chat stream cut before finish_reason and [DONE] as a connection error', async () => {
    const [exchange] = loadRecording('openai-chat/simonw-llm__tool-use-basic.vcr.yaml');
    const body = bodyText(exchange!);
    const cut = body.slice(0, body.indexOf('"finish_reason":"tool_calls"'));
    const server = await serve([{ raw: cut.slice(0, cut.lastIndexOf('data: ')) }]);
    const result = await collect(server.baseUrl, 'chat');
    expect(result.error?.kind).toBe('connection');
    expect(result.error?.message).toMatch(/no finish_reason, no \[DONE\]/);
    // The deltas already seen were streamed; no done means the loop acts on none of it.
    expect(result.done).toBeUndefined();
  });
});

describe('requests the providers send, checked against the recorded follow-up requests', () => {
  it('Responses: passes the reasoning item back byte for byte, with the function call and its output', async () => {
    const exchanges = loadRecording('openai-responses/pydantic-ai__reasoning-commentary-function-call.vcr.yaml');
    const server = await serve(exchanges.map(replayTurn));
    const first = await collect(server.baseUrl, 'responses', request([{ type: 'user', text: 'What is the capital of PotatoLand?' }]));
    const call = first.toolCalls[0]!;
    const items: ConversationItem[] = [
      { type: 'user', text: 'What is the capital of PotatoLand?' },
      ...first.items,
      { type: 'tool_result', callId: call.callId, output: 'Potato City', isError: false },
    ];
    const second = await collect(server.baseUrl, 'responses', request(items));
    expect(second.text).toBe('The capital of PotatoLand is **Potato City**.');

    const sent = server.requests[1]!;
    const recorded = exchanges[1]!.request as { input: Array<Record<string, unknown>> };
    const recordedReasoning = recorded.input.find((item) => item.type === 'reasoning')!;
    const sentReasoning = sent.input?.find((item) => item.type === 'reasoning');
    // What came in output_item.done goes back untouched: the same encrypted_content pydantic-ai sent
    // back successfully (it dropped the empty `content`; we keep every byte, `content: []` included).
    const doneItem = recordedEvents(exchanges[0]!).find(
      (event) => event.type === 'response.output_item.done' && (event.item as { type: string }).type === 'reasoning',
    )!.item;
    expect(sentReasoning).toEqual(doneItem);
    expect(sentReasoning).toMatchObject(recordedReasoning);
    expect(sent.input?.find((item) => item.type === 'function_call')).toEqual({
      type: 'function_call',
      call_id: 'call_LabG58Uhrq9kZvR52BYKjToD',
      name: 'get_capital',
      arguments: '{"country":"PotatoLand"}',
    });
    expect(sent.input?.find((item) => item.type === 'function_call_output')).toEqual(
      recorded.input.find((item) => item.type === 'function_call_output'),
    );
    expect(sent.input?.map((item) => item.type ?? item.role)).toEqual([
      'message',
      'reasoning',
      'message',
      'function_call',
      'function_call_output',
    ]);
    expect(sent).toMatchObject({ include: ['reasoning.encrypted_content'], store: false, stream: true });
    expect(sent.tools).toEqual([
      { type: 'function', name: 'read_file', description: expect.any(String), parameters: expect.any(Object), strict: false },
    ]);
  });

  it('Responses: the scripted server round trip carries reasoning, the call and its output', async () => {
    const server = await serve([
      {
        reasoning: 'I should read the file first.',
        text: 'Reading it.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' }, id: 'call_scripted1' }],
      },
      { text: 'The file says hello.' },
    ]);
    const first = await collect(server.baseUrl, 'responses');
    const reasoning = first.items.find((item) => item.type === 'reasoning');
    const items: ConversationItem[] = [
      { type: 'user', text: 'Hello' },
      ...first.items,
      { type: 'tool_result', callId: 'call_scripted1', output: 'hello', isError: false },
    ];
    const second = await collect(server.baseUrl, 'responses', request(items));
    expect(second.text).toBe('The file says hello.');
    expect(server.requests[0]?.include).toEqual(['reasoning.encrypted_content']);
    expect(server.requests[1]?.input).toEqual([
      { type: 'message', role: 'user', content: 'Hello' },
      reasoning?.type === 'reasoning' ? reasoning.replay : 'missing reasoning',
      { type: 'message', role: 'assistant', content: 'Reading it.' },
      { type: 'function_call', call_id: 'call_scripted1', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { type: 'function_call_output', call_id: 'call_scripted1', output: 'hello' },
    ]);
    const replayed = server.requests[1]!.input![1]!;
    expect(replayed.encrypted_content).toMatch(/^gAAAAAB/);
    expect(server.requests[1]?.instructions).toBe('You are a careful coding agent.');
  });

  it('Chat: sends the assistant tool calls and one tool message per result, as the recorded request did', async () => {
    const exchanges = loadRecording('openai-chat/pydantic-ai__gpt4o-parallel-tool-calls.vcr.yaml');
    const server = await serve(exchanges.slice(0, 2).map(replayTurn));
    const question = 'Tell me: the capital of the country; the weather there; the product name';
    const first = await collect(server.baseUrl, 'chat', request([{ type: 'user', text: question }], { instructions: '' }));
    const [country, product] = first.toolCalls;
    const items: ConversationItem[] = [
      { type: 'user', text: question },
      ...first.items,
      { type: 'tool_result', callId: country!.callId, output: 'Mexico', isError: false },
      { type: 'tool_result', callId: product!.callId, output: 'Pydantic AI', isError: false },
    ];
    await collect(server.baseUrl, 'chat', request(items, { instructions: '' }));
    const recorded = exchanges[1]!.request as { messages: unknown[] };
    expect(server.requests[1]?.messages).toEqual(recorded.messages);
    expect(server.requests[1]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('Chat: passes reasoning_content back on the assistant message that made the calls', async () => {
    const server = await serve([
      { reasoning: 'Need the file.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' }, id: 'call_r1' }] },
      { text: 'Done.' },
    ]);
    const first = await collect(server.baseUrl, 'chat');
    const items: ConversationItem[] = [
      { type: 'user', text: 'Hello' },
      ...first.items,
      { type: 'tool_result', callId: 'call_r1', output: 'hello', isError: false },
    ];
    await collect(server.baseUrl, 'chat', request(items));
    expect(server.requests[1]?.messages).toEqual([
      { role: 'system', content: 'You are a careful coding agent.' },
      { role: 'user', content: 'Hello' },
      {
        role: 'assistant',
        reasoning_content: 'Need the file.',
        tool_calls: [{ id: 'call_r1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_r1', content: 'hello' },
    ]);
  });
});

describe('the scripted server speaks what the recordings show', () => {
  const realResponses = real.filter((exchange) => exchange.api === 'responses' && !exchange.excerpt).flatMap(recordedEvents);
  const realChat = real.filter((exchange) => exchange.api === 'chat').flatMap(recordedEvents);

  async function generatedBody(api: 'responses' | 'chat', turn: Turn): Promise<string> {
    const server = await serve([turn]);
    const url = `${server.baseUrl}/${api === 'responses' ? 'responses' : 'chat/completions'}`;
    const body =
      api === 'responses'
        ? {
            model: 'gpt-5.1-codex',
            input: [{ role: 'user', content: 'hi' }],
            include: ['reasoning.encrypted_content'],
            store: false,
            stream: true,
            tools: [{ type: 'function', name: 'read_file', description: 'd', parameters: {}, strict: false }],
          }
        : { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } };
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    return response.text();
  }

  const turns: Turn[] = [
    { text: 'Hello there, friend.' },
    { reasoning: 'Think it through.', text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
    {
      toolCalls: [
        { name: 'read_file', arguments: { path: 'a.txt' } },
        { name: 'read_file', arguments: { path: 'b.txt' } },
      ],
    },
  ];

  it('Responses: event names, sequence numbers, and the fields of events, items and the response object', async () => {
    const realByType = new Map<string, Array<Record<string, unknown>>>();
    for (const event of realResponses) realByType.set(String(event.type), [...(realByType.get(String(event.type)) ?? []), event]);
    const realItems = (type: string) =>
      realResponses
        .filter((event) => String(event.type).startsWith('response.output_item.'))
        .map((event) => event.item as Record<string, unknown>)
        .filter((item) => item.type === type);

    for (const turn of turns) {
      const text = await generatedBody('responses', turn);
      expect(text).not.toContain('[DONE]');
      const blocks = text.split('\n\n').filter((block) => block !== '');
      const events = blocks.map((block, i) => {
        const [eventLine, dataLine, ...rest] = block.split('\n');
        expect(rest).toEqual([]);
        const event = JSON.parse(dataLine!.slice('data: '.length)) as Record<string, unknown>;
        expect(eventLine).toBe(`event: ${String(event.type)}`);
        expect(event.sequence_number).toBe(i);
        return event;
      });
      expect(events[0]?.type).toBe('response.created');
      expect(events.at(-1)?.type).toBe('response.completed');
      for (const event of events) {
        const type = String(event.type);
        expect(realByType.has(type), `${type} never appears in a real recording`).toBe(true);
        expectShape(type, [event], realByType.get(type)!);
        if (event.item) {
          const item = event.item as Record<string, unknown>;
          // Items are compared with their own kind only, and "phase" is a newer optional field.
          expectShape(
            `${String(item.type)} item`,
            [item],
            realItems(String(item.type)).map(({ phase: _phase, ...rest }) => rest),
          );
        }
        if (event.response) {
          const realResponsesObjects = (realByType.get(type) ?? []).map((e) => e.response as Record<string, unknown>);
          expectShape(`${type} response`, [event.response as Record<string, unknown>], realResponsesObjects);
        }
      }
      const finals = events.filter((event) => event.type === 'response.function_call_arguments.done');
      for (const final of finals) expect(final).not.toHaveProperty('name');
    }
  });

  it('Chat: data-only events ending in [DONE], and the fields of chunks, deltas and tool call pieces', async () => {
    const chunksOnly = realChat.filter((chunk) => Array.isArray(chunk.choices));
    const openaiChunks = chunksOnly.filter((chunk) => String(chunk.id).startsWith('chatcmpl-') && String(chunk.model).startsWith('gpt-'));
    const deltas = (chunks: Array<Record<string, unknown>>) =>
      chunks.flatMap((chunk) => (chunk.choices as Array<Record<string, unknown>>).map((choice) => choice.delta as Record<string, unknown>));
    const toolPieces = (chunks: Array<Record<string, unknown>>) =>
      deltas(chunks).flatMap((delta) => (delta.tool_calls as Array<Record<string, unknown>> | undefined) ?? []);

    for (const turn of turns) {
      const text = await generatedBody('chat', turn);
      expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
      expect(text).not.toMatch(/^event:/m);
      const chunks = text
        .split('\n\n')
        .filter((block) => block !== '' && block !== 'data: [DONE]')
        .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
      const withChoices = chunks.filter((chunk) => (chunk.choices as unknown[]).length > 0);
      expectShape(
        'chunk',
        withChoices,
        openaiChunks.filter((chunk) => (chunk.choices as unknown[]).length > 0),
      );
      expectShape(
        'usage chunk',
        chunks.filter((chunk) => (chunk.choices as unknown[]).length === 0),
        openaiChunks.filter((chunk) => (chunk.choices as unknown[]).length === 0),
      );
      const { union: deltaFields } = keyProfile(deltas(chunksOnly));
      for (const delta of deltas(withChoices)) expect(Object.keys(delta).filter((key) => !deltaFields.has(key))).toEqual([]);
      const { union: pieceFields } = keyProfile(toolPieces(chunksOnly));
      for (const piece of toolPieces(withChoices)) expect(Object.keys(piece).filter((key) => !pieceFields.has(key))).toEqual([]);
    }
  });
});

describe('the scripted server streams through the same providers', () => {
  for (const api of ['responses', 'chat'] as const) {
    describe(api, () => {
      it('streams text word by word and ends with one done', async () => {
        const server = await serve([{ text: 'Hello there, friend.', usage: { inputTokens: 12, outputTokens: 4, cachedInputTokens: 3 } }]);
        const result = await collect(server.baseUrl, api);
        expect(result.events.filter((event) => event.type === 'text_delta').length).toBeGreaterThan(1);
        expect(result.text).toBe('Hello there, friend.');
        expect(result.items).toEqual([{ type: 'assistant', text: 'Hello there, friend.' }]);
        expect(result.usage).toEqual(usage(12, 4, 3, 0));
        expect(result.done?.stopReason).toBe(api === 'responses' ? 'completed' : 'stop');
      });

      it('returns one tool call with its id and arguments', async () => {
        const server = await serve([{ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' }, id: 'call_one' }] }]);
        const result = await collect(server.baseUrl, api);
        expect(result.items).toEqual([{ type: 'tool_call', callId: 'call_one', name: 'read_file', arguments: '{"path":"src/a.ts"}' }]);
      });

      it('returns parallel tool calls in order, after the text', async () => {
        const server = await serve([
          {
            text: 'Reading both.',
            toolCalls: [
              { name: 'read_file', arguments: { path: 'a.txt' } },
              { name: 'list_files', arguments: '{}' },
            ],
          },
        ]);
        const result = await collect(server.baseUrl, api);
        expect(result.items.map((item) => item.type)).toEqual(['assistant', 'tool_call', 'tool_call']);
        expect(result.toolCalls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
          ['read_file', { path: 'a.txt' }],
          ['list_files', {}],
        ]);
        expect(new Set(result.toolCalls.map((call) => call.callId)).size).toBe(2);
        expect(result.toolCalls[0]?.callId).toMatch(/^call_[A-Za-z0-9]{24}$/);
      });

      it('streams reasoning and keeps a replayable reasoning item first', async () => {
        const server = await serve([{ reasoning: 'Look before leaping.', text: 'Looked.' }]);
        const result = await collect(server.baseUrl, api);
        expect(result.reasoning).toBe('Look before leaping.');
        expect(result.items[0]).toMatchObject({ type: 'reasoning', api, summary: 'Look before leaping.' });
        expect(result.items[0]?.type === 'reasoning' && result.items[0].replay).toBeTruthy();
        expect(result.usage?.reasoningTokens).toBeGreaterThan(0);
      });

      it('keeps a scripted invalid-JSON argument string as it was written', async () => {
        const server = await serve([{ toolCalls: [{ name: 'read_file', arguments: '{"path": "a.txt"' }] }]);
        const result = await collect(server.baseUrl, api);
        expect(result.toolCalls[0]?.arguments).toBe('{"path": "a.txt"');
      });

      it('gives a missing or reused tool call id a fresh one', async () => {
        const server = await serve([{ toolCalls: [{ name: 'read_file', arguments: {}, id: 'call_used' }] }]);
        const req = request([
          { type: 'user', text: 'Hello' },
          { type: 'tool_call', callId: 'call_used', name: 'read_file', arguments: '{}' },
          { type: 'tool_result', callId: 'call_used', output: 'x', isError: false },
        ]);
        const result = await collect(server.baseUrl, api, req);
        expect(result.toolCalls[0]?.callId).not.toBe('call_used');
        expect(result.toolCalls[0]?.callId).toMatch(/^call_/);
      });
    });
  }
});

describe('errors become ModelErrors with the right kind and a message that says what to do', () => {
  for (const api of ['responses', 'chat'] as const) {
    describe(api, () => {
      it('401: auth, naming the server and TETHER_API_KEY', async () => {
        const server = await serve([{ error: { status: 401 } }]);
        const { error } = await collect(server.baseUrl, api);
        expect(error?.kind).toBe('auth');
        expect(error?.options.status).toBe(401);
        expect(error?.message).toContain(`401 from ${server.baseUrl}: the API key was refused`);
        expect(error?.message).toContain('Incorrect API key provided');
        expect(error?.message).toContain('TETHER_API_KEY');
        expect(error?.retryable).toBe(false);
      });

      it('401 when the server wants a different key (the key is sent as a bearer token)', async () => {
        const server = await serve([{ text: 'never' }], { apiKey: 'sk-right' });
        const { error } = await collect(server.baseUrl, api);
        expect(error?.kind).toBe('auth');
        expect(server.received[0]?.headers.authorization).toBe('Bearer sk-test');
      });

      it('404: not_found, naming the model and how to list models', async () => {
        const server = await serve([{ error: { status: 404 } }]);
        const { error } = await collect(server.baseUrl, api);
        expect(error?.kind).toBe('not_found');
        expect(error?.message).toContain(`model 'scripted-model' not found`);
        expect(error?.message).toContain(`curl ${server.baseUrl}/models`);
      });

      it('429 with retry-after: rate_limit carrying the wait in ms', async () => {
        const server = await serve([{ error: { status: 429, retryAfter: 2 } }, { error: { status: 429, retryAfterMs: 150 } }]);
        const first = await collect(server.baseUrl, api);
        expect(first.error?.kind).toBe('rate_limit');
        expect(first.error?.options.retryAfterMs).toBe(2000);
        expect(first.error?.message).toMatch(/rate limited.*Rate limit reached/);
        const second = await collect(server.baseUrl, api);
        expect(second.error?.options.retryAfterMs).toBe(150);
      });

      it('429 insufficient_quota (the recorded body): final, not a rate limit', async () => {
        const [quota] = loadRecording('errors/vercel-ai__openai-429-insufficient-quota.body.json');
        const server = await serve([replayTurn(quota!)]);
        const { error } = await collect(server.baseUrl, api);
        expect(error?.kind).toBe('bad_request');
        expect(error?.retryable).toBe(false);
        expect(error?.message).toMatch(/no quota left/);
      });

      it('500: server, retryable', async () => {
        const server = await serve([{ error: { status: 500 } }]);
        const { error } = await collect(server.baseUrl, api);
        expect(error?.kind).toBe('server');
        expect(error?.retryable).toBe(true);
        expect(error?.message).toContain('The server had an error while processing your request');
      });

      it('a connection dropped after the tool call was announced: connection, and no done', async () => {
        const server = await serve([
          { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }], dropAfter: 'toolCall' },
        ]);
        const result = await collect(server.baseUrl, api);
        expect(result.text).toBe('Reading.');
        expect(result.done).toBeUndefined();
        expect(result.error?.kind).toBe('connection');
        expect(result.error?.message).toMatch(/broke in the middle of the response/);
      });

      it('invalid JSON in the stream: bad_response', async () => {
        const raw =
          api === 'responses'
            ? 'event: response.created\ndata: {"type":"response.created",\n\n'
            : 'data: {"id":"chatcmpl-1","choices":[\n\n';
        const server = await serve([{ raw }]);
        const { error } = await collect(server.baseUrl, api);
        expect(error?.kind).toBe('bad_response');
        expect(error?.message).toMatch(/not valid JSON/);
      });

      it('an error the server sends mid-stream: overloaded is retryable, quota is final', async () => {
        const server = await serve([
          { text: 'Half an', streamError: { code: 'server_error', message: 'The server is overloaded.' } },
          { streamError: { code: 'insufficient_quota', message: 'You exceeded your current quota.' } },
        ]);
        const overloaded = await collect(server.baseUrl, api);
        expect(overloaded.text).toBe('Half an');
        expect(overloaded.error?.kind).toBe('server');
        expect(overloaded.error?.message).toMatch(/in the middle of the response.*The server is overloaded/);
        const quota = await collect(server.baseUrl, api);
        expect(quota.error?.kind).toBe('bad_request');
      });

      it('nothing listening: connection, naming the base URL', async () => {
        const server = await serve([]);
        const baseUrl = server.baseUrl;
        await server.close();
        const { error } = await collect(baseUrl, api);
        expect(error?.kind).toBe('connection');
        expect(error?.message).toContain(`Could not reach ${baseUrl}`);
        expect(error?.message).toContain('TETHER_BASE_URL');
      });

      it('abort mid-stream: aborted, promptly', async () => {
        const server = await serve([{ text: 'one two three four five six seven eight', chunkDelayMs: 200 }]);
        const controller = new AbortController();
        const provider = createProvider(config(server.baseUrl, api));
        const started = Date.now();
        let error: unknown;
        try {
          for await (const event of provider.stream(request([{ type: 'user', text: 'Hi' }], { signal: controller.signal }))) {
            if (event.type === 'text_delta') controller.abort();
          }
        } catch (thrown) {
          error = thrown;
        }
        expect(error).toBeInstanceOf(ModelError);
        expect((error as ModelError).kind).toBe('aborted');
        expect(Date.now() - started).toBeLessThan(1000);
      });

      it('a stream that goes silent past the idle limit: connection', async () => {
        const server = await serve([{ text: 'one two', chunkDelayMs: 400 }]);
        const result = await collect(server.baseUrl, api, undefined, { idleTimeoutMs: 100 });
        expect(result.error?.kind).toBe('connection');
        expect(result.error?.message).toMatch(/sent nothing for/);
      });

      it('the script running out is a loud 500 that says so', async () => {
        const server = await serve([]);
        const { error } = await collect(server.baseUrl, api);
        expect(error?.kind).toBe('server');
        expect(error?.message).toMatch(/script ran out of turns/);
      });
    });
  }

  it('responses against a server without /responses: 404 that suggests --api chat', async () => {
    const server = await serve([], { apis: ['chat'] });
    const { error } = await collect(server.baseUrl, 'responses');
    expect(error?.kind).toBe('not_found');
    expect(error?.message).toContain('--api chat');
  });

  it('recorded error responses map to their kinds', async () => {
    const cases: Array<[file: string, kind: ModelErrorKind, message: RegExp]> = [
      ['errors/pydantic-ai__openai-chat-404-model-not-found.vcr.yaml', 'not_found', /does not exist or you do not have access/],
      ['errors/pydantic-ai__openai-responses-400.vcr.yaml', 'bad_request', /parameter: temperature/],
      ['errors/pydantic-ai__openrouter-429.vcr.yaml', 'rate_limit', /Provider returned error/],
      ['errors/vercel-ai__openai-chat-400-unsupported-parameter.body.json', 'bad_request', /max_completion_tokens.*parameter: max_tokens/],
      ['errors/vercel-ai__openai-responses-400-unsupported-temperature.body.json', 'bad_request', /'temperature' is not supported/],
    ];
    for (const [file, kind, message] of cases) {
      const [exchange] = loadRecording(file);
      const server = await serve([replayTurn(exchange!)]);
      const { error } = await collect(server.baseUrl, exchange!.api === 'responses' ? 'responses' : 'chat');
      expect(error?.kind, file).toBe(kind);
      expect(error?.message, file).toMatch(message);
    }
  });
});

describe('retries', () => {
  function retried(events: Array<ModelEvent | RetryingEvent>): RetryingEvent[] {
    return events.filter((event): event is RetryingEvent => event.type === 'retrying');
  }

  async function run(server: ScriptedModel, api: 'responses' | 'chat', options: Parameters<typeof streamWithRetries>[2] = {}) {
    const provider = createProvider(config(server.baseUrl, api));
    const events: Array<ModelEvent | RetryingEvent> = [];
    let error: ModelError | undefined;
    try {
      for await (const event of streamWithRetries(provider, request([{ type: 'user', text: 'Hi' }]), { baseDelayMs: 5, ...options })) {
        events.push(event);
      }
    } catch (thrown) {
      error = thrown as ModelError;
    }
    return { events, error };
  }

  for (const api of ['responses', 'chat'] as const) {
    it(`${api}: honours retry-after, backs off on 5xx, then answers`, async () => {
      const server = await serve([{ error: { status: 429, retryAfterMs: 120 } }, { error: { status: 503 } }, { text: 'Finally.' }]);
      const started = Date.now();
      const { events, error } = await run(server, api);
      expect(error).toBeUndefined();
      const retries = retried(events);
      expect(retries.map((event) => [event.attempt, event.error.kind])).toEqual([
        [1, 'rate_limit'],
        [2, 'server'],
      ]);
      expect(retries[0]?.delayMs).toBe(120);
      expect(retries[1]?.delayMs).toBeGreaterThanOrEqual(5);
      expect(retries[1]?.delayMs).toBeLessThanOrEqual(10);
      expect(Date.now() - started).toBeGreaterThanOrEqual(120);
      expect(events.at(-1)).toMatchObject({ type: 'done', items: [{ type: 'assistant', text: 'Finally.' }] });
      expect(server.requests).toHaveLength(3);
    });

    it(`${api}: a drop mid-stream is retried and the new attempt's answer is the one that counts`, async () => {
      const server = await serve([
        { text: 'A partial answer that will be cut', toolCalls: [{ name: 'read_file', arguments: {} }], dropAfter: 'toolCall' },
        { text: 'Whole.' },
      ]);
      const { events, error } = await run(server, api);
      expect(error).toBeUndefined();
      const retryAt = events.findIndex((event) => event.type === 'retrying');
      expect(retryAt).toBeGreaterThan(0);
      expect(events.slice(0, retryAt).some((event) => event.type === 'text_delta')).toBe(true);
      expect(events.slice(0, retryAt).some((event) => event.type === 'done')).toBe(false);
      expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: 'done', items: [{ type: 'assistant', text: 'Whole.' }] });
    });
  }

  it('gives up after maxAttempts and says how many were made', async () => {
    const server = await serve([{ error: { status: 500 } }, { error: { status: 500 } }, { error: { status: 500 } }]);
    const { events, error } = await run(server, 'responses', { maxAttempts: 3 });
    expect(retried(events)).toHaveLength(2);
    expect(error?.kind).toBe('server');
    expect(error?.message).toMatch(/Gave up after 3 attempts\.$/);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a final error', async () => {
    const server = await serve([{ error: { status: 401 } }, { text: 'never reached' }]);
    const { events, error } = await run(server, 'chat');
    expect(retried(events)).toHaveLength(0);
    expect(error?.kind).toBe('auth');
    expect(server.requests).toHaveLength(1);
  });

  it('caps a long retry-after', async () => {
    const server = await serve([{ error: { status: 429, retryAfter: 3600 } }, { text: 'ok' }]);
    const { events } = await run(server, 'chat', { maxRetryAfterMs: 30 });
    expect(retried(events)[0]?.delayMs).toBe(30);
  });
});

describe('model listing', () => {
  const models = [
    { id: 'tool-model', supports_tools: true, context_length: 131072 },
    { id: 'no-tools-model', supports_tools: false },
    { id: 'windowed', context_window: 8192 },
  ];

  it('reads supports_tools and the context length', async () => {
    const server = await serve([], { models });
    expect(await listModels(config(server.baseUrl, 'chat'))).toEqual([
      { id: 'tool-model', supportsTools: true, contextWindow: 131072 },
      { id: 'no-tools-model', supportsTools: false },
      { id: 'windowed', contextWindow: 8192 },
    ]);
    expect(server.received[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.received[0]?.headers.authorization).toBe('Bearer sk-test');
  });

  it('refuses a model whose listing says supports_tools: false', async () => {
    const server = await serve([], { models });
    await expect(checkToolSupport(config(server.baseUrl, 'chat', 'no-tools-model'))).rejects.toThrow(
      `Model no-tools-model at ${server.baseUrl} says it cannot use tools (supports_tools: false); Tether needs tool calls. Pick another model.`,
    );
    await expect(checkToolSupport(config(server.baseUrl, 'chat', 'no-tools-model'))).rejects.toMatchObject({ kind: 'unsupported' });
  });

  it('lets a model through when the listing allows it, lacks it, or fails', async () => {
    const server = await serve([], { models });
    await expect(checkToolSupport(config(server.baseUrl, 'chat', 'tool-model'))).resolves.toMatchObject({ supportsTools: true });
    await expect(checkToolSupport(config(server.baseUrl, 'chat', 'windowed'))).resolves.toEqual({ id: 'windowed', contextWindow: 8192 });
    await expect(checkToolSupport(config(server.baseUrl, 'chat', 'unlisted'))).resolves.toBeUndefined();
    const failing = await serve([], { models: { error: { status: 500 } } });
    await expect(checkToolSupport(config(failing.baseUrl, 'chat', 'no-tools-model'))).resolves.toBeUndefined();
    const gone = failing.baseUrl;
    await failing.close();
    await expect(checkToolSupport(config(gone, 'chat', 'x'))).resolves.toBeUndefined();
  });
});

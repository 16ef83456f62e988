import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel, type Turn } from '../../../test/fixtures/scriptedModel';
import { collect, config, request } from '../../../test/fixtures/scriptedModel/collect';
import { OpenAIResponsesProvider, toResponsesInput, type ResponsesProviderOptions } from './openaiResponses';

const servers: ScriptedModel[] = [];
async function serve(turns: Turn[]): Promise<ScriptedModel> {
  const server = await startScriptedModel({ turns });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A Responses stream from event objects, numbered as the API numbers them. */
function responsesStream(events: Array<Record<string, unknown>>): string {
  return events.map((event, i) => `event: ${String(event.type)}\ndata: ${JSON.stringify({ ...event, sequence_number: i })}\n\n`).join('');
}

const created = { type: 'response.created', response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [] } };
const usage = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 4 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 2 },
  total_tokens: 15,
};

describe('reading Responses streams', () => {
  it('separates reasoning summary parts with a blank line, live and stored', async () => {
    const item = { id: 'rs_1', type: 'reasoning', summary: [] };
    const done = {
      ...item,
      summary: [
        { type: 'summary_text', text: 'First.' },
        { type: 'summary_text', text: 'Second.' },
      ],
    };
    const server = await serve([
      {
        raw: responsesStream([
          created,
          { type: 'response.output_item.added', output_index: 0, item },
          { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'First.' },
          { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 1, delta: 'Second.' },
          { type: 'response.output_item.done', output_index: 0, item: done },
          { type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [done], usage } },
        ]),
      },
    ]);
    const result = await collect(server.baseUrl, 'responses');
    expect(result.reasoning).toBe('First.\n\nSecond.');
    expect(result.items).toEqual([{ type: 'reasoning', api: 'responses', summary: 'First.\n\nSecond.', replay: done }]);
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2 });
  });

  it('takes the items from response.completed when the server sent no item events', async () => {
    const output = [
      { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi.' }] },
      { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '' },
    ];
    const server = await serve([
      { raw: responsesStream([created, { type: 'response.completed', response: { status: 'completed', output, usage } }]) },
    ]);
    const result = await collect(server.baseUrl, 'responses');
    expect(result.items).toEqual([
      { type: 'assistant', text: 'Hi.' },
      // No arguments at all means none.
      { type: 'tool_call', callId: 'call_1', name: 'read_file', arguments: '{}' },
    ]);
  });

  it('follows items by id when a server leaves out output_index, and streams reasoning_text', async () => {
    const server = await serve([
      {
        raw: responsesStream([
          created,
          { type: 'response.output_item.added', item: { id: 'rs_1', type: 'reasoning', summary: [] } },
          { type: 'response.reasoning_text.delta', item_id: 'rs_1', content_index: 0, delta: 'thinking' },
          {
            type: 'response.output_item.added',
            item: { id: 'fc_1', type: 'function_call', call_id: 'call_9', name: 'read_file', arguments: '' },
          },
          { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"path":' },
          { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '"a"}' },
          { type: 'response.completed', response: { status: 'completed', output: [], usage: null } },
        ]),
      },
    ]);
    const result = await collect(server.baseUrl, 'responses');
    expect(result.reasoning).toBe('thinking');
    expect(result.toolCalls).toEqual([{ type: 'tool_call', callId: 'call_9', name: 'read_file', arguments: '{"path":"a"}' }]);
  });

  it('ends a response.incomplete with its reason and what was finished', async () => {
    const message = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Part' }] };
    const server = await serve([
      {
        raw: responsesStream([
          created,
          { type: 'response.output_item.done', output_index: 0, item: message },
          {
            type: 'response.incomplete',
            response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [message], usage },
          },
        ]),
      },
    ]);
    const result = await collect(server.baseUrl, 'responses');
    expect(result.done?.stopReason).toBe('max_output_tokens');
    expect(result.items).toEqual([{ type: 'assistant', text: 'Part' }]);
  });

  it('turns a bare response.failed into a ModelError from its code', async () => {
    const server = await serve([
      {
        raw: responsesStream([
          created,
          { type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'The model crashed.' } } },
        ]),
      },
    ]);
    const result = await collect(server.baseUrl, 'responses');
    expect(result.error?.kind).toBe('server');
    expect(result.error?.message).toContain('The model crashed.');
  });
});

describe('what the provider sends', () => {
  async function sentBody(model: string, options: ResponsesProviderOptions = {}) {
    const server = await serve([{ text: 'ok' }]);
    const provider = new OpenAIResponsesProvider(config(server.baseUrl, 'responses', model), options);
    for await (const _event of provider.stream(request([{ type: 'user', text: 'Hi' }], { model }))) void _event;
    return server.requests[0]!;
  }

  it('asks reasoning models for summaries, and not the others', async () => {
    expect((await sentBody('gpt-5.1-codex')).reasoning).toEqual({ summary: 'auto' });
    expect((await sentBody('o4-mini')).reasoning).toEqual({ summary: 'auto' });
    expect(await sentBody('gpt-4o')).not.toHaveProperty('reasoning');
    expect(await sentBody('gpt-5-chat-latest')).not.toHaveProperty('reasoning');
    expect(await sentBody('gpt-5.1-codex', { reasoning: null })).not.toHaveProperty('reasoning');
    expect((await sentBody('qwen3', { reasoning: { effort: 'high' } })).reasoning).toEqual({ effort: 'high' });
  });

  it('is stateless: store false, encrypted reasoning asked for, tools not strict', async () => {
    expect(await sentBody('gpt-4o')).toEqual({
      model: 'gpt-4o',
      instructions: 'You are a careful coding agent.',
      input: [{ type: 'message', role: 'user', content: 'Hi' }],
      tools: [
        {
          type: 'function',
          name: 'read_file',
          description: 'Read a file in the workspace.',
          parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          strict: false,
        },
      ],
      include: ['reasoning.encrypted_content'],
      store: false,
      stream: true,
    });
  });
});

describe('toResponsesInput', () => {
  it('replays this API’s reasoning verbatim and drops another API’s', () => {
    const replay = { id: 'rs_1', type: 'reasoning', encrypted_content: 'gAAAAAB…', summary: [], content: [] };
    expect(
      toResponsesInput([
        { type: 'user', text: 'Hi' },
        { type: 'reasoning', api: 'chat', summary: 'x', replay: { reasoning_content: 'x' } },
        { type: 'reasoning', api: 'responses', summary: '', replay },
        { type: 'tool_call', callId: 'call_1', name: 'read_file', arguments: '{"path":"a"}' },
        { type: 'tool_result', callId: 'call_1', output: 'A', isError: false },
        { type: 'assistant', text: 'A it is.' },
      ]),
    ).toEqual([
      { type: 'message', role: 'user', content: 'Hi' },
      replay,
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'A' },
      { type: 'message', role: 'assistant', content: 'A it is.' },
    ]);
  });
});

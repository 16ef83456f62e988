import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel, type Turn } from '../../../test/fixtures/scriptedModel';
import { collect, request } from '../../../test/fixtures/scriptedModel/collect';
import { toChatMessages } from './openaiChat';

const servers: ScriptedModel[] = [];
async function serve(turns: Turn[]): Promise<ScriptedModel> {
  const server = await startScriptedModel({ turns });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A chat stream built from deltas, in the chunk shape of the recordings. */
function chatStream(deltas: Array<Record<string, unknown>>, { finish = 'tool_calls', done = true } = {}): string {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    `data: ${JSON.stringify({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  return deltas.map((delta) => chunk(delta, null)).join('') + (finish ? chunk({}, finish) : '') + (done ? 'data: [DONE]\n\n' : '');
}

async function calls(deltas: Array<Record<string, unknown>>) {
  const server = await serve([{ raw: chatStream(deltas) }]);
  const result = await collect(server.baseUrl, 'chat');
  expect(result.error, result.error?.message).toBeUndefined();
  return result.toolCalls.map((call) => ({ id: call.callId, name: call.name, arguments: call.arguments }));
}

describe('tool call accumulation', () => {
  it('does not double the arguments when a piece repeats the id with the whole arguments again', async () => {
    expect(
      await calls([
        { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }] },
        { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }] },
      ]),
    ).toEqual([{ id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' }]);
  });

  it('keeps appending fragments that repeat the id but are not whole JSON', async () => {
    expect(
      await calls([
        { tool_calls: [{ index: 0, id: 'call_a', function: { name: 'read_file', arguments: '{"pa' } }] },
        { tool_calls: [{ index: 0, id: 'call_a', function: { arguments: 'th":"a"}' } }] },
      ]),
    ).toEqual([{ id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' }]);
  });

  it('splits calls that reuse index 0 with new ids into separate calls', async () => {
    expect(
      await calls([
        { tool_calls: [{ index: 0, id: 'call_a', function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
        { tool_calls: [{ index: 0, id: 'call_b', function: { name: 'read_file', arguments: '{"path":"b"}' } }] },
      ]),
    ).toEqual([
      { id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' },
      { id: 'call_b', name: 'read_file', arguments: '{"path":"b"}' },
    ]);
  });

  it('reads parallel calls sent in one delta without an index, and gives id-less calls fresh ids', async () => {
    const result = await calls([
      {
        tool_calls: [{ function: { name: 'read_file', arguments: '{"path":"a"}' } }, { function: { name: 'list_files', arguments: null } }],
      },
    ]);
    expect(result.map((call) => [call.name, call.arguments])).toEqual([
      ['read_file', '{"path":"a"}'],
      ['list_files', '{}'],
    ]);
    for (const call of result) expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(result[0]?.id).not.toBe(result[1]?.id);
  });

  it('takes the name from a later piece when the first had none', async () => {
    expect(
      await calls([
        { tool_calls: [{ index: 0, id: 'call_a', function: { arguments: '' } }] },
        { tool_calls: [{ index: 0, function: { name: 'read_file', arguments: '{}' } }] },
      ]),
    ).toEqual([{ id: 'call_a', name: 'read_file', arguments: '{}' }]);
  });
});

describe('stream ends and errors', () => {
  it('accepts a finished stream without [DONE], keeps reasoning from `reasoning` under that name', async () => {
    const server = await serve([{ raw: chatStream([{ reasoning: 'Hmm.' }, { content: 'Hi.' }], { finish: 'stop', done: false }) }]);
    const result = await collect(server.baseUrl, 'chat');
    expect(result.error).toBeUndefined();
    expect(result.items).toEqual([
      { type: 'reasoning', api: 'chat', summary: 'Hmm.', replay: { reasoning: 'Hmm.' } },
      { type: 'assistant', text: 'Hi.' },
    ]);
  });

  it('accepts [DONE] without any finish_reason (the OpenRouter compat variants)', async () => {
    const server = await serve([{ raw: chatStream([{ content: 'Hi.' }], { finish: '', done: true }) }]);
    const result = await collect(server.baseUrl, 'chat');
    expect(result.done?.stopReason).toBe('stop');
    expect(result.text).toBe('Hi.');
  });

  it('fails on an `event: error` even after content', async () => {
    const raw =
      chatStream([{ content: 'Hi' }], { finish: '', done: false }) +
      'event: error\ndata: {"error":{"message":"Overloaded","type":"overloaded_error"}}\n\n';
    const server = await serve([{ raw }]);
    const result = await collect(server.baseUrl, 'chat');
    expect(result.text).toBe('Hi');
    expect(result.error?.kind).toBe('server');
    expect(result.error?.message).toContain('Overloaded');
  });
});

describe('toChatMessages', () => {
  it('groups text, reasoning and calls into one assistant message and results into tool messages', () => {
    expect(
      toChatMessages('Be careful.', [
        { type: 'user', text: 'Read a and b' },
        { type: 'reasoning', api: 'chat', summary: 'Two files.', replay: { reasoning_content: 'Two files.' } },
        { type: 'assistant', text: 'Reading.' },
        { type: 'tool_call', callId: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
        { type: 'tool_call', callId: 'c2', name: 'read_file', arguments: '{"path":"b"}' },
        { type: 'tool_result', callId: 'c1', output: 'A', isError: false },
        { type: 'tool_result', callId: 'c2', output: 'no such file', isError: true },
        { type: 'assistant', text: 'Done.' },
      ]),
    ).toEqual([
      { role: 'system', content: 'Be careful.' },
      { role: 'user', content: 'Read a and b' },
      {
        role: 'assistant',
        reasoning_content: 'Two files.',
        content: 'Reading.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
          { id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'A' },
      { role: 'tool', tool_call_id: 'c2', content: 'no such file' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('drops reasoning another API produced and omits an empty system prompt', () => {
    expect(
      toChatMessages('', [
        { type: 'user', text: 'Hi' },
        { type: 'reasoning', api: 'responses', summary: 's', replay: { type: 'reasoning', id: 'rs_1', summary: [] } },
        { type: 'assistant', text: 'Hello' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
    ]);
  });

  it('is what the provider sends, tools included', async () => {
    const server = await serve([{ text: 'ok' }]);
    await collect(server.baseUrl, 'chat', request([{ type: 'user', text: 'Hi' }]));
    expect(server.requests[0]).toMatchObject({
      model: 'scripted-model',
      messages: [
        { role: 'system', content: 'You are a careful coding agent.' },
        { role: 'user', content: 'Hi' },
      ],
      tools: [{ type: 'function', function: { name: 'read_file', description: 'Read a file in the workspace.' } }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

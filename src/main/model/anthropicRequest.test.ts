import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../../shared/conversation';
import { anthropicRequestBody, toAnthropicMessages } from './anthropicRequest';
import type { ModelRequest, ToolSpec } from './provider';

const tool = (name: string): ToolSpec => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
});
const thinking = { type: 'thinking', thinking: 'Read it first.', signature: 'EoQDsig==' };

function request(items: ConversationItem[], overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-sonnet-4-6',
    instructions: 'Be careful.',
    items,
    tools: [tool('read_file'), tool('list_files')],
    signal: new AbortController().signal,
    ...overrides,
  };
}

const turn1: ConversationItem[] = [{ type: 'user', text: 'Fix it.' }];
const turn2: ConversationItem[] = [
  ...turn1,
  { type: 'reasoning', api: 'anthropic', summary: 'Read it first.', replay: thinking },
  { type: 'assistant', text: 'Reading.' },
  { type: 'tool_call', callId: 'toolu_1', name: 'read_file', arguments: '{"path":"a.txt"}' },
  { type: 'tool_call', callId: 'toolu_2', name: 'list_files', arguments: '' },
  { type: 'tool_result', callId: 'toolu_1', output: 'hello', isError: false },
  { type: 'tool_result', callId: 'toolu_2', output: '', isError: true },
];
const turn3: ConversationItem[] = [
  ...turn2,
  { type: 'user', text: 'Also the docs.' },
  { type: 'assistant', text: 'Done.' },
  { type: 'user', text: 'Thanks.' },
];

describe('toAnthropicMessages', () => {
  it('merges a response into one assistant message, and its results into one user message, results first', () => {
    expect(toAnthropicMessages([...turn2, { type: 'user', text: 'And b.txt.' }])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Fix it.' }] },
      {
        role: 'assistant',
        content: [
          thinking,
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_2', name: 'list_files', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '(no output)', is_error: true },
          { type: 'text', text: 'And b.txt.' },
        ],
      },
    ]);
  });

  it('passes thinking and redacted thinking back unchanged, and drops reasoning from other APIs', () => {
    const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' };
    const messages = toAnthropicMessages([
      { type: 'user', text: 'Hi' },
      { type: 'reasoning', api: 'responses', summary: 'x', replay: { type: 'reasoning', encrypted_content: 'gAAAA' } },
      { type: 'reasoning', api: 'chat', summary: 'y', replay: { reasoning_content: 'y' } },
      { type: 'reasoning', api: 'anthropic', summary: '', replay: redacted },
      { type: 'reasoning', api: 'anthropic', summary: 'no replay' },
      { type: 'assistant', text: 'Hello.' },
    ]);
    expect(messages[1]).toEqual({ role: 'assistant', content: [redacted, { type: 'text', text: 'Hello.' }] });
    expect(JSON.stringify(messages[1]!.content[0])).toBe(JSON.stringify(redacted));
  });

  it('leaves out empty or blank text, and sends arguments that are not a JSON object as {}', () => {
    expect(
      toAnthropicMessages([
        { type: 'user', text: 'Go' },
        { type: 'assistant', text: '' },
        { type: 'assistant', text: ' \n' },
        { type: 'tool_call', callId: 'c1', name: 'read_file', arguments: '{"path": "a.txt"' },
        { type: 'tool_call', callId: 'c2', name: 'read_file', arguments: '[1]' },
      ])[1],
    ).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'c1', name: 'read_file', input: {} },
        { type: 'tool_use', id: 'c2', name: 'read_file', input: {} },
      ],
    });
  });
});

describe('anthropicRequestBody', () => {
  it('marks the last tool, the system block and the last message block for caching (3 of the 4 marks)', () => {
    const body = anthropicRequestBody(request(turn2), { maxTokens: 32_000 });
    expect(body.tools?.map((t) => 'cache_control' in t && t.cache_control)).toEqual([false, { type: 'ephemeral' }]);
    expect(body.system).toEqual([{ type: 'text', text: 'Be careful.', cache_control: { type: 'ephemeral' } }]);
    const last = body.messages.at(-1)!.content as unknown as Array<Record<string, unknown>>;
    expect(last.map((block) => block.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(3);
    expect(body).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 32_000, stream: true });
    expect(body.tools?.[0]).toEqual({
      name: 'read_file',
      description: 'The read_file tool.',
      input_schema: { type: 'object', properties: { path: { type: 'string' } } },
    });
  });

  it('never marks a thinking block, and never changes the replayed one', () => {
    const items: ConversationItem[] = [turn1[0]!, { type: 'reasoning', api: 'anthropic', summary: 's', replay: thinking }];
    const body = anthropicRequestBody(request(items), { maxTokens: 1000 });
    expect(body.messages.at(-1)).toEqual({ role: 'assistant', content: [thinking] });
    expect(thinking).not.toHaveProperty('cache_control');
    const first = anthropicRequestBody(request(turn1), { maxTokens: 1000 });
    expect(turn1[0]).toEqual({ type: 'user', text: 'Fix it.' });
    expect(first.messages[0]!.content).toEqual([{ type: 'text', text: 'Fix it.', cache_control: { type: 'ephemeral' } }]);
  });

  it('keeps everything before "messages" byte-identical as the conversation grows', () => {
    const prefixes = [turn1, turn2, turn3].map((items) => {
      const json = JSON.stringify(anthropicRequestBody(request(items), { maxTokens: 32_000 }));
      return json.slice(0, json.indexOf('"messages":'));
    });
    expect(prefixes[0]).toMatch(/^\{"model":"claude-sonnet-4-6","max_tokens":32000,"stream":true,"tools":\[.*\],"system":\[.*\],$/);
    expect(new Set(prefixes).size).toBe(1);
  });

  it('sends no tools or system when there are none, and thinking only when asked', () => {
    const body = anthropicRequestBody(request(turn1, { tools: [], instructions: '' }), { maxTokens: 10 });
    expect(Object.keys(body)).toEqual(['model', 'max_tokens', 'stream', 'messages']);
    const thinkingBody = anthropicRequestBody(request(turn1), { maxTokens: 20_000, thinking: { type: 'enabled', budget_tokens: 4096 } });
    expect(thinkingBody.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
  });
});

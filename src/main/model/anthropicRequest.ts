import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  ThinkingConfigParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ConversationItem } from '../../shared/conversation';
import type { ModelRequest } from './provider';
import { asObject, asString } from './wire';

/**
 * The Messages request for one turn. What comes first never changes within a session (tools, then
 * the system prompt, written in that order so the JSON is byte-identical up to "messages"), and
 * carries cache_control marks so Anthropic caches it:
 *  1. the last tool: the tool definitions;
 *  2. the system block: tools + system prompt;
 *  3. the last block of the last message: the whole conversation so far, read back next turn.
 * Three of the four marks the API allows.
 */
export function anthropicRequestBody(
  request: ModelRequest,
  options: { maxTokens: number; thinking?: ThinkingConfigParam | null },
): MessageCreateParamsStreaming {
  const tools: Tool[] = request.tools.map((tool, index, all) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters },
    ...(index === all.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
  const system: TextBlockParam[] =
    request.instructions !== '' ? [{ type: 'text', text: request.instructions, cache_control: EPHEMERAL }] : [];
  return {
    model: request.model,
    max_tokens: options.maxTokens,
    stream: true,
    ...(tools.length > 0 ? { tools } : {}),
    ...(system.length > 0 ? { system } : {}),
    ...(options.thinking ? { thinking: options.thinking } : {}),
    messages: markLastBlock(toAnthropicMessages(request.items)),
  };
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** A message as this module builds it: always a list of blocks, so turns can be merged and marked. */
type Turn = MessageParam & { role: 'user' | 'assistant'; content: ContentBlockParam[] };

/**
 * The conversation as Messages. The API wants user and assistant turns to alternate, so items of
 * the same role are merged into one message: the assistant's thinking, text and tool_use blocks
 * of one response; the tool_result blocks of its calls (first, as the API requires) and any
 * message the person sent meanwhile. Thinking blocks go back exactly as they came, signature and
 * all; reasoning from another API means nothing here and is left out.
 */
export function toAnthropicMessages(items: readonly ConversationItem[]): Turn[] {
  const messages: Turn[] = [];
  const add = (role: 'user' | 'assistant', block: ContentBlockParam) => {
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  };

  for (const item of items) {
    switch (item.type) {
      // The API refuses text blocks that are empty or only whitespace.
      case 'user':
        if (item.text.trim() !== '') add('user', { type: 'text', text: item.text });
        break;
      case 'assistant':
        if (item.text.trim() !== '') add('assistant', { type: 'text', text: item.text });
        break;
      case 'reasoning': {
        const block = item.api === 'anthropic' ? replayedThinking(item.replay) : undefined;
        if (block) add('assistant', block);
        break;
      }
      case 'tool_call':
        add('assistant', { type: 'tool_use', id: item.callId, name: item.name, input: toolInput(item.arguments) });
        break;
      case 'tool_result':
        add('user', {
          type: 'tool_result',
          tool_use_id: item.callId,
          // A blank result is refused when it is an error; say there was nothing instead.
          content: item.output.trim() === '' ? '(no output)' : item.output,
          ...(item.isError ? { is_error: true } : {}),
        });
        break;
    }
  }
  return messages;
}

/** The thinking or redacted_thinking block as the stream gave it, or nothing if it is not one. */
function replayedThinking(replay: unknown): ContentBlockParam | undefined {
  const block = asObject(replay);
  const type = asString(block?.type);
  if (type === 'thinking' && typeof block?.thinking === 'string' && typeof block.signature === 'string') {
    return block as unknown as ContentBlockParam;
  }
  if (type === 'redacted_thinking' && typeof block?.data === 'string') return block as unknown as ContentBlockParam;
  return undefined;
}

/**
 * tool_use input must be an object. Arguments that are not a JSON object (the model wrote broken
 * JSON, which the loop already answered with an error) go back as an empty one.
 */
function toolInput(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return asObject(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A copy of the messages whose last cacheable block carries cache_control, so the next request
 * reads the whole conversation so far from the cache. Thinking blocks cannot carry the mark.
 */
function markLastBlock(messages: Turn[]): Turn[] {
  const last = messages.at(-1);
  if (!last) return messages;
  const content = [...last.content];
  for (let i = content.length - 1; i >= 0; i--) {
    const block = content[i]!;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    content[i] = Object.assign({}, block, { cache_control: EPHEMERAL }) as ContentBlockParam;
    return [...messages.slice(0, -1), { ...last, content }];
  }
  return messages;
}

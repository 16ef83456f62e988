import type { ConversationItem, Usage } from '../../shared/conversation';
import type { CallIdAllocator } from './callIds';
import { streamErrorToModelError, type ModelErrorContext } from './errors';
import type { ModelEvent } from './provider';
import { asCount, asNumber, asObject, asString, type WireObject } from './wire';

/** One content block while it streams, keyed by its index. */
interface Block {
  type: string;
  start: WireObject;
  text: string;
  thinking: string;
  signature: string;
  json: string;
}

/**
 * Folds Messages stream events (message_start, content_block_start/delta/stop, message_delta,
 * message_stop, ping, error) into deltas and, at message_stop, one `done`. Events are read by the
 * `type` inside their data, since copies of streams that kept only the data lines are as valid as
 * the original; fields are read loosely, and block types an agent does not use (server_tool_use,
 * tool search results, citations) are passed over.
 */
export class AnthropicStreamState {
  private readonly blocks = new Map<number, Block>();
  private usage: Record<string, unknown> = {};
  private stopReason: string | undefined;
  private lastThinkingIndex: number | undefined;
  /** A message_delta carried the stop reason: everything the model said has arrived. */
  get finished(): boolean {
    return this.stopReason !== undefined;
  }

  constructor(private readonly ids: CallIdAllocator) {}

  /** Handles one event; returns the deltas it gives, and `done` once the message is complete. */
  handle(event: WireObject, ctx: ModelErrorContext): { deltas: ModelEvent[]; done?: ModelEvent } {
    switch (asString(event.type)) {
      case 'message_start': {
        const message = asObject(event.message) ?? {};
        this.usage = { ...(asObject(message.usage) ?? {}) };
        return { deltas: [] };
      }
      case 'content_block_start': {
        const start = asObject(event.content_block) ?? {};
        const block: Block = { type: asString(start.type) ?? '', start, text: '', thinking: '', signature: '', json: '' };
        this.blocks.set(this.indexOf(event), block);
        const deltas: ModelEvent[] = [];
        // A second thinking block (thinking between tool calls) reads as a new paragraph.
        if (block.type === 'thinking' && this.lastThinkingIndex !== undefined) deltas.push({ type: 'reasoning_delta', text: '\n\n' });
        if (block.type === 'thinking') this.lastThinkingIndex = this.indexOf(event);
        return { deltas };
      }
      case 'content_block_delta':
        return { deltas: this.delta(event) };
      case 'message_delta': {
        const delta = asObject(event.delta) ?? {};
        this.stopReason = asString(delta.stop_reason) ?? this.stopReason ?? 'end_turn';
        // The final counts; later servers repeat the input counts here, and they can grow (server tools).
        for (const [key, value] of Object.entries(asObject(event.usage) ?? {})) {
          if (value !== null && value !== undefined) this.usage[key] = value;
        }
        return { deltas: [] };
      }
      case 'message_stop':
        return { deltas: [], done: this.done() };
      case 'error':
        throw streamErrorToModelError(event, ctx);
      default:
        // ping, and event types this reader does not know.
        return { deltas: [] };
    }
  }

  private indexOf(event: WireObject): number {
    return asNumber(event.index) ?? Math.max(-1, ...this.blocks.keys()) + 1;
  }

  private delta(event: WireObject): ModelEvent[] {
    const block = this.blocks.get(this.indexOf(event));
    const delta = asObject(event.delta) ?? {};
    switch (asString(delta.type)) {
      case 'text_delta': {
        const text = asString(delta.text) ?? '';
        if (block) block.text += text;
        // Text of a block type that is not a message (never seen) is still what the model said.
        return text ? [{ type: 'text_delta', text }] : [];
      }
      case 'thinking_delta': {
        const thinking = asString(delta.thinking) ?? '';
        if (block) block.thinking += thinking;
        return thinking ? [{ type: 'reasoning_delta', text: thinking }] : [];
      }
      case 'signature_delta':
        if (block) block.signature += asString(delta.signature) ?? '';
        return [];
      case 'input_json_delta':
        if (block) block.json += asString(delta.partial_json) ?? '';
        return [];
      default:
        return [];
    }
  }

  /** The message as conversation items, in block order, with the usage and stop reason. */
  done(): ModelEvent {
    const items = [...this.blocks.entries()].sort(([a], [b]) => a - b).flatMap(([, block]) => this.toConversation(block));
    return { type: 'done', items, usage: this.readUsage(), stopReason: this.stopReason ?? 'end_turn' };
  }

  private toConversation(block: Block): ConversationItem[] {
    switch (block.type) {
      case 'text': {
        const text = block.text !== '' ? block.text : (asString(block.start.text) ?? '');
        return text !== '' ? [{ type: 'assistant', text }] : [];
      }
      case 'thinking': {
        const thinking = block.thinking !== '' ? block.thinking : (asString(block.start.thinking) ?? '');
        const signature = block.signature !== '' ? block.signature : (asString(block.start.signature) ?? '');
        // Exactly the block the API wants back on the next turn: type, thinking, signature.
        return [{ type: 'reasoning', api: 'anthropic', summary: thinking, replay: { type: 'thinking', thinking, signature } }];
      }
      case 'redacted_thinking': {
        const data = asString(block.start.data) ?? '';
        return [{ type: 'reasoning', api: 'anthropic', summary: '', replay: { type: 'redacted_thinking', data } }];
      }
      case 'tool_use': {
        // The input streams as JSON text; a call without arguments sends "" (or nothing) and means {}.
        const streamed = block.json.trim();
        const started = asObject(block.start.input);
        const args = streamed !== '' ? block.json : started && Object.keys(started).length > 0 ? JSON.stringify(started) : '{}';
        return [
          { type: 'tool_call', callId: this.ids.claim(asString(block.start.id)), name: asString(block.start.name) ?? '', arguments: args },
        ];
      }
      default:
        // server_tool_use, tool search results and other hosted-tool blocks: the server ran them.
        return [];
    }
  }

  private readUsage(): Usage {
    const fresh = asCount(this.usage.input_tokens);
    const cacheRead = asCount(this.usage.cache_read_input_tokens);
    const cacheWrite = asCount(this.usage.cache_creation_input_tokens);
    return {
      // Anthropic counts cached and newly cached input apart from input_tokens; the total is all three.
      inputTokens: fresh + cacheRead + cacheWrite,
      outputTokens: asCount(this.usage.output_tokens),
      cachedInputTokens: cacheRead,
      reasoningTokens: asCount(asObject(this.usage.output_tokens_details)?.thinking_tokens),
    };
  }
}

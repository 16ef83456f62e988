import type OpenAI from 'openai';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import { zeroUsage, type ConversationItem, type Usage } from '../../shared/conversation';
import { CallIdAllocator } from './callIds';
import type { ModelConfig } from './config';
import { streamErrorToModelError, toModelError, type ModelErrorContext } from './errors';
import { createOpenAIClient, DEFAULT_IDLE_TIMEOUT_MS, errorContext, type ProviderOptions } from './openaiClient';
import { ModelError, type ModelEvent, type ModelProvider, type ModelRequest } from './provider';
import { readServerSentEvents } from './sse';
import { StreamGuard } from './streamGuard';
import { asArray, asCount, asNumber, asObject, asString, isCompleteJson, type WireObject } from './wire';

/**
 * Chat Completions (POST /chat/completions, streamed), for servers without the Responses API:
 * Ollama, LM Studio, vLLM, llama.cpp, OpenRouter, Groq, DeepSeek... The SDK sends the request and
 * reports HTTP errors; the stream itself is decoded here, because these servers bend the format
 * (tool calls split or repeated oddly, errors inside chunks, no finish_reason) and because only the
 * raw stream shows whether `[DONE]` arrived, which is how a cut connection is told from an answer.
 */
export class OpenAIChatProvider implements ModelProvider {
  readonly api = 'chat' as const;
  private readonly client: OpenAI;
  private readonly ctx: ModelErrorContext;

  constructor(
    private readonly config: ModelConfig,
    private readonly options: ProviderOptions = {},
  ) {
    this.client = createOpenAIClient(config, options);
    this.ctx = errorContext(config);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const guard = new StreamGuard(request.signal, this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    const ctx: ModelErrorContext = { ...this.ctx, model: request.model };
    const state = new ChatState(new CallIdAllocator(request.items));
    let started = false;
    let sawDone = false;
    try {
      const response = await this.client.chat.completions.create(this.body(request), { signal: guard.signal }).asResponse();
      started = true;
      if (!response.body) throw new ModelError('bad_response', `${this.config.baseUrl} answered a streaming request with no body.`);
      for await (const sse of readServerSentEvents(response.body)) {
        guard.touch();
        if (sse.data === '[DONE]') {
          sawDone = true;
          break;
        }
        const chunk = this.parse(sse.data);
        if (sse.event === 'error' || asObject(chunk)?.error) throw streamErrorToModelError(chunk, ctx);
        const deltas = state.handle(asObject(chunk) ?? {});
        if (deltas.length > 0) yield* deltas;
      }
    } catch (error) {
      throw guard.interruption(this.config.baseUrl) ?? toModelError(error, ctx, started ? 'stream' : 'request');
    } finally {
      guard.dispose();
    }
    const interrupted = guard.interruption(this.config.baseUrl);
    if (interrupted) throw interrupted;
    // Some servers skip [DONE] and some skip finish_reason; a stream with neither was cut off.
    if (!sawDone && state.finishReason === undefined) {
      throw new ModelError(
        'connection',
        `The stream from ${this.config.baseUrl} (model '${request.model}') ended before the model finished (no finish_reason, no [DONE]); the response is incomplete.`,
      );
    }
    yield state.done();
  }

  private parse(data: string): unknown {
    try {
      return JSON.parse(data);
    } catch {
      throw new ModelError(
        'bad_response',
        `${this.config.baseUrl} sent a stream event that is not valid JSON: ${JSON.stringify(data.slice(0, 200))}. Check that TETHER_BASE_URL points at an OpenAI-compatible API.`,
      );
    }
  }

  private body(request: ModelRequest): ChatCompletionCreateParamsStreaming {
    return {
      model: request.model,
      messages: toChatMessages(request.instructions, request.items),
      ...(request.tools.length > 0
        ? {
            tools: request.tools.map((tool) => ({
              type: 'function' as const,
              function: { name: tool.name, description: tool.description, parameters: tool.parameters },
            })),
          }
        : {}),
      ...(request.cacheKey ? { prompt_cache_key: request.cacheKey } : {}),
      stream: true,
      stream_options: { include_usage: true },
    };
  }
}

/** An assistant message as some servers want it back: with the reasoning it was produced with. */
type AssistantMessage = ChatCompletionAssistantMessageParam & { reasoning_content?: string; reasoning?: string };

/**
 * The conversation as chat messages. A run of assistant text, reasoning and tool calls is one
 * assistant message; reasoning is passed back in the field it came in (DeepSeek requires
 * `reasoning_content` back while a tool-call turn is in progress).
 */
export function toChatMessages(instructions: string, items: readonly ConversationItem[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (instructions !== '') messages.push({ role: 'system', content: instructions });
  let assistant: AssistantMessage | undefined;
  const flush = () => {
    if (assistant) messages.push(assistant);
    assistant = undefined;
  };
  const current = (): AssistantMessage => (assistant ??= { role: 'assistant' });

  for (const item of items) {
    switch (item.type) {
      case 'user':
        flush();
        messages.push({ role: 'user', content: item.text });
        break;
      case 'reasoning': {
        const replay = asObject(item.replay);
        if (item.api !== 'chat' || !replay) break;
        const message = current();
        const content = asString(replay.reasoning_content);
        const reasoning = asString(replay.reasoning);
        if (content !== undefined) message.reasoning_content = (message.reasoning_content ?? '') + content;
        if (reasoning !== undefined) message.reasoning = (message.reasoning ?? '') + reasoning;
        break;
      }
      case 'assistant': {
        const message = current();
        message.content = (typeof message.content === 'string' ? message.content : '') + item.text;
        break;
      }
      case 'tool_call': {
        const message = current();
        const call: ChatCompletionMessageToolCall = {
          id: item.callId,
          type: 'function',
          function: { name: item.name, arguments: item.arguments },
        };
        message.tool_calls = [...(message.tool_calls ?? []), call];
        break;
      }
      case 'tool_result':
        flush();
        messages.push({ role: 'tool', tool_call_id: item.callId, content: item.output });
        break;
    }
  }
  flush();
  return messages;
}

interface CallDraft {
  id: string | undefined;
  name: string;
  arguments: string;
}

/** Folds chat.completion.chunk objects into deltas and, at the end, one `done`. */
class ChatState {
  finishReason: string | undefined;
  private text = '';
  private reasoning = '';
  private reasoningField: 'reasoning_content' | 'reasoning' = 'reasoning_content';
  private usage: Usage | undefined;
  private readonly calls: CallDraft[] = [];
  private readonly byIndex = new Map<number, CallDraft>();

  constructor(private readonly ids: CallIdAllocator) {}

  handle(chunk: WireObject): ModelEvent[] {
    const usage = asObject(chunk.usage) ?? asObject(asObject(chunk.x_groq)?.usage);
    if (usage) this.usage = readUsage(usage);

    const deltas: ModelEvent[] = [];
    for (const rawChoice of asArray(chunk.choices)) {
      const choice = asObject(rawChoice);
      // Tether asks for one completion; a server that sends more gets its first one read.
      if (!choice || (asNumber(choice.index) ?? 0) !== 0) continue;
      const delta = asObject(choice.delta) ?? {};

      const reasoningContent = asString(delta.reasoning_content);
      const reasoning = reasoningContent ?? asString(delta.reasoning);
      if (reasoning) {
        if (this.reasoning === '') this.reasoningField = reasoningContent !== undefined ? 'reasoning_content' : 'reasoning';
        this.reasoning += reasoning;
        deltas.push({ type: 'reasoning_delta', text: reasoning });
      }
      const text = asString(delta.content) || asString(delta.refusal);
      if (text) {
        this.text += text;
        deltas.push({ type: 'text_delta', text });
      }
      asArray(delta.tool_calls).forEach((call, position) => this.toolCallDelta(asObject(call), position));

      const finish = asString(choice.finish_reason);
      if (finish) this.finishReason = finish;
    }
    return deltas;
  }

  /**
   * Tool calls arrive in pieces keyed by `index`. Servers differ: the first index may be 1, a call
   * may be repeated with its id and name (and an empty name "" that must not win), the arguments may
   * come whole in the first piece or as null, and some reuse index 0 for parallel calls with new ids.
   */
  private toolCallDelta(call: WireObject | undefined, position: number): void {
    if (!call) return;
    const index = asNumber(call.index) ?? position;
    const id = asString(call.id) || undefined;
    const fn = asObject(call.function) ?? {};
    const name = asString(fn.name) || undefined;
    const args = asString(fn.arguments);

    let draft = this.byIndex.get(index);
    const repeatsId = draft !== undefined && id !== undefined && draft.id === id;
    if (!draft || (id !== undefined && draft.id !== undefined && draft.id !== id)) {
      draft = { id, name: name ?? '', arguments: '' };
      this.calls.push(draft);
      this.byIndex.set(index, draft);
    } else {
      draft.id ??= id;
      if (draft.name === '' && name) draft.name = name;
    }
    if (args) {
      // A repeat of the whole call carries the whole arguments again: keep one copy, not two.
      const wholeAgain = repeatsId && isCompleteJson(draft.arguments) && isCompleteJson(args);
      draft.arguments = wholeAgain ? args : draft.arguments + args;
    }
  }

  done(): ModelEvent {
    const items: ConversationItem[] = [];
    if (this.reasoning !== '') {
      items.push({ type: 'reasoning', api: 'chat', summary: this.reasoning, replay: { [this.reasoningField]: this.reasoning } });
    }
    if (this.text.trim() !== '') items.push({ type: 'assistant', text: this.text });
    for (const call of this.calls) {
      items.push({
        type: 'tool_call',
        callId: this.ids.claim(call.id),
        name: call.name,
        arguments: call.arguments.trim() === '' ? '{}' : call.arguments,
      });
    }
    return {
      type: 'done',
      items,
      usage: this.usage ?? zeroUsage,
      stopReason: this.finishReason ?? 'stop',
    };
  }
}

function readUsage(usage: WireObject): Usage {
  const prompt = asObject(usage.prompt_tokens_details);
  const completion = asObject(usage.completion_tokens_details);
  return {
    inputTokens: asCount(usage.prompt_tokens),
    outputTokens: asCount(usage.completion_tokens),
    // DeepSeek reports its cache hits under its own name.
    cachedInputTokens: asCount(prompt?.cached_tokens ?? usage.prompt_cache_hit_tokens),
    reasoningTokens: asCount(completion?.reasoning_tokens),
  };
}

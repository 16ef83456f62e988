import type OpenAI from 'openai';
import type { ResponseCreateParamsStreaming, ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { ConversationItem, Usage } from '../../shared/conversation';
import { CallIdAllocator } from './callIds';
import type { ModelConfig } from './config';
import { streamErrorToModelError, toModelError, type ModelErrorContext } from './errors';
import { createOpenAIClient, DEFAULT_IDLE_TIMEOUT_MS, errorContext, type ProviderOptions } from './openaiClient';
import { ModelError, type ModelEvent, type ModelProvider, type ModelRequest } from './provider';
import { StreamGuard } from './streamGuard';
import { asArray, asCount, asJson, asNumber, asObject, asString, type WireObject } from './wire';

export interface ResponsesProviderOptions extends ProviderOptions {
  /**
   * What to ask about reasoning. By default reasoning models (o-series, gpt-5, codex) are asked for
   * summaries so a person can follow along; other models are not, since they refuse the parameter.
   * null sends nothing.
   */
  reasoning?: { effort?: 'minimal' | 'low' | 'medium' | 'high'; summary?: 'auto' | 'concise' | 'detailed' } | null;
}

/**
 * The OpenAI Responses API (POST /responses, streamed). Stateless on purpose: `store: false`, the
 * whole conversation is sent every turn, and reasoning comes back encrypted so it can be replayed
 * byte for byte on the next turn without the server keeping anything.
 */
export class OpenAIResponsesProvider implements ModelProvider {
  readonly api = 'responses' as const;
  private readonly client: OpenAI;
  private readonly ctx: ModelErrorContext;

  constructor(
    private readonly config: ModelConfig,
    private readonly options: ResponsesProviderOptions = {},
  ) {
    this.client = createOpenAIClient(config, options);
    this.ctx = errorContext(config);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const guard = new StreamGuard(request.signal, this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    const ctx: ModelErrorContext = { ...this.ctx, model: request.model };
    const state = new ResponseState(new CallIdAllocator(request.items));
    let started = false;
    try {
      const stream = await this.client.responses.create(this.body(request), { signal: guard.signal });
      started = true;
      for await (const event of stream) {
        guard.touch();
        const outcome = state.handle(event, ctx);
        if (outcome.deltas) yield* outcome.deltas;
        if (outcome.done) {
          yield outcome.done;
          return;
        }
      }
    } catch (error) {
      throw guard.interruption(this.config.baseUrl) ?? toModelError(error, ctx, started ? 'stream' : 'request');
    } finally {
      guard.dispose();
    }
    throw (
      guard.interruption(this.config.baseUrl) ??
      new ModelError(
        'connection',
        `The stream from ${this.config.baseUrl} (model '${request.model}') ended before response.completed; the response is incomplete.`,
      )
    );
  }

  private body(request: ModelRequest): ResponseCreateParamsStreaming {
    const reasoning = this.options.reasoning === undefined ? defaultReasoning(request.model) : this.options.reasoning;
    return {
      model: request.model,
      instructions: request.instructions,
      input: toResponsesInput(request.items),
      ...(request.tools.length > 0
        ? {
            tools: request.tools.map((tool) => ({
              type: 'function' as const,
              name: tool.name,
              description: tool.description,
              parameters: tool.parameters,
              strict: false,
            })),
          }
        : {}),
      ...(reasoning ? { reasoning } : {}),
      include: ['reasoning.encrypted_content'],
      store: false,
      ...(request.cacheKey ? { prompt_cache_key: request.cacheKey } : {}),
      stream: true,
    };
  }
}

function defaultReasoning(model: string): ResponsesProviderOptions['reasoning'] {
  return /^(o\d|gpt-5(?!.*-chat))|codex/i.test(model) ? { summary: 'auto' } : null;
}

/** The conversation as Responses input items. Exported for the request-shape tests. */
export function toResponsesInput(items: readonly ConversationItem[]): ResponseInputItem[] {
  const input: ResponseInputItem[] = [];
  for (const item of items) {
    switch (item.type) {
      case 'user':
        input.push({ type: 'message', role: 'user', content: item.text });
        break;
      case 'assistant':
        input.push({ type: 'message', role: 'assistant', content: item.text });
        break;
      case 'reasoning':
        // Only this API's own items can be replayed; another provider's reasoning means nothing here.
        if (item.api === 'responses' && asObject(item.replay)) input.push(item.replay as unknown as ResponseInputItem);
        break;
      case 'tool_call':
        input.push({ type: 'function_call', call_id: item.callId, name: item.name, arguments: item.arguments });
        break;
      case 'tool_result':
        input.push({ type: 'function_call_output', call_id: item.callId, output: item.output });
        break;
    }
  }
  return input;
}

interface Outcome {
  deltas?: ModelEvent[];
  done?: ModelEvent;
}

/** One output item while it streams, keyed by output_index. */
interface PartialItem {
  item: WireObject;
  text: string;
  arguments: string;
  /** output_item.done arrived: `item` is the final one. */
  finished: boolean;
}

/**
 * Folds Responses stream events into deltas and, at response.completed, one `done`. Events are read
 * loosely: real streams omit fields the SDK types require (sequence_number, logprobs, the name on
 * function_call_arguments.done) and carry item types an agent does not use (tool_search_call...).
 */
class ResponseState {
  private readonly outputs = new Map<number, PartialItem>();
  private readonly indexByItemId = new Map<string, number>();
  private readonly summaryIndex = new Map<number, number>();

  constructor(private readonly ids: CallIdAllocator) {}

  /** Where an event belongs: its output_index, or (servers that leave it out) its item's. */
  private indexOf(event: WireObject): number {
    const index = asNumber(event.output_index);
    if (index !== undefined) return index;
    const itemId = asString(event.item_id) ?? asString(asObject(event.item)?.id);
    const known = itemId !== undefined ? this.indexByItemId.get(itemId) : undefined;
    return known ?? Math.max(-1, ...this.outputs.keys()) + 1;
  }

  handle(raw: ResponseStreamEvent, ctx: ModelErrorContext): Outcome {
    const event = asObject(raw) ?? {};
    switch (asString(event.type)) {
      case 'response.output_item.added':
      case 'response.output_item.done': {
        const item = asObject(event.item);
        if (!item) return {};
        const index = this.indexOf(event);
        const id = asString(item.id);
        if (id !== undefined) this.indexByItemId.set(id, index);
        const partial = this.outputs.get(index);
        this.outputs.set(index, {
          item,
          text: partial?.text ?? '',
          arguments: partial?.arguments ?? '',
          finished: event.type === 'response.output_item.done',
        });
        return {};
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const delta = asString(event.delta) ?? '';
        const partial = this.outputs.get(this.indexOf(event));
        if (partial) partial.text += delta;
        return delta ? { deltas: [{ type: 'text_delta', text: delta }] } : {};
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const index = this.indexOf(event);
        const delta = asString(event.delta) ?? '';
        const deltas: ModelEvent[] = [];
        // Summary parts are paragraphs; keep them apart in the live view as in the stored summary.
        const part = asNumber(event.summary_index);
        if (part !== undefined) {
          const previous = this.summaryIndex.get(index);
          if (previous !== undefined && part !== previous) deltas.push({ type: 'reasoning_delta', text: '\n\n' });
          this.summaryIndex.set(index, part);
        }
        if (delta) deltas.push({ type: 'reasoning_delta', text: delta });
        return { deltas };
      }
      case 'response.function_call_arguments.delta': {
        const partial = this.outputs.get(this.indexOf(event));
        if (partial) partial.arguments += asString(event.delta) ?? '';
        return {};
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = asObject(event.response) ?? {};
        const incomplete = asString(asObject(response.incomplete_details)?.reason);
        return {
          done: {
            type: 'done',
            items: this.finalItems(response),
            usage: readUsage(asObject(response.usage)),
            stopReason: incomplete ?? asString(response.status) ?? 'completed',
          },
        };
      }
      case 'response.failed': {
        const response = asObject(event.response) ?? {};
        throw streamErrorToModelError(response.error ?? { message: 'the response failed without saying why' }, ctx);
      }
      case 'error':
        throw streamErrorToModelError(event, ctx);
      default:
        return {};
    }
  }

  /**
   * Each item as output_item.done gave it: that is the reasoning item to pass back (the API's own
   * advice; the copy in response.completed carries a different encrypted_content). Items the
   * stream never finished, or never announced, are taken from the completed response's output.
   */
  private finalItems(response: WireObject): ConversationItem[] {
    const completed = asArray(response.output)
      .map((item) => asObject(item))
      .filter((item): item is WireObject => item !== undefined)
      .map((item): PartialItem => ({ item, text: '', arguments: '', finished: true }));
    const streamed = [...this.outputs.entries()].sort(([a], [b]) => a - b).map(([, partial]) => partial);
    const idOf = (partial: PartialItem) => asString(partial.item.id);
    const completedById = new Map(completed.map((partial) => [idOf(partial), partial]));
    const streamedIds = new Set(streamed.map(idOf));
    return [
      ...streamed.map((partial) => (partial.finished ? partial : (completedById.get(idOf(partial)) ?? partial))),
      ...completed.filter((partial) => idOf(partial) === undefined || !streamedIds.has(idOf(partial))),
    ].flatMap((partial) => this.toConversation(partial));
  }

  private toConversation({ item, text, arguments: streamedArguments }: PartialItem): ConversationItem[] {
    switch (asString(item.type)) {
      case 'message': {
        const parts = asArray(item.content).map((part) => asObject(part) ?? {});
        const said = parts.map((part) => asString(part.text) ?? asString(part.refusal) ?? '').join('');
        const final = said !== '' ? said : text;
        return final !== '' ? [{ type: 'assistant', text: final }] : [];
      }
      case 'reasoning': {
        const summary = asArray(item.summary)
          .map((part) => asString(asObject(part)?.text) ?? '')
          .filter((part) => part !== '');
        const content = asArray(item.content)
          .map((part) => asString(asObject(part)?.text) ?? '')
          .filter((part) => part !== '');
        return [
          {
            type: 'reasoning',
            api: 'responses',
            summary: (summary.length > 0 ? summary : content).join('\n\n'),
            replay: asJson(item),
          },
        ];
      }
      case 'function_call': {
        const args = asString(item.arguments) || streamedArguments;
        return [
          {
            type: 'tool_call',
            callId: this.ids.claim(asString(item.call_id) ?? asString(item.id)),
            name: asString(item.name) ?? '',
            arguments: args.trim() === '' ? '{}' : args,
          },
        ];
      }
      default:
        return [];
    }
  }
}

function readUsage(usage: WireObject | undefined): Usage {
  return {
    inputTokens: asCount(usage?.input_tokens),
    outputTokens: asCount(usage?.output_tokens),
    cachedInputTokens: asCount(asObject(usage?.input_tokens_details)?.cached_tokens),
    reasoningTokens: asCount(asObject(usage?.output_tokens_details)?.reasoning_tokens),
  };
}

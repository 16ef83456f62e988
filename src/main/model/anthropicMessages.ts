import type Anthropic from '@anthropic-ai/sdk';
import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import { createAnthropicClient } from './anthropicClient';
import { anthropicErrorToModelError } from './anthropicErrors';
import { defaultMaxTokens } from './anthropicMaxTokens';
import { anthropicRequestBody } from './anthropicRequest';
import { AnthropicStreamState } from './anthropicStream';
import { CallIdAllocator } from './callIds';
import type { ModelConfig } from './config';
import type { ModelErrorContext } from './errors';
import { DEFAULT_IDLE_TIMEOUT_MS, errorContext, type ProviderOptions } from './openaiClient';
import { ModelError, type ModelEvent, type ModelProvider, type ModelRequest } from './provider';
import { readServerSentEvents } from './sse';
import { StreamGuard } from './streamGuard';
import { asObject } from './wire';

export interface AnthropicProviderOptions extends ProviderOptions {
  /**
   * Extended thinking, sent as given (`{type: 'adaptive'}`, `{type: 'enabled', budget_tokens}`).
   * Off by default: a model that does not support the kind asked for refuses the whole request.
   */
  thinking?: ThinkingConfigParam | null;
}

/**
 * Anthropic Messages (POST /v1/messages, streamed). The SDK sends the request and reports HTTP
 * errors; the stream is decoded here, as for Chat Completions, so that a stream copied without its
 * `event:` lines still reads, and so a stream that stops before message_stop is told from an answer.
 */
export class AnthropicMessagesProvider implements ModelProvider {
  readonly api = 'anthropic' as const;
  private readonly client: Anthropic;
  private readonly ctx: ModelErrorContext;

  constructor(
    private readonly config: ModelConfig,
    private readonly options: AnthropicProviderOptions = {},
  ) {
    this.client = createAnthropicClient(config, options);
    this.ctx = errorContext(config);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const guard = new StreamGuard(request.signal, this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    const ctx: ModelErrorContext = { ...this.ctx, model: request.model };
    const state = new AnthropicStreamState(new CallIdAllocator(request.items));
    const body = anthropicRequestBody(request, {
      maxTokens: this.config.maxTokens ?? defaultMaxTokens(request.model),
      thinking: this.options.thinking ?? null,
    });
    let started = false;
    try {
      const response = await this.client.messages.create(body, { signal: guard.signal }).asResponse();
      started = true;
      if (!response.body) throw new ModelError('bad_response', `${this.config.baseUrl} answered a streaming request with no body.`);
      for await (const sse of readServerSentEvents(response.body)) {
        guard.touch();
        const event = this.parse(sse.data);
        // The data's own type names the event; an `event: error` line with an odd body still fails.
        const typed = sse.event === 'error' && event.type !== 'error' ? { type: 'error', error: event } : event;
        const { deltas, done } = state.handle(typed, ctx);
        if (deltas.length > 0) yield* deltas;
        if (done) {
          yield done;
          return;
        }
      }
    } catch (error) {
      throw guard.interruption(this.config.baseUrl) ?? anthropicErrorToModelError(error, ctx, started ? 'stream' : 'request');
    } finally {
      guard.dispose();
    }
    const interrupted = guard.interruption(this.config.baseUrl);
    if (interrupted) throw interrupted;
    // message_delta carries the stop reason after the last block: a stream cut after it lost nothing.
    if (state.finished) {
      yield state.done();
      return;
    }
    throw new ModelError(
      'connection',
      `The stream from ${this.config.baseUrl} (model '${request.model}') ended before message_stop; the response is incomplete.`,
    );
  }

  private parse(data: string): Record<string, unknown> {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      throw new ModelError(
        'bad_response',
        `${this.config.baseUrl} sent a stream event that is not valid JSON: ${JSON.stringify(data.slice(0, 200))}. Check that TETHER_BASE_URL points at an Anthropic Messages API.`,
      );
    }
    return { ...(asObject(value) ?? {}) };
  }
}

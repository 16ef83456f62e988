import OpenAI from 'openai';
import type { ModelConfig } from './config';
import type { ModelErrorContext } from './errors';

/** Options a test or a host may set on either provider. */
export interface ProviderOptions {
  /** No bytes for this long in the middle of a stream means the connection is dead (default 5 minutes). */
  idleTimeoutMs?: number;
  /** How long to wait for the response headers (default 10 minutes, the SDK's own). */
  requestTimeoutMs?: number;
  /** Replaces global fetch (tests). */
  fetch?: typeof fetch;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * The openai SDK client both providers use. It never retries (withRetries owns that, so the loop
 * sees one policy and one log line per retry), and it never reads OPENAI_* variables behind our back.
 */
export function createOpenAIClient(config: ModelConfig, options: ProviderOptions = {}): OpenAI {
  return new OpenAI({
    baseURL: config.baseUrl,
    // Local servers (Ollama, LM Studio) want no key, but the SDK refuses to start without one.
    apiKey: config.apiKey ?? 'no-key',
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    // Every failure comes back as a ModelError with the details; the SDK's console lines would only repeat it.
    logLevel: 'off',
    ...(options.requestTimeoutMs !== undefined ? { timeout: options.requestTimeoutMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export function errorContext(config: ModelConfig): ModelErrorContext {
  return { baseUrl: config.baseUrl, model: config.model, api: config.api, apiKeySet: config.apiKey !== undefined };
}

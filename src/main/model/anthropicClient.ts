import Anthropic from '@anthropic-ai/sdk';
import type { ModelConfig } from './config';
import type { ProviderOptions } from './openaiClient';

/**
 * The @anthropic-ai/sdk client for one configuration. Like the OpenAI one it never retries
 * (withRetries owns that) and reads nothing from the environment behind our back: no
 * ANTHROPIC_BASE_URL, no profile or credential files, no telemetry settings.
 */
export function createAnthropicClient(config: ModelConfig, options: ProviderOptions = {}): Anthropic {
  return new Anthropic({
    baseURL: anthropicRoot(config.baseUrl),
    // A key is always passed, so the SDK never goes looking for credentials on disk; a server that
    // wants none (a local proxy) ignores it, and a real one answers 401, which says what to set.
    apiKey: config.apiKey ?? 'no-key',
    webhookKey: null,
    maxRetries: 0,
    logLevel: 'off',
    openTelemetry: false,
    ...(options.requestTimeoutMs !== undefined ? { timeout: options.requestTimeoutMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/**
 * The SDK adds /v1/messages to the root itself. A base URL written the OpenAI way, ending in /v1
 * (as TETHER_BASE_URL usually is), names the same server, so both spellings work.
 */
export function anthropicRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

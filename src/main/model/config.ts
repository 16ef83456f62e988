import { ModelApi } from '../../shared/conversation';
import { keyEnvForUrl } from '../../shared/providers';

/**
 * Where the model lives and how to talk to it. Flags win over the environment; the key never goes
 * into the store or the log.
 */
export interface ModelConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  api: ModelApi;
  /**
   * The most tokens one response may have. Sent to Anthropic, which requires it (a default per model
   * when unset); the OpenAI APIs are left to the server's own limit.
   */
  maxTokens?: number;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-5.1-codex';
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';

export interface ModelFlags {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  api?: string;
  maxTokens?: string | number;
}

export function resolveModelConfig(flags: ModelFlags, env: NodeJS.ProcessEnv = process.env): ModelConfig {
  const requested = flags.api ?? env.TETHER_API ?? 'responses';
  const parsed = ModelApi.safeParse(requested);
  if (!parsed.success) {
    throw new Error(
      `Unknown API "${requested}": use "responses" (the OpenAI Responses API), "chat" (Chat Completions) or "anthropic" (Anthropic Messages).`,
    );
  }
  const api = parsed.data;
  const anthropic = api === 'anthropic';
  const maxTokens = parseMaxTokens(flags.maxTokens ?? nonEmpty(env.TETHER_MAX_TOKENS));
  const baseUrl = stripTrailingSlash(
    flags.baseUrl ?? nonEmpty(env.TETHER_BASE_URL) ?? (anthropic ? DEFAULT_ANTHROPIC_BASE_URL : DEFAULT_BASE_URL),
  );
  // A named provider's host gets only its own variable: an OpenAI key never goes to Gloo, nor Gloo's to OpenAI.
  const hostKeyEnv = keyEnvForUrl(baseUrl);
  return {
    baseUrl,
    apiKey:
      flags.apiKey ??
      nonEmpty(env.TETHER_API_KEY) ??
      (hostKeyEnv
        ? nonEmpty(env[hostKeyEnv])
        : anthropic
          ? nonEmpty(env.ANTHROPIC_API_KEY)
          : (nonEmpty(env.OPENAI_API_KEY) ?? nonEmpty(env.GLOO_API_KEY))),
    model: flags.model ?? nonEmpty(env.TETHER_MODEL) ?? (anthropic ? DEFAULT_ANTHROPIC_MODEL : DEFAULT_MODEL),
    api,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

function parseMaxTokens(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`The maximum output tokens must be a whole number of 1 or more, not "${value}" (--max-tokens or TETHER_MAX_TOKENS).`);
  }
  return n;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

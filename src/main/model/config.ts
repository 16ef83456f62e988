/**
 * Where the model lives and how to talk to it. Flags win over the environment; the key never goes
 * into the store or the log.
 */
export interface ModelConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  api: 'responses' | 'chat';
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-5.1-codex';

export interface ModelFlags {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  api?: string;
}

export function resolveModelConfig(flags: ModelFlags, env: NodeJS.ProcessEnv = process.env): ModelConfig {
  const api = flags.api ?? env.TETHER_API ?? 'responses';
  if (api !== 'responses' && api !== 'chat') {
    throw new Error(`Unknown API "${api}": use "responses" (the OpenAI Responses API) or "chat" (Chat Completions).`);
  }
  return {
    baseUrl: stripTrailingSlash(flags.baseUrl ?? env.TETHER_BASE_URL ?? DEFAULT_BASE_URL),
    apiKey: flags.apiKey ?? nonEmpty(env.TETHER_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY) ?? nonEmpty(env.GLOO_API_KEY),
    model: flags.model ?? nonEmpty(env.TETHER_MODEL) ?? DEFAULT_MODEL,
    api,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

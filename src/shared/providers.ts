import type { ModelApi } from './conversation';

/**
 * The model providers the welcome offers by name, and which environment variable holds each one's
 * key. One table: the welcome and Settings draw it, main reads the key variable from it, so a key
 * meant for one host is never sent to another because of a fallback.
 */
export interface ProviderPreset {
  id: 'gloo' | 'gloo-anthropic' | 'openai' | 'anthropic' | 'ollama' | 'lmstudio' | 'custom';
  name: string;
  /** One line on what it is. */
  blurb: string;
  /** Empty for "any OpenAI-compatible URL": the person types it. */
  baseUrl: string;
  api: ModelApi;
  /** The environment variable main reads the key from when none is stored; absent: no key is needed or only TETHER_API_KEY. */
  keyEnv?: 'GLOO_API_KEY' | 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY';
  /** Whether the provider wants a key at all (local servers do not). */
  needsKey: boolean;
  /** A model to start with when the listing gives no better idea. */
  suggestedModel?: string;
  /** A server on this machine, found by the probe rather than chosen blind. */
  local?: true;
}

export const GLOO_BASE_URL = 'https://platform.ai.gloo.com/ai/v2/direct';

export const PROVIDERS: readonly ProviderPreset[] = [
  {
    id: 'gloo',
    name: 'Gloo AI',
    blurb: 'Gloo’s OpenAI-compatible endpoint (Chat Completions). Key from GLOO_API_KEY or typed here.',
    baseUrl: GLOO_BASE_URL,
    api: 'chat',
    keyEnv: 'GLOO_API_KEY',
    needsKey: true,
  },
  {
    id: 'gloo-anthropic',
    name: 'Gloo AI (Anthropic Messages)',
    blurb: 'Gloo’s Anthropic Messages endpoint, for Claude models. Key from GLOO_API_KEY or typed here.',
    baseUrl: `${GLOO_BASE_URL}/anthropic`,
    api: 'anthropic',
    keyEnv: 'GLOO_API_KEY',
    needsKey: true,
  },
  {
    id: 'openai',
    name: 'OpenAI',
    blurb: 'OpenAI’s Responses API. Key from OPENAI_API_KEY or typed here.',
    baseUrl: 'https://api.openai.com/v1',
    api: 'responses',
    keyEnv: 'OPENAI_API_KEY',
    needsKey: true,
    suggestedModel: 'gpt-5.1-codex',
  },
  {
    id: 'anthropic',
    name: 'Anthropic',
    blurb: 'Claude through Anthropic Messages. Key from ANTHROPIC_API_KEY or typed here.',
    baseUrl: 'https://api.anthropic.com',
    api: 'anthropic',
    keyEnv: 'ANTHROPIC_API_KEY',
    needsKey: true,
    suggestedModel: 'claude-sonnet-4-6',
  },
  {
    id: 'ollama',
    name: 'Ollama',
    blurb: 'Models running on this machine with Ollama (port 11434). No key.',
    baseUrl: 'http://127.0.0.1:11434/v1',
    api: 'chat',
    needsKey: false,
    local: true,
  },
  {
    id: 'lmstudio',
    name: 'LM Studio',
    blurb: 'Models running on this machine with LM Studio’s server (port 1234). No key.',
    baseUrl: 'http://127.0.0.1:1234/v1',
    api: 'chat',
    needsKey: false,
    local: true,
  },
  {
    id: 'custom',
    name: 'Another OpenAI-compatible server',
    blurb: 'vLLM, OpenRouter, a gateway: any URL that speaks Chat Completions or Responses.',
    baseUrl: '',
    api: 'chat',
    needsKey: false,
  },
];

/** The hosts whose keys live in a variable of their own. */
const KEY_ENV_BY_HOST: Readonly<Record<string, NonNullable<ProviderPreset['keyEnv']>>> = {
  'platform.ai.gloo.com': 'GLOO_API_KEY',
  'api.openai.com': 'OPENAI_API_KEY',
  'api.anthropic.com': 'ANTHROPIC_API_KEY',
};

/** The variable that holds the key for the host of `baseUrl`, when that host is one of the named providers (over https only). */
export function keyEnvForUrl(baseUrl: string): ProviderPreset['keyEnv'] {
  const url = parsed(baseUrl);
  return url?.protocol === 'https:' ? KEY_ENV_BY_HOST[url.hostname.toLowerCase()] : undefined;
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

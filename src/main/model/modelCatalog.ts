import * as openaiCatalog from 'gpt-tokenizer/models';
import type { Usage } from '../../shared/conversation';
import type { ModelOverride } from '../settings/appSettings';

/**
 * What Tether knows about a model without asking it: how long its context window is and what its
 * tokens cost. The person's settings win over the built-in table; a model found in neither has no
 * price (its cost is shown as unknown, never guessed) and an assumed window.
 */

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  /** Input tokens served from the provider's prompt cache. */
  cachedInput: number;
  /** Output tokens, reasoning included (the providers bill it as output). */
  output: number;
}

export interface ModelProfile {
  contextWindow: number;
  /** False when the window is the fallback: the meter says "assumed" and settings can fix it. */
  contextWindowKnown: boolean;
  price?: ModelPrice;
}

export type { ModelOverride } from '../settings/appSettings';

/**
 * A common size for local models (Ollama, LM Studio): compacting early costs a summary, overflowing
 * costs the session.
 */
export const FALLBACK_CONTEXT_WINDOW = 32_768;

interface CatalogEntry {
  contextWindow?: number;
  price?: ModelPrice;
}

const price = (input: number, cachedInput: number, output: number): ModelPrice => ({ input, cachedInput, output });

/**
 * Published list prices (USD per 1M tokens), checked in November 2025. Keys match a model id or the
 * start of one (`gpt-4.1` matches `gpt-4.1-2025-04-14`, never `gpt-4.10`); the longest key wins, so
 * `gpt-4.1-mini` is not billed as `gpt-4.1`.
 */
const CATALOG: Record<string, CatalogEntry> = {
  'gpt-5': { contextWindow: 400_000, price: price(1.25, 0.125, 10) },
  'gpt-5-codex': { contextWindow: 400_000, price: price(1.25, 0.125, 10) },
  'gpt-5-mini': { contextWindow: 400_000, price: price(0.25, 0.025, 2) },
  // The -pro models have no cache discount, and must not be billed as their base model.
  'gpt-5-pro': { contextWindow: 400_000, price: price(15, 15, 120) },
  'gpt-5-nano': { contextWindow: 400_000, price: price(0.05, 0.005, 0.4) },
  'gpt-5.1': { contextWindow: 400_000, price: price(1.25, 0.125, 10) },
  'gpt-5.1-codex-mini': { contextWindow: 400_000, price: price(0.25, 0.025, 2) },
  'gpt-4.1': { contextWindow: 1_047_576, price: price(2, 0.5, 8) },
  'gpt-4.1-mini': { contextWindow: 1_047_576, price: price(0.4, 0.1, 1.6) },
  'gpt-4.1-nano': { contextWindow: 1_047_576, price: price(0.1, 0.025, 0.4) },
  'gpt-4o': { contextWindow: 128_000, price: price(2.5, 1.25, 10) },
  'gpt-4o-mini': { contextWindow: 128_000, price: price(0.15, 0.075, 0.6) },
  o1: { contextWindow: 200_000, price: price(15, 7.5, 60) },
  'o1-mini': { contextWindow: 128_000, price: price(1.1, 0.55, 4.4) },
  'o1-pro': { contextWindow: 200_000, price: price(150, 150, 600) },
  o3: { contextWindow: 200_000, price: price(2, 0.5, 8) },
  'o3-pro': { contextWindow: 200_000, price: price(20, 20, 80) },
  'o3-mini': { contextWindow: 200_000, price: price(1.1, 0.55, 4.4) },
  'o4-mini': { contextWindow: 200_000, price: price(1.1, 0.275, 4.4) },
  // Anthropic bills cache reads at a tenth of the input price.
  'claude-opus-4-5': { contextWindow: 200_000, price: price(5, 0.5, 25) },
  'claude-opus-4-1': { contextWindow: 200_000, price: price(15, 1.5, 75) },
  'claude-opus-4': { contextWindow: 200_000, price: price(15, 1.5, 75) },
  'claude-sonnet-4': { contextWindow: 200_000, price: price(3, 0.3, 15) },
  'claude-haiku-4-5': { contextWindow: 200_000, price: price(1, 0.1, 5) },
  'claude-3-7-sonnet': { contextWindow: 200_000, price: price(3, 0.3, 15) },
  'claude-3-5-sonnet': { contextWindow: 200_000, price: price(3, 0.3, 15) },
  'claude-3-5-haiku': { contextWindow: 200_000, price: price(0.8, 0.08, 4) },
  'claude-3-opus': { contextWindow: 200_000, price: price(15, 1.5, 75) },
  'claude-3-haiku': { contextWindow: 200_000, price: price(0.25, 0.03, 1.25) },
  // Local models: windows only. What a local server costs is for the person to say in settings.
  llama3: { contextWindow: 8_192 },
  'llama3.1': { contextWindow: 131_072 },
  'llama3.2': { contextWindow: 131_072 },
  'llama3.3': { contextWindow: 131_072 },
  llama4: { contextWindow: 131_072 },
  'qwen2.5': { contextWindow: 32_768 },
  'qwen2.5-coder': { contextWindow: 32_768 },
  qwen3: { contextWindow: 40_960 },
  'qwen3-coder': { contextWindow: 262_144 },
  'gpt-oss': { contextWindow: 131_072 },
  mistral: { contextWindow: 32_768 },
  devstral: { contextWindow: 131_072 },
  'deepseek-coder-v2': { contextWindow: 163_840 },
  'gemini-2.5': { contextWindow: 1_048_576 },
};

const CATALOG_KEYS = Object.keys(CATALOG).sort((a, b) => b.length - a.length);

/** The profile of `model`: settings first, then the built-in table, then OpenAI's catalog (windows only). */
export function modelProfile(model: string, overrides: Record<string, ModelOverride> = {}): ModelProfile {
  const override = overrides[model];
  const entry = catalogEntry(model);
  const contextWindow = override?.contextWindow ?? entry?.contextWindow ?? openaiContextWindow(model);
  const profile: ModelProfile = {
    contextWindow: contextWindow ?? FALLBACK_CONTEXT_WINDOW,
    contextWindowKnown: contextWindow !== undefined,
  };
  const chosen = overridePrice(override) ?? entry?.price;
  if (chosen) profile.price = chosen;
  return profile;
}

/**
 * What `usage` cost at `price`, in US dollars; undefined without a price. Cached input tokens are a
 * part of the input tokens (that is how OpenAI reports them), billed at the cached price.
 */
export function costOf(usage: Usage, modelPrice: ModelPrice | undefined): number | undefined {
  if (!modelPrice) return undefined;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const dollars =
    (usage.inputTokens - cached) * modelPrice.input + cached * modelPrice.cachedInput + usage.outputTokens * modelPrice.output;
  return dollars / 1_000_000;
}

function overridePrice(override: ModelOverride | undefined): ModelPrice | undefined {
  if (override?.inputPrice === undefined || override.outputPrice === undefined) return undefined;
  return price(override.inputPrice, override.cachedInputPrice ?? override.inputPrice, override.outputPrice);
}

/** Ids come as `gpt-4.1`, `gpt-4.1-2025-04-14`, `openai/gpt-4.1` (gateways) or `qwen3:8b` (Ollama). */
function catalogEntry(model: string): CatalogEntry | undefined {
  const id = baseId(model);
  const key = CATALOG_KEYS.find(
    (candidate) =>
      id === candidate ||
      (id.startsWith(candidate) && /^[-:@._/]/.test(id.slice(candidate.length)) && !/^\.\d/.test(id.slice(candidate.length))),
  );
  return key === undefined ? undefined : CATALOG[key];
}

function openaiContextWindow(model: string): number | undefined {
  const spec: unknown = (openaiCatalog as Record<string, unknown>)[baseId(model)];
  if (typeof spec !== 'object' || spec === null) return undefined;
  const window = (spec as { context_window?: unknown }).context_window;
  return typeof window === 'number' && window > 0 ? window : undefined;
}

function baseId(model: string): string {
  return (model.split('/').at(-1) ?? model).toLowerCase();
}

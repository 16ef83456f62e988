import { describe, expect, it } from 'vitest';
import { costOf, FALLBACK_CONTEXT_WINDOW, modelProfile } from './modelCatalog';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  reasoningTokens: 0,
});

describe('modelProfile', () => {
  it('knows the common models, dated and prefixed ids included, and never bills a variant as its base model', () => {
    expect(modelProfile('gpt-4.1')).toMatchObject({
      contextWindow: 1_047_576,
      contextWindowKnown: true,
      price: { input: 2, cachedInput: 0.5, output: 8 },
    });
    expect(modelProfile('gpt-4.1-2025-04-14').price).toEqual(modelProfile('gpt-4.1').price);
    expect(modelProfile('openai/gpt-4.1-mini').price).toEqual({ input: 0.4, cachedInput: 0.1, output: 1.6 });
    expect(modelProfile('gpt-4o-mini').price?.input).toBe(0.15);
    expect(modelProfile('gpt-5').contextWindow).toBe(400_000);
    expect(modelProfile('o3-pro').price?.input).toBe(20);
    expect(modelProfile('claude-sonnet-4-5-20250929')).toMatchObject({
      contextWindow: 200_000,
      price: { input: 3, cachedInput: 0.3, output: 15 },
    });
    expect(modelProfile('claude-opus-4-5-20251101').price?.input).toBe(5);
    expect(modelProfile('claude-opus-4-1-20250805').price?.input).toBe(15);
    expect(modelProfile('qwen2.5-coder:7b')).toMatchObject({ contextWindow: 32_768, contextWindowKnown: true });
    expect(modelProfile('qwen2.5-coder:7b').price).toBeUndefined();
    expect(modelProfile('llama3.1:8b').contextWindow).toBe(131_072);
    expect(modelProfile('llama3:8b').contextWindow).toBe(8_192);
  });

  it('has no price and an assumed window for a model it does not know', () => {
    const profile = modelProfile('my-finetune');
    expect(profile).toEqual({ contextWindow: FALLBACK_CONTEXT_WINDOW, contextWindowKnown: false });
    // A newer version is not billed at an older one's price.
    expect(modelProfile('gpt-5.2').price).toBeUndefined();
  });

  it("takes the person's settings over the defaults", () => {
    const profile = modelProfile('gpt-4o', { 'gpt-4o': { contextWindow: 64_000, inputPrice: 1, outputPrice: 4 } });
    expect(profile).toEqual({ contextWindow: 64_000, contextWindowKnown: true, price: { input: 1, cachedInput: 1, output: 4 } });
    expect(modelProfile('local', { local: { inputPrice: 0, outputPrice: 0 } }).price).toEqual({ input: 0, cachedInput: 0, output: 0 });
  });
});

describe('costOf', () => {
  it('bills cached input at the cached price and the rest at the input price', () => {
    // gpt-4.1: 10,000 in of which 6,000 cached, 2,000 out = 4,000 × $2 + 6,000 × $0.50 + 2,000 × $8 per million.
    expect(costOf(usage(10_000, 2_000, 6_000), modelProfile('gpt-4.1').price)).toBeCloseTo(0.027, 12);
    expect(costOf(usage(1_000_000, 0), modelProfile('claude-sonnet-4-20250514').price)).toBeCloseTo(3, 12);
  });

  it('is unknown, not zero, without a price', () => {
    expect(costOf(usage(10_000, 2_000), modelProfile('my-finetune').price)).toBeUndefined();
  });
});

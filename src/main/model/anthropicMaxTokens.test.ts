import { describe, expect, it } from 'vitest';
import { defaultMaxTokens } from './anthropicMaxTokens';

describe('defaultMaxTokens', () => {
  it('gives each Claude family a limit it accepts', () => {
    expect(defaultMaxTokens('claude-3-haiku-20240307')).toBe(4096);
    expect(defaultMaxTokens('claude-3-opus-latest')).toBe(4096);
    expect(defaultMaxTokens('claude-3-5-sonnet-20241022')).toBe(8192);
    expect(defaultMaxTokens('claude-3-7-sonnet-latest')).toBe(8192);
    expect(defaultMaxTokens('claude-opus-4-1-20250805')).toBe(32_000);
    expect(defaultMaxTokens('claude-sonnet-4-6')).toBe(32_000);
    expect(defaultMaxTokens('claude-haiku-4-5-20251001')).toBe(32_000);
    expect(defaultMaxTokens('claude-opus-5-5')).toBe(32_000);
    expect(defaultMaxTokens('anthropic.claude-sonnet-4-5-v1:0')).toBe(32_000);
  });

  it('gives a model it does not know a limit every recent model accepts', () => {
    expect(defaultMaxTokens('scripted-model')).toBe(8192);
    expect(defaultMaxTokens('claude-mythos-preview')).toBe(8192);
  });
});

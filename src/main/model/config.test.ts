import { describe, expect, it } from 'vitest';
import { resolveModelConfig } from './config';

describe('resolveModelConfig', () => {
  it('defaults to the OpenAI Responses API, with OPENAI_API_KEY as the fallback key', () => {
    expect(resolveModelConfig({}, { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' })).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-o',
      model: 'gpt-5.1-codex',
      api: 'responses',
    });
  });

  it('anthropic: Anthropic base URL and model by default, TETHER_API_KEY else ANTHROPIC_API_KEY', () => {
    expect(resolveModelConfig({ api: 'anthropic' }, { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' })).toEqual({
      baseUrl: 'https://api.anthropic.com',
      apiKey: 'sk-a',
      model: 'claude-sonnet-4-6',
      api: 'anthropic',
    });
    expect(resolveModelConfig({}, { TETHER_API: 'anthropic', TETHER_API_KEY: 'sk-t', ANTHROPIC_API_KEY: 'sk-a' }).apiKey).toBe('sk-t');
    expect(resolveModelConfig({ api: 'anthropic', baseUrl: 'http://127.0.0.1:9/v1/' }, {}).baseUrl).toBe('http://127.0.0.1:9/v1');
  });

  it("gives a named provider's host only its own key variable, never another provider's", () => {
    const env = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a', GLOO_API_KEY: 'gloo-k' };
    expect(resolveModelConfig({ api: 'chat', baseUrl: 'https://platform.ai.gloo.com/ai/v2/direct' }, env).apiKey).toBe('gloo-k');
    expect(resolveModelConfig({ api: 'anthropic', baseUrl: 'https://platform.ai.gloo.com/ai/v2/direct/anthropic' }, env).apiKey).toBe(
      'gloo-k',
    );
    expect(
      resolveModelConfig({ api: 'chat', baseUrl: 'https://platform.ai.gloo.com/ai/v2/direct' }, { OPENAI_API_KEY: 'sk-o' }).apiKey,
    ).toBeUndefined();
    expect(resolveModelConfig({}, { GLOO_API_KEY: 'gloo-k' }).apiKey).toBeUndefined();
    expect(resolveModelConfig({ api: 'anthropic' }, { GLOO_API_KEY: 'gloo-k', OPENAI_API_KEY: 'sk-o' }).apiKey).toBeUndefined();
    // TETHER_API_KEY is the person's explicit choice and goes wherever they point it.
    expect(
      resolveModelConfig({ api: 'chat', baseUrl: 'https://platform.ai.gloo.com/ai/v2/direct' }, { ...env, TETHER_API_KEY: 'sk-t' }).apiKey,
    ).toBe('sk-t');
    // Another server keeps the documented fallbacks.
    expect(resolveModelConfig({ api: 'chat', baseUrl: 'http://127.0.0.1:9/v1' }, { GLOO_API_KEY: 'gloo-k' }).apiKey).toBe('gloo-k');
  });

  it('reads the output limit from --max-tokens or TETHER_MAX_TOKENS, and refuses a bad one', () => {
    expect(resolveModelConfig({ api: 'anthropic', maxTokens: '2048' }, { TETHER_MAX_TOKENS: '9' }).maxTokens).toBe(2048);
    expect(resolveModelConfig({}, { TETHER_MAX_TOKENS: '4096' }).maxTokens).toBe(4096);
    expect(() => resolveModelConfig({ maxTokens: 'lots' }, {})).toThrow(
      /whole number of 1 or more, not "lots" \(--max-tokens or TETHER_MAX_TOKENS\)/,
    );
  });

  it('names the three APIs when given another', () => {
    expect(() => resolveModelConfig({ api: 'gemini' }, {})).toThrow(/Unknown API "gemini".*"anthropic" \(Anthropic Messages\)/);
  });
});

import { describe, expect, it } from 'vitest';
import { itemTokens, requestTokens, textTokens } from './tokenCount';

describe('token estimates', () => {
  it('counts text with the o200k tokenizer', () => {
    expect(textTokens('')).toBe(0);
    expect(textTokens('hello world')).toBe(2);
    // A special-token string in a file or a command's output is text, not an error.
    expect(textTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  it('counts a long unbroken run quickly (BPE is quadratic in it) and about right', () => {
    const started = performance.now();
    const tokens = textTokens('='.repeat(200_000));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(tokens).toBeGreaterThanOrEqual(200_000 / 64);
    expect(tokens).toBeLessThan(200_000 / 2);
  });

  it('counts a request as its prompt, its tool definitions and its items', () => {
    const tools = [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object' } }];
    const items = [
      { type: 'user' as const, text: 'fix the test' },
      { type: 'tool_call' as const, callId: 'c1', name: 'read_file', arguments: '{"path":"a.js"}' },
      { type: 'tool_result' as const, callId: 'c1', output: 'export {}', isError: false },
    ];
    const total = requestTokens({ instructions: 'You are Tether.', tools, items });
    // o200k: 5 for the prompt, 20 for the tool list, 7 + 12 + 6 for the items (each with its 4 of framing).
    expect(total).toBe(50);
    expect(itemTokens(items[0]!)).toBe(4 + textTokens('fix the test'));
  });
});

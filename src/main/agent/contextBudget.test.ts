import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../shared/events';
import { initialSessionState, reduce, type SessionState } from '../../shared/session';
import { estimateNextRequest } from './contextBudget';
import { textTokens, textTokensAtMost, textTokensRoughly } from './tokenCount';

const usage = { inputTokens: 1_000, outputTokens: 20, cachedInputTokens: 0, reasoningTokens: 0 };
const request = {
  instructions: 'You are Tether, a coding agent. Work in the folder you are given; ask before anything risky.',
  tools: [
    {
      name: 'run_command',
      description: 'Runs a shell command in the workspace.',
      parameters: { type: 'object', properties: { command: { type: 'string' } } },
    },
  ],
};

/** Texts of every kind a conversation carries: prose, code, JSON, other scripts, emoji, long runs, special-token strings, control bytes. */
const SAMPLES = [
  'Fix the failing test in src/auth: the token is read before it is set.',
  'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  JSON.stringify({ path: 'src/a.ts', old_string: 'const x = 1;', new_string: 'const x = 2;' }),
  '日本語のテキストとテストの結果。中文文本。한국어 텍스트.',
  '🙂🚀👩‍👩‍👧‍👦 emoji, and zero-width\u200bjoiners\u200d',
  '='.repeat(3_000),
  ' \t\n'.repeat(500),
  'a <|endoftext|> b <|im_start|>system<|im_end|>',
  '\u0000\u0001\u0002\u007f\ufffd binary-looking output',
  'Ωμέγα ñandú Ærøskøbing Привет мир',
];

function fold(events: SessionEvent[]): SessionState {
  return events.reduce(reduce, initialSessionState);
}

function conversation(withBasis: boolean): SessionState {
  const events: SessionEvent[] = [
    { type: 'session.started', workspace: '/w', model: 'm', api: 'responses', baseUrl: 'http://x', maxSteps: 9 },
    { type: 'user.messaged', text: SAMPLES[0]! },
  ];
  SAMPLES.forEach((output, index) => {
    const callId = `c${index}`;
    events.push(
      {
        type: 'model.responded',
        usage: withBasis ? usage : { ...usage, inputTokens: 0, outputTokens: 0 },
        items: [{ type: 'tool_call', callId, name: 'run_command', arguments: JSON.stringify({ command: `cat f${index}` }) }],
      },
      { type: 'tool.finished', callId, name: 'run_command', outcome: 'ok', title: 'cat', output, durationMs: 1 },
    );
  });
  return fold(events);
}

describe('token bounds', () => {
  it('textTokensAtMost is never below the tokenizer count, and the rough estimate never above the bound', () => {
    for (const text of ['', ...SAMPLES]) {
      expect(textTokensAtMost(text)).toBeGreaterThanOrEqual(textTokens(text));
      expect(textTokensRoughly(text)).toBeLessThanOrEqual(textTokensAtMost(text));
    }
  });

  it('the rough estimate is near the count for prose, code and JSON', () => {
    for (const text of SAMPLES.slice(0, 3)) {
      const ratio = textTokensRoughly(text.repeat(20)) / textTokens(text.repeat(20));
      expect(ratio).toBeGreaterThan(0.6);
      expect(ratio).toBeLessThan(1.6);
    }
  });
});

describe('estimateNextRequest', () => {
  for (const withBasis of [false, true]) {
    const state = conversation(withBasis);
    const exact = estimateNextRequest(state, request);
    const name = withBasis ? 'from the provider-reported base' : 'the whole request (no base yet)';

    it(`counts exactly by default and from the compaction line up: ${name}`, () => {
      expect(withBasis ? state.context.basis : null).toEqual(withBasis ? expect.objectContaining({ tokens: 1_020 }) : null);
      expect(estimateNextRequest(state, request, undefined, 0)).toBe(exact);
      expect(estimateNextRequest(state, request, undefined, exact)).toBe(exact);
      expect(estimateNextRequest(state, request, undefined, Math.floor(exact / 2))).toBe(exact);
    });

    it(`estimates from the size when even a token a byte stays below the line: ${name}`, () => {
      const far = 10_000_000;
      const rough = estimateNextRequest(state, request, undefined, far);
      expect(rough).not.toBe(exact);
      expect(rough).toBeGreaterThan(exact * 0.5);
      expect(rough).toBeLessThan(exact * 2);
    });

    it(`decides every line as the exact count does: ${name}`, () => {
      // Whatever the line (the compaction threshold, the window), the estimate is over it exactly when the count is.
      for (let line = 1; line < exact * 8; line = Math.ceil(line * 1.07)) {
        const estimate = estimateNextRequest(state, request, undefined, line);
        expect(estimate > line, `line ${line}: estimate ${estimate}, count ${exact}`).toBe(exact > line);
      }
    });
  }
});

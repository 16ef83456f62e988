import { describe, expect, it } from 'vitest';
import type { RewindPoint, RewindView } from '../../src/shared/rewinds';
import { stepLabel } from '../../src/renderer/src/features/chat/rewindSteps';

const message = (seq: number, items: number): RewindPoint => ({ seq, kind: 'message', mark: { items } as RewindPoint['mark'] });
const rewound = (points: RewindPoint[], texts: string[]) =>
  ({ before: { points, items: texts.map((text) => ({ type: 'user', text })), mark: points[0]!.mark } }) as unknown as RewindView;

describe('stepLabel', () => {
  it('names a step a later rewind took out by what that rewind kept, not by the first rewind', () => {
    const state = {
      rewindPoints: [message(20, 1)],
      items: [{ type: 'user' as const, text: 'now' }],
      itemsFrom: 0,
      toolCalls: {},
      rewinds: [rewound([message(5, 1)], ['first try']), rewound([message(9, 2)], ['first try', 'second try'])],
    };
    expect(stepLabel(state, 20)).toBe('your message "now"');
    expect(stepLabel(state, 5)).toBe('your message "first try"');
    expect(stepLabel(state, 9)).toBe('your message "second try"');
    expect(stepLabel(state, 99)).toBe('an earlier step');
  });
});

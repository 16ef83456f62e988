import { describe, expect, it } from 'vitest';
import { fillTemplate } from './fillTemplate';

describe('fillTemplate', () => {
  it('fills every slot, leaves unknown ones, and inserts values literally', () => {
    expect(fillTemplate('{{a}} and {{a}}, {{b}}, {{c}}', { a: "$& $' {{b}}", b: 'B' })).toBe("$& $' {{b}} and $& $' {{b}}, B, {{c}}");
  });
});

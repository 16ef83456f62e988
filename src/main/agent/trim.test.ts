import { describe, expect, it } from 'vitest';
import { trimMiddle } from './trim';

describe('trimMiddle', () => {
  it('leaves a text within the limit untouched', () => {
    expect(trimMiddle('short output\n', { maxChars: 100 })).toBe('short output\n');
  });

  it('keeps the head and the tail of a long output and marks what was cut', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const trimmed = trimMiddle(lines.join('\n'), { maxChars: 400 });
    expect(trimmed.startsWith('line 0\nline 1\n')).toBe(true);
    expect(trimmed.endsWith('line 998\nline 999')).toBe(true);
    expect(trimmed).toMatch(/\[… [\d,]+ characters \([\d,]+ lines\) cut from the middle of this output …\]/);
    expect(trimmed.length).toBeLessThan(400 + 120);
  });

  it('cuts at line ends so no kept line is shown half', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `entry-${i}-${'x'.repeat(20)}`);
    const trimmed = trimMiddle(lines.join('\n'), { maxChars: 1000 });
    for (const line of trimmed.split('\n')) {
      if (line.startsWith('[…') || line === '') continue;
      expect(line).toMatch(/^entry-\d+-x{20}$/);
    }
  });

  it('cuts a single huge line where it must', () => {
    const trimmed = trimMiddle('a'.repeat(10_000), { maxChars: 1000 });
    expect(trimmed.length).toBeLessThan(1100);
    expect(trimmed).toContain('9,000 characters cut');
  });

  it('keeps more of the tail than the head by default, where errors tend to be', () => {
    const text = `${'h'.repeat(5000)}${'t'.repeat(5000)}`;
    const trimmed = trimMiddle(text, { maxChars: 1000 });
    const [head, tail] = trimmed.split(/\n\[….*…\]\n/);
    expect(head?.length).toBe(400);
    expect(tail?.length).toBe(600);
  });
});

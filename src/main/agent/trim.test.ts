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

describe('a cut inside an earlier cut', () => {
  it('tells the model how much was left out in all: the terminal’s cut plus its own', () => {
    const flood = `${'a'.repeat(5000)}\n\n[… 299,000,000 characters of output cut …]\n\n${'b'.repeat(5000)}`;
    const trimmed = trimMiddle(flood, { maxChars: 2000 });
    const said = Number(/\[… ([\d,]+) characters cut from the middle/.exec(trimmed)?.[1]?.replace(/,/g, ''));
    const removedHere = flood.length - (trimmed.length - (trimmed.match(/\n\[…[^\]]*\]\n/)?.[0].length ?? 0));
    expect(said).toBe(299_000_000 + removedHere - '[… 299,000,000 characters of output cut …]'.length);
    expect(trimmed).not.toContain('of output cut');
  });

  it('counts its own earlier marks too, when a trimmed text is trimmed again', () => {
    const once = trimMiddle(`${'x\n'.repeat(50_000)}`, { maxChars: 10_000 });
    const twice = trimMiddle(once, { maxChars: 1000 });
    const said = Number(/\[… ([\d,]+) characters/.exec(twice)?.[1]?.replace(/,/g, ''));
    expect(said).toBeGreaterThan(99_000 - 1000);
  });
});

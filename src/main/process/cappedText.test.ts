import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CappedText } from './cappedText';

/** What CappedText must equal: the first and the last `keep` characters, and the exact count between them. */
function reference(whole: string, keep: number): string {
  if (whole.length <= 2 * keep) return whole;
  const cut = whole.length - 2 * keep;
  return `${whole.slice(0, keep)}\n\n[… ${cut} characters of output cut …]\n\n${whole.slice(whole.length - keep)}`;
}

describe('CappedText', () => {
  it('keeps the head and the tail and counts exactly what it cut, however the output is chunked', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 60 }), fc.integer({ min: 1, max: 30 }), (chunks, keep) => {
        const capped = new CappedText(keep);
        for (const chunk of chunks) capped.push(chunk);
        expect(capped.toString()).toBe(reference(chunks.join(''), keep));
      }),
      { numRuns: 500 },
    );
  });

  it('can be read while output still arrives', () => {
    const capped = new CappedText(4);
    for (const chunk of ['abcd', 'efgh', 'ijkl']) capped.push(chunk);
    expect(capped.toString()).toBe(reference('abcdefghijkl', 4));
    capped.push('mn');
    expect(capped.toString()).toBe(reference('abcdefghijklmn', 4));
  });

  it('holds no more than the tail and one chunk while a flood pours', () => {
    const capped = new CappedText(1000);
    const chunk = 'x'.repeat(300);
    for (let i = 0; i < 10_000; i++) capped.push(chunk);
    const held = (capped as unknown as { tail: Array<string | undefined> }).tail.reduce((sum, part) => sum + (part?.length ?? 0), 0);
    expect(held).toBeLessThanOrEqual(1000 + 300);
    expect(capped.toString()).toBe(reference(chunk.repeat(10_000), 1000));
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileHunks } from './fileHunks';

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

describe('fileHunks', () => {
  it('cuts changes a line apart into separate hunks with unified-diff numbers', () => {
    const before = 'a\nb\nc\nd\ne\n';
    const after = 'a\nB\nc\nd\nE\nF\n';
    const split = fileHunks(before, after)!;
    expect(split.hunks.map(({ fingerprint: _f, ...range }) => range)).toEqual([
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
      { oldStart: 5, oldLines: 1, newStart: 5, newLines: 2 },
    ]);
    expect(split.revert(0)).toBe('a\nb\nc\nd\nE\nF\n');
    expect(split.revert(1)).toBe('a\nB\nc\nd\ne\n');
  });

  it('names an insertion and a deletion by the line before them', () => {
    const split = fileHunks('a\nb\n', 'x\na\n')!;
    expect(split.hunks.map(({ fingerprint: _f, ...range }) => range)).toEqual([
      { oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 },
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 0 },
    ]);
    expect(split.revert(0)).toBe('a\n');
    expect(split.revert(1)).toBe('x\na\nb\n');
  });

  it('keeps CRLF endings, a byte-order mark and a missing final newline byte for byte', () => {
    const before = '\uFEFFone\r\ntwo\r\nmid\r\nthree';
    const after = '\uFEFFone\r\nTWO\r\nmid\r\nthree\r\nfour';
    const split = fileHunks(before, after)!;
    expect(split.hunks).toHaveLength(2);
    expect(split.revert(0)).toBe('\uFEFFone\r\ntwo\r\nmid\r\nthree\r\nfour');
    expect(split.revert(1)).toBe('\uFEFFone\r\nTWO\r\nmid\r\nthree');
  });

  it('gives each hunk a fingerprint that changes with its content and its place', () => {
    const a = fileHunks('x\ny\n', 'x\nY\n')!.hunks[0]!;
    const b = fileHunks('x\ny\n', 'x\nZ\n')!.hunks[0]!;
    const c = fileHunks('w\nx\ny\n', 'w\nx\nY\n')!.hunks[0]!;
    expect(new Set([a.fingerprint, b.fingerprint, c.fingerprint]).size).toBe(3);
    expect(fileHunks('x\ny\n', 'x\nY\n')!.hunks[0]!.fingerprint).toBe(a.fingerprint);
  });

  it('undoes exactly one hunk: the text before and after it is the new text, the hunk is the old one', () => {
    const line = fc.constantFrom('a\n', 'b\n', 'c\n', 'd\r\n', '\n', 'e');
    const text = fc.array(line, { maxLength: 14 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const split = fileHunks(before, after)!;
        const afterLines = lines(after);
        split.hunks.forEach((hunk, index) => {
          const reverted = split.revert(index);
          const headEnd = hunk.newLines > 0 ? hunk.newStart - 1 : hunk.newStart;
          const head = afterLines.slice(0, headEnd).join('');
          const tail = afterLines.slice(headEnd + hunk.newLines).join('');
          expect(reverted.startsWith(head)).toBe(true);
          expect(reverted.endsWith(tail)).toBe(true);
          const oldHeadEnd = hunk.oldLines > 0 ? hunk.oldStart - 1 : hunk.oldStart;
          const middle = lines(before)
            .slice(oldHeadEnd, oldHeadEnd + hunk.oldLines)
            .join('');
          expect(reverted).toBe(head + middle + tail);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('arrives at the old text when every hunk is undone one after another', () => {
    const line = fc.constantFrom('a\n', 'b\n', 'c\r\n', '\n', 'z');
    const text = fc.array(line, { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        let current = after;
        for (let guard = 0; guard < 50; guard++) {
          const split = fileHunks(before, current)!;
          if (split.hunks.length === 0) break;
          current = split.revert(split.hunks.length - 1);
        }
        expect(current).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});

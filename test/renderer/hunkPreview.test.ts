import { describe, expect, it } from 'vitest';
import { compactPreview, diffLines, hunkPreview } from '../../src/renderer/src/features/diff/hunkPreview';

// What a hunk's preview shows: its removed and added lines, numbered as each side of the diff numbers them.

describe('hunk preview', () => {
  const lines = diffLines('one\r\ntwo\r\nthree\r\nfour\r\n', 'one\r\nTWO\r\n2b\r\nthree\r\nfour\r\nfive');

  it('numbers removed lines on the old side and added ones on the new side, without line endings', () => {
    expect(hunkPreview(lines, { oldStart: 2, oldLines: 1, newStart: 2, newLines: 2 })).toEqual([
      { kind: 'removed', line: 2, text: 'two' },
      { kind: 'added', line: 2, text: 'TWO' },
      { kind: 'added', line: 3, text: '2b' },
    ]);
  });

  it('shows a pure addition or removal (an empty side names the line before it) and a last line with no newline', () => {
    expect(hunkPreview(lines, { oldStart: 4, oldLines: 0, newStart: 6, newLines: 1 })).toEqual([{ kind: 'added', line: 6, text: 'five' }]);
    const removal = diffLines('a\nb\nc\n', 'a\nc\n');
    expect(hunkPreview(removal, { oldStart: 2, oldLines: 1, newStart: 1, newLines: 0 })).toEqual([{ kind: 'removed', line: 2, text: 'b' }]);
    const atTop = diffLines('', 'new\n');
    expect(hunkPreview(atTop, { oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 })).toEqual([{ kind: 'added', line: 1, text: 'new' }]);
  });

  it('keeps blank lines and never reads past either side', () => {
    const blank = diffLines('x\n', 'x\n\n\n');
    expect(hunkPreview(blank, { oldStart: 1, oldLines: 0, newStart: 2, newLines: 2 }).map((line) => line.text)).toEqual(['', '']);
    expect(hunkPreview(blank, { oldStart: 1, oldLines: 0, newStart: 2, newLines: 9 })).toHaveLength(2);
  });

  it('closed, shows the first removed and the first added line, so a change reads before → after', () => {
    const big = hunkPreview(diffLines('a\nb\nc\n', 'A\nB\nC\nD\n'), { oldStart: 1, oldLines: 3, newStart: 1, newLines: 4 });
    expect(compactPreview(big).map((line) => `${line.kind}:${line.text}`)).toEqual(['removed:a', 'added:A']);
    const added = hunkPreview(diffLines('', 'p\nq\nr\n'), { oldStart: 0, oldLines: 0, newStart: 1, newLines: 3 });
    expect(compactPreview(added).map((line) => line.text)).toEqual(['p', 'q']);
  });
});

import { describe, expect, it } from 'vitest';
import type { CommandPart } from '../../src/shared/commandParts';
import type { FileChange } from '../../src/shared/fileChange';
import { diffChange, diffFromPatch, diffNewFile, linesLabel, type DiffHunk } from '../../src/renderer/src/features/permission/changeDiff';
import { requestRisk, requestSummary } from '../../src/renderer/src/features/permission/requestRisk';

// What a request and a tool card draw for a change: unified hunks with three lines of context and
// both sides' line numbers, numbered as in the file, from the file as it is now.

const text = (lines: number, from = 1) => Array.from({ length: lines }, (_, i) => `line ${i + from}`).join('\n') + '\n';

function whole(path: string, now: string): FileChange {
  return { path, file: 'text', segments: ['', now, ''], firstLine: 1, bytes: now.length, lines: now.split('\n').length - 1, hash: 'h' };
}

/** Each row as the gutter and sign show it: `old new sign text`. */
function rows(hunk: DiffHunk): string[] {
  const sign = { added: '+', removed: '-', context: ' ', note: '\\' } as const;
  return hunk.rows.map((row) => `${row.oldLine ?? '.'} ${row.newLine ?? '.'} ${sign[row.kind]}${row.text}`);
}

describe('the diff of an overwrite against the file as it is now', () => {
  it('shows only the changed lines with three lines of context, numbered as in the file', () => {
    const now = text(40);
    const diff = diffChange(whole('src/a.ts', now), now.replace('line 20\n', 'line twenty\n'))!;
    expect(diff.hunks).toHaveLength(1);
    expect(rows(diff.hunks[0]!)).toEqual([
      '17 17  line 17',
      '18 18  line 18',
      '19 19  line 19',
      '20 . -line 20',
      '. 20 +line twenty',
      '21 21  line 21',
      '22 22  line 22',
      '23 23  line 23',
    ]);
    expect(diff).toMatchObject({ additions: 1, deletions: 1, lines: { from: 17, to: 23 } });
    expect(linesLabel(diff.lines!)).toBe('lines 17–23');
  });

  it('keeps far-apart changes in hunks of their own, and counts shifted lines on the new side', () => {
    const now = text(60);
    const after = now.replace('line 5\n', 'line 5\ninserted\n').replace('line 50\n', '');
    const diff = diffChange(whole('a.txt', now), after)!;
    expect(diff.hunks.map((hunk) => [hunk.oldStart, hunk.newStart])).toEqual([
      [3, 3],
      [47, 48],
    ]);
    expect(rows(diff.hunks[1]!)).toContain('50 . -line 50');
    expect(rows(diff.hunks[1]!)).toContain('51 51  line 51');
  });

  it('shows a new file as every line added, from line 1', () => {
    const diff = diffNewFile('a\nb\nc\n');
    expect(rows(diff.hunks[0]!)).toEqual(['. 1 +a', '. 2 +b', '. 3 +c']);
    expect(diff).toMatchObject({ additions: 3, deletions: 0 });
  });

  it('says when a side has no newline at its end', () => {
    const diff = diffChange(whole('a.txt', 'one\ntwo'), 'one\ntwo\n')!;
    expect(rows(diff.hunks[0]!)).toEqual(['1 1  one', '2 . -two', '. . \\No newline at end of file', '. 2 +two']);
  });

  it('compares CRLF content as lines, so a CRLF write of the same lines changes nothing visible', () => {
    expect(diffChange(whole('w.txt', 'a\nb\n'), 'a\r\nb\r\n')!.hunks).toEqual([]);
    const diff = diffChange(whole('w.txt', 'a\nb\n'), 'a\r\nB\r\n')!;
    expect(rows(diff.hunks[0]!)).toEqual(['1 1  a', '2 . -b', '. 2 +B']);
  });

  it('has nothing to diff for a binary or too large file', () => {
    expect(diffChange({ path: 'x.bin', file: 'binary', firstLine: 1, bytes: 9, lines: 0, hash: 'h' }, 'text')).toBeUndefined();
  });
});

describe('the diff of an edit, where it lands', () => {
  it('numbers an edit’s region from the line it starts at, with its context', () => {
    const change: FileChange = {
      path: 'src/a.ts',
      file: 'text',
      segments: ['line 37\nline 38\nline 39\n', 'line 40\nline 41\n', 'line 42\nline 43\nline 44\n'],
      firstLine: 37,
      bytes: 1000,
      lines: 100,
      hash: 'h',
    };
    const diff = diffChange(change, 'line 40\nnew 41\nnew 41b\n')!;
    // Line 40 is kept, so the context starts three lines above the first changed line.
    expect(rows(diff.hunks[0]!)).toEqual([
      '38 38  line 38',
      '39 39  line 39',
      '40 40  line 40',
      '41 . -line 41',
      '. 41 +new 41',
      '. 42 +new 41b',
      '42 43  line 42',
      '43 44  line 43',
      '44 45  line 44',
    ]);
    expect(linesLabel(diff.lines!)).toBe('lines 38–44');
  });

  it('puts the new text at every occurrence of a replace_all', () => {
    const change: FileChange = {
      path: 'a',
      file: 'text',
      segments: ['x = ', 'OLD', ';\ny = ', 'OLD', ';\n'],
      firstLine: 9,
      bytes: 9,
      lines: 2,
      hash: 'h',
    };
    const diff = diffChange(change, 'NEW')!;
    expect(rows(diff.hunks[0]!)).toEqual(['9 . -x = OLD;', '10 . -y = OLD;', '. 9 +x = NEW;', '. 10 +y = NEW;']);
  });
});

describe('the diff a tool printed, on its card', () => {
  it('reads the hunks of a unified patch with their line numbers', () => {
    const diff = diffFromPatch('--- a.txt\n+++ a.txt\n@@ -10,3 +10,3 @@\n ten\n-eleven\n+11\n twelve\n');
    expect(rows(diff.hunks[0]!)).toEqual(['10 10  ten', '11 . -eleven', '. 11 +11', '12 12  twelve']);
  });

  it('finds no hunks in text that is no patch', () => {
    expect(diffFromPatch('Created a.txt (3 bytes, 1 line).').hunks).toEqual([]);
  });
});

describe('the risk a request shows', () => {
  const part = (risk: CommandPart['risk']): CommandPart => ({ words: ['x'], risk, effects: [{ risk, text: `x ${risk}` }] });

  it('is a command’s riskiest part, drawn in the colour of its family', () => {
    expect(requestRisk({ risk: 'exec', parts: [part('runs'), part('writes'), part('sends'), part('deletes')] })).toEqual({
      colour: 'egress',
      part: 'sends',
    });
    expect(requestRisk({ risk: 'exec', parts: [part('reads'), part('writes')] })).toEqual({ colour: 'edit', part: 'writes' });
    expect(requestRisk({ risk: 'exec', parts: [part('runs'), part('deletes')] })).toEqual({ colour: 'egress', part: 'deletes' });
  });

  it('is the tool’s own risk without parts', () => {
    expect(requestRisk({ risk: 'edit' })).toEqual({ colour: 'edit' });
    expect(requestRisk({ risk: 'exec', parts: [] })).toEqual({ colour: 'exec' });
  });

  it('does not print a command in the summary line, since its block shows it once', () => {
    expect(requestSummary({ args: { command: 'npm test' }, summary: 'npm test' })).toBe('wants to run the command below');
    expect(requestSummary({ args: { command: 'ls', cwd: 'src' }, summary: 'ls  (in src)' })).toBe('wants to run the command below, in src');
    expect(requestSummary({ args: { path: 'a' }, summary: 'Write a (1 line, 2 bytes)' })).toBe('Write a (1 line, 2 bytes)');
  });
});

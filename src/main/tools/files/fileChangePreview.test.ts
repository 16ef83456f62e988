import { describe, expect, it } from 'vitest';
import { changeTexts } from '../../../shared/fileChange';
import { editChange, fileHash, MAX_PREVIEW_BYTES, writeChange } from './fileChangePreview';
import { findOccurrences } from './findOccurrences';

// What a write's or an edit's request carries so it can show a diff against the file as it is now.

const bytes = (text: string) => Buffer.from(text, 'utf8');
const numbered = (count: number, ending = '\n') => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join(ending) + ending;

describe('the preview of a write', () => {
  it('carries the whole current text of an existing file, to be replaced by the new content', () => {
    const change = writeChange('src/a.ts', bytes('one\ntwo\n'));
    expect(change).toMatchObject({ path: 'src/a.ts', file: 'text', segments: ['', 'one\ntwo\n', ''], firstLine: 1, bytes: 8, lines: 2 });
    expect(change.hash).toBe(fileHash(bytes('one\ntwo\n')));
    expect(changeTexts(change, 'one\n2\n')).toEqual({ before: 'one\ntwo\n', after: 'one\n2\n' });
  });

  it('shows a new file as empty now, so every line of the content is added', () => {
    const change = writeChange('new.txt', null);
    expect(change).toMatchObject({ file: 'new', segments: ['', '', ''], hash: 'absent', lines: 0 });
    expect(changeTexts(change, 'a\nb\n')).toEqual({ before: '', after: 'a\nb\n' });
  });

  it('compares a CRLF file as LF lines and says it is CRLF (write_file keeps its endings)', () => {
    const change = writeChange('win.txt', bytes('one\r\ntwo\r\n'));
    expect(change.crlf).toBe(true);
    expect(change.segments).toEqual(['', 'one\ntwo\n', '']);
    expect(changeTexts(change, 'one\r\nthree\r\n')?.after).toBe('one\nthree\n');
    expect(writeChange('unix.txt', bytes('a\nb\n')).crlf).toBeUndefined();
  });

  it('keeps a missing final newline as it is, so the diff can say so', () => {
    expect(writeChange('a.txt', bytes('a\nb')).segments).toEqual(['', 'a\nb', '']);
    expect(writeChange('a.txt', bytes('a\nb')).lines).toBe(2);
  });

  it('names a binary or too large file instead of carrying it', () => {
    const binary = writeChange('logo.png', Buffer.from([0x89, 0x50, 0x00, 0x01]));
    expect(binary).toMatchObject({ file: 'binary', bytes: 4 });
    expect(binary.segments).toBeUndefined();
    const big = writeChange('big.json', bytes('x'.repeat(MAX_PREVIEW_BYTES + 1)));
    expect(big).toMatchObject({ file: 'too-large', bytes: MAX_PREVIEW_BYTES + 1, lines: 1 });
    expect(big.segments).toBeUndefined();
    // Exactly at the cap it is still diffed.
    expect(writeChange('edge.txt', bytes('y'.repeat(MAX_PREVIEW_BYTES))).file).toBe('text');
  });
});

describe('the preview of an edit', () => {
  const edit = (text: string, old: string) => editChange('src/a.ts', bytes(text), findOccurrences(text, old));

  it('carries three lines around the match and where they start', () => {
    const change = edit(numbered(20), 'line 10\n');
    expect(change).toMatchObject({ file: 'text', firstLine: 7 });
    expect(change?.segments).toEqual(['line 7\nline 8\nline 9\n', 'line 10\n', 'line 11\nline 12\nline 13\n']);
  });

  it('stops the context at the top and the bottom of the file', () => {
    expect(edit(numbered(4), 'line 1')?.segments).toEqual(['', 'line 1', '\nline 2\nline 3\nline 4\n']);
    expect(edit(numbered(4), 'line 4\n')).toMatchObject({ firstLine: 1, segments: ['line 1\nline 2\nline 3\n', 'line 4\n', ''] });
    expect(edit('a\nb', 'b')).toMatchObject({ firstLine: 1, segments: ['a\n', 'b', ''] });
  });

  it('keeps a match that starts and ends inside lines whole with its lines', () => {
    const change = edit('const a = 1;\nconst b = 2;\n', 'b = 2');
    expect(change?.segments).toEqual(['const a = 1;\nconst ', 'b = 2', ';\n']);
    expect(changeTexts(change!, 'b = 3')).toEqual({ before: 'const a = 1;\nconst b = 2;\n', after: 'const a = 1;\nconst b = 3;\n' });
  });

  it('holds every occurrence of a replace_all, the text between them kept', () => {
    const change = edit(numbered(30).replace('line 5\n', 'TODO\n').replace('line 25\n', 'TODO\n'), 'TODO');
    expect(change?.firstLine).toBe(2);
    expect(change?.segments).toHaveLength(5);
    expect(change?.segments?.[1]).toBe('TODO');
    expect(change?.segments?.[3]).toBe('TODO');
    expect(changeTexts(change!, 'DONE')?.after.match(/DONE/g)).toHaveLength(2);
  });

  it('matches old_string with LF line breaks in a CRLF file, and shows it as LF', () => {
    const change = edit('a\r\nb\r\nc\r\n', 'b\nc');
    expect(change).toMatchObject({ crlf: true, segments: ['a\n', 'b\nc', '\n'] });
  });

  it('offers no preview for an edit that will fail anyway', () => {
    expect(editChange('a.ts', bytes('x'), [])).toBeUndefined();
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from './defineTool';
import { editFile } from './editFile';
import { makeToolContext } from '../../../test/support/toolContext';

let base: string;
let root: string;

function write(relative: string, content: string | Buffer) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}
const readBack = (relative: string) => fs.readFileSync(path.join(root, relative), 'utf8');
const edit = (args: Parameters<typeof editFile.execute>[0]) => editFile.execute(args, makeToolContext(root));

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-edit-')));
  root = path.join(base, 'ws');
  fs.mkdirSync(root);
  write('src/a.ts', 'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport const one = 1;\n');
});

afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('edit_file', () => {
  it('replaces the one occurrence and returns a unified diff with counts', async () => {
    const result = await edit({ path: 'src/a.ts', old_string: '  return a + b;', new_string: '  const sum = a + b;\n  return sum;' });
    expect(readBack('src/a.ts')).toBe(
      'export function add(a: number, b: number) {\n  const sum = a + b;\n  return sum;\n}\n\nexport const one = 1;\n',
    );
    expect(result.title).toBe('Edited src/a.ts');
    expect(result.output).toBe(
      [
        'Replaced 1 occurrence in src/a.ts.',
        '',
        '--- src/a.ts',
        '+++ src/a.ts',
        '@@ -1,5 +1,6 @@',
        ' export function add(a: number, b: number) {',
        '-  return a + b;',
        '+  const sum = a + b;',
        '+  return sum;',
        ' }',
        ' ',
        ' export const one = 1;',
        '',
      ].join('\n'),
    );
    expect(result.metadata).toEqual({ path: 'src/a.ts', additions: 2, deletions: 1, replacements: 1 });
  });

  it('inserts new_string literally, even with $& or $1 in it', async () => {
    await edit({ path: 'src/a.ts', old_string: 'export const one = 1;', new_string: "export const price = '$&$1';" });
    expect(readBack('src/a.ts')).toContain("export const price = '$&$1';");
  });

  it('deletes text when new_string is empty', async () => {
    await edit({ path: 'src/a.ts', old_string: '\nexport const one = 1;\n', new_string: '' });
    expect(readBack('src/a.ts')).toBe('export function add(a: number, b: number) {\n  return a + b;\n}\n');
  });

  it('refuses an old_string that occurs several times, listing the lines', async () => {
    write('src/many.ts', 'x = 1;\ny = 2;\nx = 1;\nz = 3;\nx = 1;\n');
    const attempt = edit({ path: 'src/many.ts', old_string: 'x = 1;', new_string: 'x = 2;' });
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(
      'edit_file: old_string occurs 3 times in src/many.ts (lines 1, 3, 5); include more surrounding lines so it matches once, or set replace_all to replace every occurrence.',
    );
    expect(readBack('src/many.ts')).toBe('x = 1;\ny = 2;\nx = 1;\nz = 3;\nx = 1;\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    write('src/many.ts', 'x = 1;\ny = 2;\nx = 1;\n');
    const result = await edit({ path: 'src/many.ts', old_string: 'x = 1;', new_string: 'x = 2;', replace_all: true });
    expect(readBack('src/many.ts')).toBe('x = 2;\ny = 2;\nx = 2;\n');
    expect(result.output.startsWith('Replaced 2 occurrences in src/many.ts.')).toBe(true);
    expect(result.metadata).toMatchObject({ additions: 2, deletions: 2, replacements: 2 });
  });

  it('says old_string was not found and shows where a whitespace-only difference matches', async () => {
    const attempt = edit({
      path: 'src/a.ts',
      old_string: 'export function add(a: number,b: number) {\n    return a + b;',
      new_string: 'x',
    });
    await expect(attempt).rejects.toThrow(
      'edit_file: old_string was not found exactly in src/a.ts, but text that differs only in whitespace (indentation, spaces or line breaks) is at lines 1-2:\n' +
        '     1\texport function add(a: number, b: number) {\n     2\t  return a + b;\n' +
        'Copy old_string exactly from these lines (without the line numbers) and try again.',
    );
  });

  it('says old_string was not found, suggesting to read the file again', async () => {
    await expect(edit({ path: 'src/a.ts', old_string: 'return a - b;', new_string: 'x' })).rejects.toThrow(
      /^edit_file: old_string was not found in src\/a\.ts\. Read the file again with read_file/,
    );
  });

  it("notices read_file's line numbers pasted into old_string", async () => {
    await expect(edit({ path: 'src/a.ts', old_string: '     2\t  return a + b;', new_string: 'x' })).rejects.toThrow(
      /line number and a tab from read_file's output/,
    );
  });

  it('refuses identical old_string and new_string, and an empty old_string', async () => {
    await expect(edit({ path: 'src/a.ts', old_string: 'one', new_string: 'one' })).rejects.toThrow(
      /old_string and new_string are the same/,
    );
    await expect(edit({ path: 'src/a.ts', old_string: '', new_string: 'x' })).rejects.toThrow(/old_string is empty.*write_file/);
  });

  it('keeps CRLF line endings when old_string and new_string use LF', async () => {
    write('win.txt', 'first line\r\nsecond line\r\nthird line\r\n');
    const result = await edit({ path: 'win.txt', old_string: 'first line\nsecond line\n', new_string: 'one\ntwo\nthree\n' });
    const bytes = fs.readFileSync(path.join(root, 'win.txt'), 'latin1');
    expect(bytes).toBe('one\r\ntwo\r\nthree\r\nthird line\r\n');
    expect(result.output).toContain('(CRLF line endings kept)');
    expect(result.output).not.toContain('\r');
  });

  it("keeps the file's mode", async () => {
    write('run.sh', '#!/bin/sh\necho hi\n');
    fs.chmodSync(path.join(root, 'run.sh'), 0o754);
    await edit({ path: 'run.sh', old_string: 'echo hi', new_string: 'echo bye' });
    expect(fs.statSync(path.join(root, 'run.sh')).mode & 0o777).toBe(0o754);
  });

  it('keeps a BOM', async () => {
    write('bom.txt', '\ufeffhello\n');
    await edit({ path: 'bom.txt', old_string: 'hello', new_string: 'bye' });
    expect(fs.readFileSync(path.join(root, 'bom.txt'))).toEqual(Buffer.from('\ufeffbye\n'));
  });

  it('says a missing file does not exist and points to write_file and list_files', async () => {
    await expect(edit({ path: 'src/b.ts', old_string: 'a', new_string: 'b' })).rejects.toThrow(
      'edit_file: src/b.ts does not exist. Similar names there: src/a.ts. Use list_files on src to see what is there. To create a new file, use write_file.',
    );
  });

  it('refuses a folder, a binary file and a file that is not UTF-8', async () => {
    await expect(edit({ path: 'src', old_string: 'a', new_string: 'b' })).rejects.toThrow(/src is a folder/);
    write('blob.bin', Buffer.from([1, 0, 2, 3]));
    await expect(edit({ path: 'blob.bin', old_string: 'a', new_string: 'b' })).rejects.toThrow(/blob\.bin looks like a binary file/);
    write('latin1.txt', Buffer.from('caf\xe9\n', 'latin1'));
    await expect(edit({ path: 'latin1.txt', old_string: 'caf', new_string: 'tea' })).rejects.toThrow(/latin1\.txt is not valid UTF-8/);
    expect(fs.readFileSync(path.join(root, 'latin1.txt'), 'latin1')).toBe('caf\xe9\n');
  });

  it.each([
    ['a .. escape', () => '../outside.txt'],
    ['an absolute path outside', () => path.join(base, 'outside.txt')],
    ['the home folder', () => '~/outside.txt'],
    ['a symlink out', () => 'out-link'],
  ])('refuses %s and leaves the outside file alone', async (_name, given) => {
    fs.writeFileSync(path.join(base, 'outside.txt'), 'keep me\n');
    fs.symlinkSync(path.join(base, 'outside.txt'), path.join(root, 'out-link'));
    const attempt = edit({ path: given(), old_string: 'keep', new_string: 'lose' });
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(/^edit_file: Path .* Only paths inside .* are allowed/);
    expect(fs.readFileSync(path.join(base, 'outside.txt'), 'utf8')).toBe('keep me\n');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from './defineTool';
import { makeToolContext } from '../../../test/support/toolContext';
import { writeFile } from './writeFile';

let base: string;
let root: string;

const write = (args: Parameters<typeof writeFile.execute>[0]) => writeFile.execute(args, makeToolContext(root));
const readBack = (relative: string) => fs.readFileSync(path.join(root, relative), 'utf8');

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-write-')));
  root = path.join(base, 'ws');
  fs.mkdirSync(root);
});

afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('write_file', () => {
  it('summarizes the call for the person approving it, one line as "1 line"', () => {
    expect(writeFile.summarize({ path: 'NOTES.md', content: '# Notes\n' })).toBe('Write NOTES.md (1 line, 8 bytes)');
    expect(writeFile.summarize({ path: 'a.txt', content: 'a\nb' })).toBe('Write a.txt (2 lines, 3 bytes)');
  });

  it('creates a file and its missing parent folders', async () => {
    const result = await write({ path: 'src/deep/new.ts', content: 'export const a = 1;\nexport const b = 2;\n' });
    expect(readBack('src/deep/new.ts')).toBe('export const a = 1;\nexport const b = 2;\n');
    expect(result.title).toBe('Created src/deep/new.ts');
    expect(result.output).toBe('Created src/deep/new.ts (40 bytes, 2 lines).');
    expect(result.metadata).toEqual({ path: 'src/deep/new.ts', created: true, bytes: 40, lines: 2, additions: 2, deletions: 0 });
  });

  it('overwrites a file and shows the diff', async () => {
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
    const result = await write({ path: 'a.txt', content: 'one\n2\nthree\n' });
    expect(readBack('a.txt')).toBe('one\n2\nthree\n');
    expect(result.title).toBe('Overwrote a.txt');
    expect(result.output).toBe(
      'Overwrote a.txt (12 bytes, 3 lines; it had 14 bytes, 3 lines).\n\n--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
    );
    expect(result.metadata).toMatchObject({ created: false, additions: 1, deletions: 1 });
  });

  it('says when the content is already there', async () => {
    fs.writeFileSync(path.join(root, 'a.txt'), 'same\n');
    const before = fs.statSync(path.join(root, 'a.txt')).mtimeMs;
    const result = await write({ path: 'a.txt', content: 'same\n' });
    expect(result.output).toBe('a.txt already has exactly this content; nothing was written.');
    expect(fs.statSync(path.join(root, 'a.txt')).mtimeMs).toBe(before);
  });

  it('keeps CRLF endings and the mode when overwriting', async () => {
    const file = path.join(root, 'win.bat');
    fs.writeFileSync(file, '@echo off\r\necho hi\r\n');
    fs.chmodSync(file, 0o750);
    const result = await write({ path: 'win.bat', content: '@echo off\necho bye\n' });
    expect(fs.readFileSync(file, 'latin1')).toBe('@echo off\r\necho bye\r\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o750);
    expect(result.output).toContain('CRLF line endings were kept.');
  });

  it('overwrites a binary file without trying to diff it', async () => {
    fs.writeFileSync(path.join(root, 'blob.bin'), Buffer.from([0, 1, 2]));
    const result = await write({ path: 'blob.bin', content: 'text now\n' });
    expect(result.output).toBe('Overwrote blob.bin (9 bytes, 1 line); it was a binary file of 3 bytes, so no diff is shown.');
  });

  it('refuses a folder, a path ending in a slash, and a path under a file', async () => {
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'plain.txt'), 'x');
    await expect(write({ path: 'src', content: 'x' })).rejects.toThrow(
      'write_file: src is a folder; give the path of a file (for example src/index.ts).',
    );
    await expect(write({ path: 'newdir/', content: 'x' })).rejects.toThrow(/ends with a slash, so it names a folder/);
    await expect(write({ path: 'plain.txt/inner.txt', content: 'x' })).rejects.toThrow(/write_file: .*plain\.txt\/inner\.txt/);
    expect(fs.existsSync(path.join(root, 'newdir'))).toBe(false);
  });

  it.each([
    ['a .. escape', () => '../escaped.txt', () => path.join(base, 'escaped.txt')],
    ['an absolute path outside', () => path.join(base, 'escaped.txt'), () => path.join(base, 'escaped.txt')],
    ['the home folder', () => '~/escaped.txt', () => path.join(os.homedir(), 'escaped.txt')],
    ['a symlink to a folder outside', () => 'out-dir/escaped.txt', () => path.join(base, 'outside', 'escaped.txt')],
    ['a dangling symlink pointing outside', () => 'dangling', () => path.join(base, 'outside', 'made-by-link.txt')],
  ])('refuses %s and creates nothing there', async (_name, given, wouldBe) => {
    fs.mkdirSync(path.join(base, 'outside'));
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'out-dir'));
    fs.symlinkSync(path.join(base, 'outside', 'made-by-link.txt'), path.join(root, 'dangling'));
    const attempt = write({ path: given(), content: 'pwned\n' });
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(/^write_file: Path .* Only paths inside .* are allowed/);
    expect(fs.existsSync(wouldBe())).toBe(false);
  });
});

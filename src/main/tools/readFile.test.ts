import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from './defineTool';
import { readFile } from './readFile';
import { makeToolContext } from '../../../test/support/toolContext';

let base: string;
let root: string;

function write(relative: string, content: string | Buffer) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const read = (args: Parameters<typeof readFile.execute>[0]) => readFile.execute(args, makeToolContext(root));

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-read-')));
  root = path.join(base, 'ws');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(base, 'secret.txt'), 'secret\n');
  write('src/a.ts', 'one\ntwo\nthree\nfour\nfive\n');
  write('src/empty.txt', '');
  write('crlf.txt', 'first\r\nsecond\r\n');
  write('bom.txt', '\ufeffwith bom\nsecond\n');
  write('noeol.txt', 'a\nb');
  write('many.txt', Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  write('wide.txt', Array.from({ length: 5000 }, (_, i) => `${i + 1} ${'w'.repeat(200)}`).join('\n') + '\n');
  write('long-line.txt', `start ${'x'.repeat(10_000)}\nshort\n`);
  write('image.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
  write('late-nul.txt', Buffer.concat([Buffer.from('a\n'.repeat(4500)), Buffer.from('x\0y\n')]));
  write('.gitignore', 'ignored.txt\n');
  write('ignored.txt', 'still readable\n');
  fs.symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'secret-link'));
  fs.symlinkSync('src/a.ts', path.join(root, 'a-link.ts'));
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('read_file', () => {
  it('numbers lines like cat -n', async () => {
    const result = await read({ path: 'src/a.ts' });
    expect(result.output).toBe('     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive');
    expect(result.title).toBe('Read src/a.ts (lines 1-5 of 5)');
    expect(result.metadata).toEqual({ path: 'src/a.ts', startLine: 1, endLine: 5, totalLines: 5, truncated: false });
  });

  it('reads a range with offset and limit and says where to continue', async () => {
    const result = await read({ path: 'src/a.ts', offset: 2, limit: 2 });
    expect(result.output).toBe('     2\ttwo\n     3\tthree\n\n[Showing lines 2-3 of 5. Continue with offset=4.]');
  });

  it('stops at 2000 lines by default', async () => {
    const result = await read({ path: 'many.txt' });
    const lines = result.output.split('\n');
    expect(lines[1999]).toBe('  2000\tline 2000');
    expect(result.output).toContain('[Showing lines 1-2000 of 2500. Continue with offset=2001.]');
  });

  it('caps one read at 256 KB and says which offset to continue from', async () => {
    const result = await read({ path: 'wide.txt' });
    expect(Buffer.byteLength(result.output)).toBeLessThan(256 * 1024 + 300);
    const match = /Output stopped at 256 KB after line (\d+) of 5000\. Continue with offset=(\d+)/.exec(result.output);
    expect(match).not.toBeNull();
    expect(Number(match?.[2])).toBe(Number(match?.[1]) + 1);
    const next = await read({ path: 'wide.txt', offset: Number(match?.[2]), limit: 1 });
    expect(next.output.startsWith(`${String(match?.[2]).padStart(6)}\t${match?.[2]} www`)).toBe(true);
  });

  it('reads the start of a file too big to count without reading all of it', async () => {
    const big = path.join(root, 'huge.log');
    const line = `${'z'.repeat(99)}\n`;
    const handle = fs.openSync(big, 'w');
    const block = Buffer.from(line.repeat(10_000));
    for (let i = 0; i < 70; i++) fs.writeSync(handle, block);
    fs.closeSync(handle);
    try {
      const result = await read({ path: 'huge.log', limit: 3 });
      expect(result.output).toBe(
        `     1\t${'z'.repeat(99)}\n     2\t${'z'.repeat(99)}\n     3\t${'z'.repeat(99)}\n\n[Showing lines 1-3; the file continues. Continue with offset=4.]`,
      );
      expect(result.metadata).toMatchObject({ totalLines: null, truncated: true });
    } finally {
      fs.rmSync(big);
    }
  });

  it('cuts lines longer than 2000 characters with a marker', async () => {
    const result = await read({ path: 'long-line.txt' });
    const [first, second] = result.output.split('\n');
    expect(first).toBe(`     1\tstart ${'x'.repeat(1994)} … [line cut at 2000 characters; it is 10006 bytes long]`);
    expect(second).toBe('     2\tshort');
  });

  it('shows CRLF lines without the \\r, drops a BOM, and keeps a last line without a newline', async () => {
    expect((await read({ path: 'crlf.txt' })).output).toBe('     1\tfirst\n     2\tsecond');
    expect((await read({ path: 'bom.txt' })).output).toBe('     1\twith bom\n     2\tsecond');
    expect((await read({ path: 'noeol.txt' })).output).toBe('     1\ta\n     2\tb');
  });

  it('says a file is empty', async () => {
    const result = await read({ path: 'src/empty.txt' });
    expect(result.output).toBe('(src/empty.txt is empty)');
  });

  it('refuses an offset past the end, saying how many lines there are', async () => {
    await expect(read({ path: 'src/a.ts', offset: 9 })).rejects.toThrow(
      'read_file: offset 9 is past the end of src/a.ts, which has 5 lines; use an offset from 1 to 5.',
    );
  });

  it('refuses binary files (a NUL byte in the first 8 KB)', async () => {
    await expect(read({ path: 'image.png' })).rejects.toThrow(/^read_file: image\.png looks like a binary file \(12 bytes/);
  });

  it('reads a file whose first NUL byte comes after the first 8 KB', async () => {
    const result = await read({ path: 'late-nul.txt', offset: 4501 });
    expect(result.output).toBe('  4501\tx\0y');
  });

  it('points a folder to list_files', async () => {
    await expect(read({ path: 'src' })).rejects.toThrow('read_file: src is a folder, not a file; use list_files to see what is in it.');
  });

  it('says a missing file does not exist, suggests similar names and list_files', async () => {
    await expect(read({ path: 'src/a.js' })).rejects.toThrow(
      'read_file: src/a.js does not exist. Similar names there: src/a.ts. Use list_files on src to see what is there.',
    );
    await expect(read({ path: 'nope/deeper/x.ts' })).rejects.toThrow(
      'read_file: nope/deeper/x.ts does not exist. Use list_files on the workspace root to see what is there.',
    );
  });

  it('refuses a pipe instead of waiting on it forever', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    await expect(read({ path: 'pipe' })).rejects.toThrow(/read_file: pipe is not a regular file/);
  });

  it('reads ignored files: .gitignore is about listing and searching, not reading', async () => {
    expect((await read({ path: 'ignored.txt' })).output).toBe('     1\tstill readable');
  });

  it('follows a symlink that stays inside the workspace', async () => {
    expect((await read({ path: 'a-link.ts', limit: 1 })).title).toBe('Read src/a.ts (lines 1-1 of 5)');
  });

  it.each([
    ['a .. escape', '../secret.txt'],
    ['an absolute path outside', path.join(os.tmpdir(), 'x.txt')],
    ['the home folder', '~/.bashrc'],
    ['a symlink out', 'secret-link'],
  ])('refuses %s', async (_name, given) => {
    const attempt = read({ path: given });
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(/^read_file: Path .* Only paths inside .* are allowed/);
  });

  it('rejects a zero or negative offset and limit in its schema', () => {
    expect(readFile.parameters.safeParse({ path: 'a', offset: 0 }).success).toBe(false);
    expect(readFile.parameters.safeParse({ path: 'a', limit: -1 }).success).toBe(false);
    expect(readFile.parameters.safeParse({ path: 'a', offset: 3, limit: 10 }).success).toBe(true);
  });
});

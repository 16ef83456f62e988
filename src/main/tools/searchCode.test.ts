import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from './defineTool';
import { createSearchCode, searchCode } from './searchCode';
import type { SearchBackend } from './search/searchQuery';
import { makeToolContext } from '../../../test/support/toolContext';

const BACKENDS: SearchBackend[] = ['ripgrep', 'git', 'node'];
const tools = Object.fromEntries(BACKENDS.map((backend) => [backend, createSearchCode({ backend })])) as Record<
  SearchBackend,
  typeof searchCode
>;

let base: string;
/** A git repository holding every case the backends could disagree on. */
let repo: string;
/** The same files without git. */
let plain: string;

function write(root: string, relative: string, content: string | Buffer) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function buildTree(root: string) {
  write(root, '.gitignore', 'ignored.txt\nbuild/\n*.log\n!keep.log\n/anchored.txt\n');
  write(root, 'a.ts', 'const needle = 1;\nfunction findNeedle() {\n  return needle + 1; // needle again\n}\n');
  write(root, 'src/index.ts', "import { needle } from '../a';\nexport const x = needle;\n");
  write(root, 'src/util.test.ts', "it('finds the needle', () => {});\n");
  write(root, 'src/deep/view.tsx', 'export const View = () => <div>needle</div>;\n');
  write(root, 'src/.gitignore', 'generated/\n!important.log\n');
  write(root, 'src/generated/gen.ts', 'needle generated\n');
  write(root, 'src/important.log', 'needle in an unignored log\n');
  write(root, 'debug.log', 'needle in a log\n');
  write(root, 'keep.log', 'needle kept\n');
  write(root, 'build/out.js', 'needle built\n');
  write(root, 'ignored.txt', 'needle ignored\n');
  write(root, 'anchored.txt', 'needle anchored at the root\n');
  write(root, 'sub/anchored.txt', 'needle anchored rule does not reach here\n');
  write(root, 'sub/ignored.txt', 'needle unanchored rule reaches here\n');
  write(root, '.hidden/h.ts', 'needle hidden\n');
  write(root, '.env', 'NEEDLE_TOKEN=needle\n');
  write(root, 'crlf.txt', 'needle here\r\nNEEDLE upper\r\nend needle\r\n');
  write(root, 'bom.txt', '\ufeffneedle at the start\n');
  write(root, 'latin1.txt', Buffer.from('caf\xe9 needle\n', 'latin1'));
  write(root, 'binary.bin', Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from('needle in binary\n')]));
  write(root, 'late-nul.txt', Buffer.concat([Buffer.from('a\n'.repeat(4500)), Buffer.from('x\0y\nneedle after a late NUL\n')]));
  // NUL bytes past ripgrep's first 64 KB buffer, after a match: ripgrep prints the match, then takes it back.
  write(root, 'very-late-nul.txt', `needle early\n${'a\n'.repeat(50_000)}x\0y\nneedle late\n`);
  write(root, 'long-line-nul.txt', `needle early\n${'a'.repeat(70_000)}\nx\0y\nneedle late\n`);
  write(root, 'big.txt', Buffer.concat([Buffer.from('needle in a big file\n'), Buffer.alloc(10 * 1024 * 1024, 'b')]));
  write(root, 'long.txt', `needle ${'x'.repeat(6000)}\nshort needle\n`);
  write(root, 'long-unicode.txt', `needle ${'é'.repeat(3000)}\n`);
  write(root, 'unicode.txt', 'naïve needle ünïcode\nÉTÉ needle\n');
  write(root, 'noeol.txt', 'first\nlast needle');
  write(root, '-dash.txt', 'needle in a dashed name\n');
  write(root, 'space name.txt', 'needle in a spaced name\n');
  write(root, 'regex.txt', 'call(needle) [needle] a.b.c $needle\nTAB\tneedle\n  needle indented\n\nfoo123 bar\n');
  write(root, 'nested/deeper/more/notes.md', '# needle\nNeedle capitalised\n');
  write(root, 'empty.txt', '');
  fs.symlinkSync('a.ts', path.join(root, 'link-to-a.ts'));
  fs.symlinkSync('src', path.join(root, 'linkdir'));
}

function git(cwd: string, ...args: string[]) {
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' } });
}

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-search-')));
  repo = path.join(base, 'repo');
  plain = path.join(base, 'plain');
  buildTree(repo);
  buildTree(plain);
  git(repo, 'init', '-q');
  fs.writeFileSync(path.join(repo, '.git', 'info', 'exclude'), 'excluded.txt\n');
  write(repo, 'excluded.txt', 'needle excluded\n');
  // Tracked but ignored: the search still skips it, as ripgrep does.
  git(repo, 'add', '-f', 'ignored.txt', 'a.ts');
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

type Args = Parameters<typeof searchCode.execute>[0];

async function outputs(root: string, args: Args, backends = BACKENDS): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const backend of backends) {
    try {
      result[backend] = (await tools[backend].execute(args, makeToolContext(root))).output;
    } catch (error) {
      result[backend] = `${(error as Error).name}`;
    }
  }
  return result;
}

/** Each query, and a line its output must hold, so agreeing on an empty or broken result cannot pass. */
const QUERIES: { name: string; args: Args; shows: string }[] = [
  { name: 'a plain word', args: { pattern: 'needle' }, shows: 'a.ts:3:  return needle + 1; // needle again' },
  { name: 'a literal', args: { pattern: 'needle', literal: true }, shows: 'crlf.txt:3:end needle' },
  { name: 'a literal with regex characters', args: { pattern: 'call(needle) [', literal: true }, shows: 'regex.txt:1:call(needle)' },
  { name: 'case-insensitive', args: { pattern: 'NEEDLE', caseSensitive: false }, shows: 'a.ts:2:function findNeedle() {' },
  { name: 'case-insensitive literal', args: { pattern: 'NeEdLe', literal: true, caseSensitive: false }, shows: 'crlf.txt:2:NEEDLE upper' },
  { name: 'anchored at the end (CRLF lines keep their \\r)', args: { pattern: 'needle$' }, shows: 'noeol.txt:2:last needle' },
  { name: 'anchored at the start', args: { pattern: '^needle' }, shows: 'keep.log:1:needle kept' },
  { name: 'dot matches the \\r of a CRLF line', args: { pattern: 'here.$' }, shows: 'crlf.txt:1:needle here' },
  { name: 'word boundary and quantifier', args: { pattern: 'ne+dle\\b' }, shows: 'bom.txt:1:needle at the start' },
  { name: 'lookbehind', args: { pattern: '(?<=\\$)needle' }, shows: 'regex.txt:1:' },
  { name: 'negative lookahead', args: { pattern: 'needle(?! )' }, shows: 'src/index.ts:2:export const x = needle;' },
  { name: 'inline case flag', args: { pattern: '(?i)^needle' }, shows: 'crlf.txt:2:NEEDLE upper' },
  { name: 'POSIX class', args: { pattern: '[[:upper:]]{6}' }, shows: '.env:1:NEEDLE_TOKEN=needle' },
  { name: '\\s and \\w', args: { pattern: '\\w+\\s+needle' }, shows: 'regex.txt:2:TAB\tneedle' },
  { name: '\\d', args: { pattern: 'foo\\d+' }, shows: 'regex.txt:5:foo123 bar' },
  { name: 'a byte outside ASCII', args: { pattern: 'caf.\\s' }, shows: 'latin1.txt:1:caf\ufffd needle' },
  { name: 'UTF-8 text', args: { pattern: 'ünïcode' }, shows: 'unicode.txt:1:naïve needle ünïcode' },
  { name: 'escaped brackets', args: { pattern: '\\[needle\\]' }, shows: 'regex.txt:1:' },
  { name: 'alternation and groups', args: { pattern: '(call|TAB)\\W+needle' }, shows: 'regex.txt:2:' },
  { name: 'an empty-line match', args: { pattern: '^$' }, shows: 'regex.txt:4:' },
  { name: 'PCRE quoting with \\Q...\\E', args: { pattern: '\\Qcall(needle) [\\E' }, shows: 'regex.txt:1:' },
  { name: 'PCRE named group and back reference', args: { pattern: '(?P<w>e)(?P=w)dle' }, shows: 'a.ts:1:' },
  { name: 'PCRE \\A and \\z anchors', args: { pattern: '\\Aneedle kept\\z' }, shows: 'keep.log:1:needle kept' },
  { name: 'a class starting with ]', args: { pattern: '[]x]needle' }, shows: 'No matches' },
  { name: 'a comment holding [ before \\z', args: { pattern: '(?#[)needle kept\\z' }, shows: 'keep.log:1:needle kept' },
  { name: '\\h and a comment group', args: { pattern: '(?#tab or space)TAB\\hneedle' }, shows: 'regex.txt:2:' },
  { name: 'glob by name', args: { pattern: 'needle', glob: '*.ts' }, shows: '.hidden/h.ts:1:needle hidden' },
  { name: 'glob with braces', args: { pattern: 'needle', glob: '*.{ts,tsx}' }, shows: 'src/deep/view.tsx:1:' },
  { name: 'glob by path', args: { pattern: 'needle', glob: 'src/**' }, shows: 'src/important.log:1:' },
  { name: 'glob with a folder and a name', args: { pattern: 'needle', glob: 'src/**/*.ts' }, shows: 'src/util.test.ts:1:' },
  { name: 'glob ending in a slash', args: { pattern: 'needle', glob: 'nested/' }, shows: 'nested/deeper/more/notes.md:1:# needle' },
  { name: 'glob with **/ prefix', args: { pattern: 'needle', glob: '**/*.test.ts' }, shows: 'src/util.test.ts:1:' },
  { name: 'negated glob', args: { pattern: 'needle', glob: '!*.txt' }, shows: 'keep.log:1:needle kept' },
  { name: 'glob of an ignored folder', args: { pattern: 'needle', glob: 'build/**' }, shows: 'No matches' },
  { name: 'glob of a folder outside path', args: { pattern: 'needle', glob: 'nested/**', path: 'src' }, shows: 'No matches' },
  { name: 'a folder', args: { pattern: 'needle', path: 'src' }, shows: 'src/index.ts:1:' },
  { name: 'a folder given with ./ and a trailing slash', args: { pattern: 'needle', path: './src/' }, shows: 'src/index.ts:1:' },
  { name: 'an ignored folder', args: { pattern: 'needle', path: 'build' }, shows: 'build/out.js:1:needle built' },
  { name: 'a folder under an ignored folder', args: { pattern: 'needle', path: 'src/generated' }, shows: 'src/generated/gen.ts:1:' },
  { name: 'one file', args: { pattern: 'needle', path: 'a.ts' }, shows: 'a.ts:3:' },
  { name: 'one ignored file', args: { pattern: 'needle', path: 'ignored.txt' }, shows: 'ignored.txt:1:needle ignored' },
  { name: 'a limit', args: { pattern: 'needle', maxResults: 3 }, shows: 'Showing the first 3 of 27 matching lines in 20 files' },
  { name: 'no match', args: { pattern: 'haystack' }, shows: 'No matches for "haystack"' },
  { name: '.git is never searched', args: { pattern: 'repositoryformatversion' }, shows: 'No matches' },
  { name: 'files with NUL bytes are binary', args: { pattern: 'needle (early|late|after|in binary)' }, shows: 'No matches' },
  { name: 'an invalid regex', args: { pattern: 'needle(' }, shows: 'ToolError' },
  { name: 'an unclosed class', args: { pattern: '[needle' }, shows: 'ToolError' },
];

describe('search_code gives identical output from ripgrep, git grep and the built-in engine', () => {
  it.each(QUERIES)('in a git repository: $name', async ({ args, shows }) => {
    const all = await outputs(repo, args);
    expect(all.ripgrep).toContain(shows);
    expect(all.git).toBe(all.ripgrep);
    expect(all.node).toBe(all.ripgrep);
  });

  it.each(QUERIES)('outside a git repository (ripgrep and built-in): $name', async ({ args, shows }) => {
    const all = await outputs(plain, args, ['ripgrep', 'node']);
    expect(all.ripgrep).toContain(shows);
    expect(all.node).toBe(all.ripgrep);
  });

  it.each(QUERIES.slice(0, 12))('in a workspace that is a subfolder of a repository: $name', async ({ args }) => {
    const all = await outputs(path.join(repo, 'sub'), args);
    // The repository's .gitignore reaches into the subfolder: its unanchored rule hides sub/ignored.txt.
    expect(all.ripgrep).not.toContain('ignored.txt');
    expect(all.git).toBe(all.ripgrep);
    expect(all.node).toBe(all.ripgrep);
  });
});

describe('search_code', () => {
  it('returns path:line:text sorted by path then line, skipping ignored, excluded, binary (any NUL byte), huge and linked files', async () => {
    const ctx = makeToolContext(repo);
    const result = await searchCode.execute({ pattern: 'needle' }, ctx);
    const lines = result.output.split('\n');
    const paths = [...new Set(lines.map((line) => line.slice(0, line.indexOf(':'))))];
    expect(paths).toEqual([
      '-dash.txt',
      '.env',
      '.hidden/h.ts',
      'a.ts',
      'bom.txt',
      'crlf.txt',
      'keep.log',
      'latin1.txt',
      'long-unicode.txt',
      'long.txt',
      'nested/deeper/more/notes.md',
      'noeol.txt',
      'regex.txt',
      'space name.txt',
      'src/deep/view.tsx',
      'src/important.log',
      'src/index.ts',
      'src/util.test.ts',
      'sub/anchored.txt',
      'unicode.txt',
    ]);
    expect(lines).toContain('a.ts:1:const needle = 1;');
    expect(lines).toContain('a.ts:3:  return needle + 1; // needle again');
    expect(lines).toContain('crlf.txt:1:needle here');
    expect(lines).toContain('crlf.txt:3:end needle');
    expect(lines).toContain('bom.txt:1:needle at the start');
    expect(lines).toContain('latin1.txt:1:caf\ufffd needle');
    expect(lines).toContain('noeol.txt:2:last needle');
    const long = lines.find((line) => line.startsWith('long.txt:1:')) ?? '';
    expect(long).toBe(`long.txt:1:needle ${'x'.repeat(493)} … [line cut at 500 characters]`);
    expect(result.metadata).toMatchObject({ backend: 'ripgrep', totalFiles: 20 });
  });

  it('says how many lines matched in all when it stops at maxResults', async () => {
    const result = await searchCode.execute({ pattern: 'needle', maxResults: 2 }, makeToolContext(repo));
    const [first, second, ...rest] = result.output.split('\n');
    expect([first, second]).toEqual(['-dash.txt:1:needle in a dashed name', '.env:1:NEEDLE_TOKEN=needle']);
    expect(rest.join('\n')).toMatch(/Showing the first 2 of \d+ matching lines in 20 files.*raise maxResults/);
  });

  it('refuses an invalid regex with the pattern and the engine message', async () => {
    for (const backend of BACKENDS) {
      const run = tools[backend].execute({ pattern: 'foo(bar' }, makeToolContext(repo));
      await expect(run).rejects.toBeInstanceOf(ToolError);
      await expect(run).rejects.toThrow(
        /^search_code: the pattern "foo\(bar" is not a valid regular expression \((ripgrep: PCRE2: error compiling pattern at offset 7: missing closing parenthesis|git grep: -e option, 'foo\(bar': missing closing parenthesis|JavaScript RegExp: Unterminated group)\)\. .*literal: true/,
      );
    }
  });

  it('refuses a pattern with a line break', async () => {
    await expect(searchCode.execute({ pattern: 'a\nb' }, makeToolContext(repo))).rejects.toThrow(/line break/);
  });

  it('says when nothing matched, and that the search was case-sensitive', async () => {
    const result = await searchCode.execute({ pattern: 'NEEDLE AT' }, makeToolContext(repo));
    expect(result.output).toBe(
      'No matches for "NEEDLE AT" in the workspace. The search was case-sensitive; set caseSensitive: false to ignore case.',
    );
  });

  it('notes that an ignored folder named in path was searched without ignore rules', async () => {
    const result = await searchCode.execute({ pattern: 'needle', path: 'build' }, makeToolContext(repo));
    expect(result.output).toContain('build/out.js:1:needle built');
    expect(result.output).toContain('[build is ignored by .gitignore; it was searched anyway, without ignore rules.]');
  });

  it('refuses paths outside the workspace, naming the tool', async () => {
    await expect(searchCode.execute({ pattern: 'x', path: '../' }, makeToolContext(repo))).rejects.toThrow(
      /^search_code: Path "\.\.\/" resolves to .* outside the workspace/,
    );
    await expect(searchCode.execute({ pattern: 'x', path: 'linkdir/../../..' }, makeToolContext(repo))).rejects.toBeInstanceOf(ToolError);
  });

  it('says a missing path does not exist and suggests list_files', async () => {
    await expect(searchCode.execute({ pattern: 'x', path: 'srcs' }, makeToolContext(repo))).rejects.toThrow(
      /search_code: srcs does not exist\. Similar names there: src\. Use list_files/,
    );
  });

  it('does not search inside .git', async () => {
    await expect(searchCode.execute({ pattern: 'x', path: '.git' }, makeToolContext(repo))).rejects.toThrow(/inside \.git/);
  });

  it('stops at once when aborted, on every backend', async () => {
    const big = path.join(base, 'big-tree');
    for (let i = 0; i < 3000; i++) write(big, `d${i % 30}/f${i}.txt`, `line ${i}\n`.repeat(50));
    for (const backend of BACKENDS) {
      const ctx = makeToolContext(big);
      ctx.abort(new Error('stopped by the person'));
      await expect(tools[backend].execute({ pattern: 'line' }, ctx)).rejects.toThrow('stopped by the person');
      const running = makeToolContext(big);
      const started = Date.now();
      const search = tools[backend].execute({ pattern: '(a|b|c|line)+\\s+\\d+$' }, running);
      setTimeout(() => running.abort(new Error('stopped later')), 5);
      await expect(search).rejects.toThrow('stopped later');
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from './defineTool';
import { listFiles } from './listFiles';
import { makeToolContext } from '../../../test/support/toolContext';

let base: string;
let root: string;

function write(relative: string, content = '') {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const list = (args: Parameters<typeof listFiles.execute>[0] = {}, at = root) => listFiles.execute(args, makeToolContext(at));

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-list-')));
  root = path.join(base, 'ws');
  fs.mkdirSync(root);
  execFileSync('git', ['init', '-q'], { cwd: root });
  fs.writeFileSync(path.join(root, '.git', 'info', 'exclude'), 'secret-notes.md\n');
  write('.gitignore', 'node_modules/\n*.log\ndist\n');
  write('README.md');
  write('package.json');
  write('debug.log');
  write('secret-notes.md');
  write('node_modules/react/index.js');
  write('dist/bundle.js');
  write('src/index.ts');
  write('src/.gitignore', 'generated/\n!keep.log\n');
  write('src/keep.log');
  write('src/generated/types.ts');
  write('src/components/Button.tsx');
  write('src/components/forms/Input.tsx');
  write('src/components/forms/deeper/Deep.tsx');
  write('.github/workflows/ci.yml');
  fs.mkdirSync(path.join(root, 'empty'));
  fs.symlinkSync('src', path.join(root, 'src-link'));
  fs.symlinkSync(os.tmpdir(), path.join(root, 'tmp-link'));
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('list_files', () => {
  it('draws a tree, folders first with a trailing slash, honouring .gitignore (nested too) and .git/info/exclude, never .git', async () => {
    const result = await list();
    expect(result.output).toBe(
      [
        './',
        '  .github/',
        '    workflows/',
        '      ci.yml',
        '  empty/',
        '  src/',
        '    components/',
        '      forms/  (2 entries inside)',
        '      Button.tsx',
        '    .gitignore',
        '    index.ts',
        '    keep.log',
        '  .gitignore',
        '  README.md',
        '  package.json',
        `  src-link -> src`,
        `  tmp-link -> ${os.tmpdir()}`,
        '',
        '[Left out as ignored by .gitignore: debug.log, dist/, node_modules/, secret-notes.md, src/generated/.]',
      ].join('\n'),
    );
    expect(result.title).toBe('Listed the workspace (16 entries)');
  });

  it('descends as deep as asked', async () => {
    const result = await list({ path: 'src/components', depth: 1 });
    expect(result.output).toBe('src/components/\n  forms/  (2 entries inside)\n  Button.tsx');
    const deep = await list({ path: 'src/components', depth: 10 });
    expect(deep.output).toBe('src/components/\n  forms/\n    deeper/\n      Deep.tsx\n    Input.tsx\n  Button.tsx');
  });

  it('stops at 1000 entries, shallow levels first, and says how many were left out', async () => {
    const many = path.join(base, 'many');
    for (let i = 0; i < 30; i++) fs.mkdirSync(path.join(many, `dir${String(i).padStart(2, '0')}`), { recursive: true });
    for (let i = 0; i < 1200; i++) fs.writeFileSync(path.join(many, `dir${String(i % 30).padStart(2, '0')}`, `file${i}.txt`), '');
    const result = await list({}, many);
    const lines = result.output.split('\n');
    expect(lines.filter((line) => /^ {2}dir\d\d\/$/.test(line))).toHaveLength(30);
    expect(lines.filter((line) => line.trim().startsWith('file'))).toHaveLength(970);
    expect(result.output).toContain(
      '[230 more entries not shown: the listing stops at 1000. List a subfolder with path, or use a smaller depth.]',
    );
    expect(result.output).toContain('… ');
    expect(result.metadata).toMatchObject({ shown: 1000, leftOut: 230 });
  });

  it('lists an ignored folder when asked for it by name, and says so', async () => {
    const result = await list({ path: 'node_modules' });
    expect(result.output).toBe(
      'node_modules/\n  react/\n    index.js\n\n[node_modules is ignored by .gitignore; it is listed anyway, without ignore rules.]',
    );
  });

  it('says when a folder is empty', async () => {
    expect((await list({ path: 'empty' })).output).toBe('empty/\n\n(empty folder)');
  });

  it('points a file to read_file', async () => {
    await expect(list({ path: 'README.md' })).rejects.toThrow(
      'list_files: README.md is a file, not a folder; use read_file to read it, or list its folder.',
    );
  });

  it('says a missing folder does not exist and suggests a near name', async () => {
    await expect(list({ path: 'scr' })).rejects.toThrow(
      'list_files: scr does not exist. Similar names there: src. Use list_files on the workspace root to see what is there.',
    );
  });

  it.each([
    ['a .. escape', '..'],
    ['an absolute path outside', os.tmpdir()],
    ['the home folder', '~'],
    ['a symlink out', 'tmp-link'],
  ])('refuses %s', async (_name, given) => {
    const attempt = list({ path: given });
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(/^list_files: Path .* Only paths inside .* are allowed/);
  });

  it('accepts depth from 1 to 10 only', () => {
    expect(listFiles.parameters.safeParse({ depth: 11 }).success).toBe(false);
    expect(listFiles.parameters.safeParse({ depth: 0 }).success).toBe(false);
    expect(listFiles.parameters.safeParse({ depth: 10 }).success).toBe(true);
  });

  it('respects .gitignore outside a git repository too', async () => {
    const plain = path.join(base, 'plain');
    fs.mkdirSync(path.join(plain, 'out'), { recursive: true });
    fs.writeFileSync(path.join(plain, '.gitignore'), 'out/\n');
    fs.writeFileSync(path.join(plain, 'main.c'), '');
    expect((await list({}, plain)).output).toBe('./\n  .gitignore\n  main.c\n\n[Left out as ignored by .gitignore: out/.]');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { changedFiles, fileDiff, languageForPath, WORKTREE } from './diff';
import { openShadowRepo, type ShadowRepo } from './shadowRepo';

const created: string[] = [];
let workspace: string;
let repo: ShadowRepo;

beforeEach(async () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-diff-')));
  created.push(base);
  workspace = path.join(base, 'workspace');
  fs.mkdirSync(workspace);
  repo = await openShadowRepo({ workspace, gitDir: path.join(base, 'shadow.git') });
});

afterAll(() => {
  for (const folder of created) fs.rmSync(folder, { recursive: true, force: true });
});

function write(relative: string, content: string | Buffer): void {
  const file = path.join(workspace, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function remove(relative: string): void {
  fs.rmSync(path.join(workspace, relative));
}

describe('changedFiles', () => {
  it('lists added, modified and deleted files with their added and removed line counts, in path order', async () => {
    write('src/keep.ts', 'unchanged\n');
    write('src/edit.ts', 'a\nb\nc\nd\n');
    write('gone.md', 'one\ntwo\nthree\n');
    const start = await repo.snapshot('start');
    write('src/edit.ts', 'a\nB\nc\nd\ne\nf\n');
    remove('gone.md');
    write('docs/new.md', '# new\n\ntext\n');
    const now = await repo.snapshot('step');
    expect(await changedFiles(repo, start.commit, now.commit)).toEqual([
      { path: 'docs/new.md', status: 'added', additions: 3, deletions: 0, binary: false },
      { path: 'gone.md', status: 'deleted', additions: 0, deletions: 3, binary: false },
      { path: 'src/edit.ts', status: 'modified', additions: 3, deletions: 1, binary: false },
    ]);
  });

  it("compares against the workspace as it is now when asked for 'worktree'", async () => {
    write('a.txt', 'one\n');
    const start = await repo.snapshot('start');
    expect(await changedFiles(repo, start.commit, WORKTREE)).toEqual([]);
    write('a.txt', 'one\ntwo\n');
    expect(await changedFiles(repo, start.commit, WORKTREE)).toEqual([
      { path: 'a.txt', status: 'modified', additions: 1, deletions: 0, binary: false },
    ]);
  });

  it('flags binary files and counts no lines for them', async () => {
    write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const start = await repo.snapshot('start');
    write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x02, 0x03]));
    write('data.bin', Buffer.from([0, 1, 2]));
    expect(await changedFiles(repo, start.commit, WORKTREE)).toEqual([
      { path: 'data.bin', status: 'added', additions: 0, deletions: 0, binary: true },
      { path: 'logo.png', status: 'modified', additions: 0, deletions: 0, binary: true },
    ]);
  });

  it("decides binary by content, whatever the workspace's .gitattributes say", async () => {
    write('.gitattributes', '*.lock -diff\n*.txt binary\n');
    write('yarn.lock', 'a\n');
    write('notes.txt', 'x\n');
    const start = await repo.snapshot('start');
    write('yarn.lock', 'a\nb\n');
    write('notes.txt', 'x\ny\n');
    const changes = await changedFiles(repo, start.commit, WORKTREE);
    expect(changes.map((change) => [change.path, change.binary, change.additions])).toEqual([
      ['notes.txt', false, 1],
      ['yarn.lock', false, 1],
    ]);
  });

  it('shows a rename as the old path deleted and the new path added', async () => {
    write('old-name.ts', 'export const x = 1;\nexport const y = 2;\n');
    const start = await repo.snapshot('start');
    fs.renameSync(path.join(workspace, 'old-name.ts'), path.join(workspace, 'new-name.ts'));
    expect(await changedFiles(repo, start.commit, WORKTREE)).toEqual([
      { path: 'new-name.ts', status: 'added', additions: 2, deletions: 0, binary: false },
      { path: 'old-name.ts', status: 'deleted', additions: 0, deletions: 2, binary: false },
    ]);
  });

  it('shows a change of the executable bit alone as a modification with no lines changed', async () => {
    write('run.sh', 'echo hi\n');
    fs.chmodSync(path.join(workspace, 'run.sh'), 0o644);
    const start = await repo.snapshot('start');
    fs.chmodSync(path.join(workspace, 'run.sh'), 0o755);
    expect(await changedFiles(repo, start.commit, WORKTREE)).toEqual([
      { path: 'run.sh', status: 'modified', additions: 0, deletions: 0, binary: false },
    ]);
  });

  it('refuses a target that is not a snapshot, including one that looks like an option', async () => {
    const start = await repo.snapshot('start');
    await expect(changedFiles(repo, start.commit, 'deadbeef')).rejects.toThrow(/has no snapshot "deadbeef"/);
    await expect(changedFiles(repo, 'deadbeef'.repeat(5), start.commit)).rejects.toThrow(/has no snapshot "(deadbeef){5}"/);
    await expect(changedFiles(repo, '--output=/tmp/x', start.commit)).rejects.toThrow(/is not a snapshot commit/);
  });
});

describe('fileDiff', () => {
  it('gives the text before and after, with the language guessed from the name', async () => {
    write('src/app.ts', 'const a = 1;\n');
    const start = await repo.snapshot('start');
    write('src/app.ts', 'const a = 2;\n');
    expect(await fileDiff(repo, start.commit, WORKTREE, 'src/app.ts')).toEqual({
      path: 'src/app.ts',
      status: 'modified',
      before: 'const a = 1;\n',
      after: 'const a = 2;\n',
      language: 'typescript',
      binary: false,
    });
  });

  it('gives an empty side for a file that was added or deleted', async () => {
    write('gone.py', 'print(1)\n');
    const start = await repo.snapshot('start');
    remove('gone.py');
    write('new.go', 'package main\n');
    const now = await repo.snapshot('now');
    expect(await fileDiff(repo, start.commit, now.commit, 'gone.py')).toMatchObject({
      status: 'deleted',
      before: 'print(1)\n',
      after: '',
      language: 'python',
    });
    expect(await fileDiff(repo, start.commit, now.commit, 'new.go')).toMatchObject({
      status: 'added',
      before: '',
      after: 'package main\n',
      language: 'go',
    });
  });

  it('keeps exact bytes (CRLF line endings, no trailing newline) in both texts', async () => {
    write('.gitattributes', '* text=auto eol=lf\n');
    write('win.txt', 'a\r\nb\r\n');
    const start = await repo.snapshot('start');
    write('win.txt', 'a\r\nb\r\nc');
    const diff = await fileDiff(repo, start.commit, WORKTREE, 'win.txt');
    expect(diff.before).toBe('a\r\nb\r\n');
    expect(diff.after).toBe('a\r\nb\r\nc');
  });

  it('keeps a byte-order mark, so adding one shows as a change', async () => {
    write('bom.txt', 'text\n');
    const start = await repo.snapshot('start');
    write('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('text\n')]));
    const diff = await fileDiff(repo, start.commit, WORKTREE, 'bom.txt');
    expect(diff.before).toBe('text\n');
    expect(diff.after).toBe('\uFEFFtext\n');
  });

  it('flags a binary file and leaves out its content', async () => {
    write('image.png', Buffer.from([0x89, 0x50, 0x00, 0x47]));
    const start = await repo.snapshot('start');
    write('image.png', Buffer.from([0x89, 0x50, 0x00, 0x48]));
    expect(await fileDiff(repo, start.commit, WORKTREE, 'image.png')).toEqual({
      path: 'image.png',
      status: 'modified',
      before: '',
      after: '',
      language: 'plaintext',
      binary: true,
    });
  });

  it('flags a file that became binary', async () => {
    write('data', 'text at first\n');
    const start = await repo.snapshot('start');
    write('data', Buffer.from([1, 0, 2]));
    expect(await fileDiff(repo, start.commit, WORKTREE, 'data')).toMatchObject({ binary: true, before: '', after: '' });
  });

  it('says so when neither snapshot has the file, or the path is a folder', async () => {
    write('src/a.ts', 'a\n');
    const start = await repo.snapshot('start');
    await expect(fileDiff(repo, start.commit, WORKTREE, 'nope.ts')).rejects.toThrow(/There is no file "nope.ts" in either snapshot/);
    await expect(fileDiff(repo, start.commit, WORKTREE, 'src')).rejects.toThrow(/There is no file "src" in either snapshot/);
  });
});

describe('languageForPath', () => {
  const cases: [string, string][] = [
    ['src/app.ts', 'typescript'],
    ['src/App.tsx', 'typescript'],
    ['lib/index.mjs', 'javascript'],
    ['package.json', 'json'],
    ['README.md', 'markdown'],
    ['tool.py', 'python'],
    ['main.go', 'go'],
    ['lib.rs', 'rust'],
    ['Main.java', 'java'],
    ['x.c', 'c'],
    ['x.h', 'c'],
    ['x.cpp', 'cpp'],
    ['x.hpp', 'cpp'],
    ['style.css', 'css'],
    ['index.html', 'html'],
    ['ci.yml', 'yaml'],
    ['ci.yaml', 'yaml'],
    ['build.sh', 'shell'],
    ['Dockerfile', 'dockerfile'],
    ['.bashrc', 'shell'],
    ['C:\\repo\\Web.Config.XML', 'xml'],
    ['notes.txt', 'plaintext'],
    ['Makefile', 'plaintext'],
    ['LICENSE', 'plaintext'],
    ['.gitignore', 'plaintext'],
    ['weird.constructor', 'plaintext'],
    ['x.toString', 'plaintext'],
  ];
  it.each(cases)('%s is %s', (file, language) => {
    expect(languageForPath(file)).toBe(language);
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changedFiles, fileDiff } from './diff';
import { GitError, MISSING_GIT_MESSAGE } from './git';
import { DEFAULT_MAX_FILE_BYTES, openShadowRepo, type ShadowRepo } from './shadowRepo';

const created: string[] = [];
let base: string;
let workspace: string;
let gitDir: string;

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-shadow-')));
  created.push(base);
  workspace = path.join(base, 'workspace');
  gitDir = path.join(base, 'data', 'shadow', 'project.git');
  fs.mkdirSync(workspace);
});

afterAll(() => {
  for (const folder of created) fs.rmSync(folder, { recursive: true, force: true });
});

function write(relative: string, content: string | Buffer, mode?: number): void {
  const file = path.join(workspace, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (mode !== undefined) fs.chmodSync(file, mode);
}

function read(relative: string): Buffer {
  return fs.readFileSync(path.join(workspace, relative));
}

/** The person's own git, as they would run it: no Tether isolation, only a clean GIT_* slate. */
function userGit(args: string[], cwd = workspace): Buffer {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^GIT_/i.test(key)) env[key] = value;
  return execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], { cwd, env });
}

/** Paths in a snapshot's tree. */
async function treeFiles(repo: ShadowRepo, commit: string): Promise<string[]> {
  const run = await repo.git(['ls-tree', '-r', '-z', '--name-only', commit]);
  return run.stdout.toString('utf8').split('\0').filter(Boolean).sort();
}

async function objectCount(repo: ShadowRepo): Promise<string> {
  return (await repo.git(['count-objects', '-v'])).stdout.toString('utf8');
}

/** Every file and folder under `root`, with what identifies its state (bytes, mode, link target). */
function fingerprint(root: string, skip: (relative: string) => boolean = () => false): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const absolute = path.join(folder, name);
      const relative = path.relative(root, absolute).split(path.sep).join('/');
      if (skip(relative)) continue;
      const stat = fs.lstatSync(absolute);
      if (stat.isSymbolicLink()) result[relative] = `link -> ${fs.readlinkSync(absolute)}`;
      else if (stat.isDirectory()) {
        result[`${relative}/`] = 'dir';
        walk(absolute);
      } else result[relative] = `${(stat.mode & 0o111) !== 0 ? 'exec' : 'file'} ${fs.readFileSync(absolute).toString('base64')}`;
    }
  };
  walk(root);
  return result;
}

describe('snapshots of a folder that is not a git repository', () => {
  it('records every file, then makes no new commit and writes no object when nothing changed', async () => {
    write('src/a.ts', 'export const a = 1;\n');
    write('README.md', '# hello\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const first = await repo.snapshot('session start');
    expect(first.changed).toBe(true);
    expect(await treeFiles(repo, first.commit)).toEqual(['README.md', 'src/a.ts']);
    expect(fs.existsSync(path.join(workspace, '.git'))).toBe(false);

    const objectsBefore = await objectCount(repo);
    const again = await repo.snapshot('nothing happened');
    expect(again).toEqual({ commit: first.commit, tree: first.tree, changed: false, skipped: [] });
    expect(await objectCount(repo)).toBe(objectsBefore);
    expect(await repo.resolveRef('refs/tether/latest').catch((error: Error) => error.message)).toMatch(/reserved/);
  });

  it('chains snapshots: each commit has the previous snapshot as parent and the label as message', async () => {
    write('a.txt', 'one\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const first = await repo.snapshot('start');
    write('a.txt', 'two\n');
    const second = await repo.snapshot('after step 1');
    expect(second.changed).toBe(true);
    const parent = (await repo.git(['rev-parse', `${second.commit}^`])).stdout.toString().trim();
    expect(parent).toBe(first.commit);
    expect((await repo.git(['log', '-1', '--format=%s%n%an <%ae>', second.commit])).stdout.toString().trim()).toBe(
      'after step 1\nTether <tether@localhost>',
    );
  });

  it('snapshots an empty folder as the empty tree', async () => {
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('empty');
    expect(snapshot.changed).toBe(true);
    expect(snapshot.tree).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });

  it('keeps the index between opens, so a reopened repository finds nothing changed', async () => {
    write('a.txt', 'one\n');
    const first = await (await openShadowRepo({ workspace, gitDir })).snapshot('start');
    const reopened = await openShadowRepo({ workspace, gitDir });
    const again = await reopened.snapshot('after reopening');
    expect(again.changed).toBe(false);
    expect(again.commit).toBe(first.commit);
    expect(fs.existsSync(path.join(gitDir, 'index'))).toBe(true);
  });

  it('sees files changed by a command, not only through Tether', async () => {
    write('notes.txt', 'a\nb\n');
    write('old.txt', 'bye\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const start = await repo.snapshot('start');
    execFileSync('sh', ['-c', 'echo c >> notes.txt && rm old.txt && mkdir -p gen && printf "x\\ny\\n" > gen/out.txt'], { cwd: workspace });
    expect(await changedFiles(repo, start.commit, 'worktree')).toEqual([
      { path: 'gen/out.txt', status: 'added', additions: 2, deletions: 0, binary: false },
      { path: 'notes.txt', status: 'modified', additions: 1, deletions: 0, binary: false },
      { path: 'old.txt', status: 'deleted', additions: 0, deletions: 1, binary: false },
    ]);
  });

  it('treats names with glob characters, spaces and non-ASCII letters literally', async () => {
    write('a[1].txt', 'bracket\n');
    write('a1.txt', 'plain\n');
    write('*', 'star\n');
    write('with space/é ü.md', 'accents\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const start = await repo.snapshot('start');
    expect(await treeFiles(repo, start.commit)).toEqual(['*', 'a1.txt', 'a[1].txt', 'with space/é ü.md']);
    write('a[1].txt', 'bracket changed\n');
    write('*', 'star changed\n');
    expect((await changedFiles(repo, start.commit, 'worktree')).map((change) => change.path)).toEqual(['*', 'a[1].txt']);
    expect((await fileDiff(repo, start.commit, 'worktree', 'a[1].txt')).after).toBe('bracket changed\n');
    expect((await fileDiff(repo, start.commit, 'worktree', 'with space/é ü.md')).before).toBe('accents\n');
  });

  it('records a symbolic link as a link (never following it out of the workspace) and the executable bit', async () => {
    const outside = path.join(base, 'outside.txt');
    fs.writeFileSync(outside, 'secret\n');
    fs.symlinkSync(outside, path.join(workspace, 'link'));
    write('run.sh', '#!/bin/sh\necho hi\n', 0o755);
    write('plain.txt', 'plain\n', 0o644);
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('start');
    const listing = (await repo.git(['ls-tree', '-z', snapshot.commit])).stdout.toString('utf8').split('\0').filter(Boolean);
    expect(listing.map((line) => `${line.split(' ')[0]} ${line.split('\t')[1]}`).sort()).toEqual([
      '100644 plain.txt',
      '100755 run.sh',
      '120000 link',
    ]);
    expect((await fileDiff(repo, snapshot.commit, snapshot.commit, 'link')).after).toBe(outside);
  });

  it('stores a snapshot of many new files as one pack, not one object file each, and reads them back', async () => {
    for (let i = 0; i < 300; i++) write(`many/file${i}.txt`, `content of file ${i}\n`);
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('start');
    expect(await treeFiles(repo, snapshot.commit)).toHaveLength(300);
    const counts = Object.fromEntries(
      (await objectCount(repo))
        .trim()
        .split('\n')
        .map((line) => line.split(': ') as [string, string]),
    );
    expect(Number(counts['in-pack'])).toBeGreaterThanOrEqual(300);
    expect(Number(counts.count)).toBeLessThan(10);
    expect((await fileDiff(repo, snapshot.commit, snapshot.commit, 'many/file123.txt')).after).toBe('content of file 123\n');
  });

  it('serialises snapshots taken at the same time, from one or two handles on the same repository', async () => {
    write('a.txt', 'a\n');
    const one = await openShadowRepo({ workspace, gitDir });
    const two = await openShadowRepo({ workspace, gitDir });
    await one.snapshot('start');
    write('b.txt', 'b\n');
    const results = await Promise.all([one.snapshot('x'), two.snapshot('y'), one.snapshot('z')]);
    expect(new Set(results.map((result) => result.tree)).size).toBe(1);
    expect(results.filter((result) => result.changed)).toHaveLength(1);
  });
});

describe('what a snapshot leaves out', () => {
  it('respects .gitignore files (root and nested, with negation) and never records a .git folder', async () => {
    write('.gitignore', 'node_modules/\n*.log\n!keep.log\n');
    write('node_modules/dep/index.js', 'module.exports = 1;\n');
    write('debug.log', 'noise\n');
    write('keep.log', 'kept\n');
    write('pkg/.gitignore', 'build/\n');
    write('pkg/build/out.js', 'built\n');
    write('pkg/src/main.ts', 'main\n');
    write('nested/.git', 'gitdir: /somewhere/else\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('start');
    expect(await treeFiles(repo, snapshot.commit)).toEqual(['.gitignore', 'keep.log', 'pkg/.gitignore', 'pkg/src/main.ts']);
  });

  it('drops files from later snapshots once a .gitignore starts ignoring them', async () => {
    write('dist/bundle.js', 'bundle\n');
    write('src/a.ts', 'a\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const start = await repo.snapshot('start');
    expect(await treeFiles(repo, start.commit)).toContain('dist/bundle.js');
    write('.gitignore', 'dist/\n');
    const after = await repo.snapshot('ignored dist');
    expect(await treeFiles(repo, after.commit)).toEqual(['.gitignore', 'src/a.ts']);
  });

  it('skips files over 2 MB (reporting them), keeps a file of exactly 2 MB, and drops a tracked file that grows past it', async () => {
    write('exact.bin', Buffer.alloc(DEFAULT_MAX_FILE_BYTES, 'a'));
    write('huge.bin', Buffer.alloc(DEFAULT_MAX_FILE_BYTES + 1, 'b'));
    write('grows.txt', 'small\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const start = await repo.snapshot('start');
    expect(await treeFiles(repo, start.commit)).toEqual(['exact.bin', 'grows.txt']);
    expect(start.skipped).toEqual([{ path: 'huge.bin', reason: 'too_large', size: DEFAULT_MAX_FILE_BYTES + 1 }]);

    write('grows.txt', Buffer.alloc(3 * 1024 * 1024, 'c'));
    const later = await repo.snapshot('grew');
    expect(await treeFiles(repo, later.commit)).toEqual(['exact.bin']);
    expect(later.skipped.map((file) => file.path).sort()).toEqual(['grows.txt', 'huge.bin']);
    const blobs = (await repo.git(['rev-list', '--objects', '--all'])).stdout.toString('utf8');
    expect(blobs).not.toMatch(/huge\.bin/);
  });

  it('honours a smaller limit when one is given', async () => {
    write('small.txt', 'tiny\n');
    write('medium.txt', 'x'.repeat(200));
    const repo = await openShadowRepo({ workspace, gitDir, maxFileBytes: 100 });
    const snapshot = await repo.snapshot('start');
    expect(await treeFiles(repo, snapshot.commit)).toEqual(['small.txt']);
  });

  it('records neither a nested repository nor its files, and says so', async () => {
    write('top.txt', 'top\n');
    fs.mkdirSync(path.join(workspace, 'vendor', 'lib'), { recursive: true });
    userGit(['init', '-q'], path.join(workspace, 'vendor', 'lib'));
    write('vendor/lib/code.c', 'int x;\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('start');
    expect(await treeFiles(repo, snapshot.commit)).toEqual(['top.txt']);
    expect(snapshot.skipped).toEqual([{ path: 'vendor/lib', reason: 'nested_repository' }]);
  });
});

describe('a workspace that is itself a git repository', () => {
  const saved: Record<string, string | undefined> = {};
  const keys = ['HOME', 'XDG_CONFIG_HOME', 'GIT_DIR', 'GIT_INDEX_FILE', 'GIT_WORK_TREE'];

  beforeEach(() => {
    for (const key of keys) saved[key] = process.env[key];
  });
  afterEach(() => {
    for (const key of keys) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  /** Everything under .git: names, sizes, modes and bytes. */
  function gitFolderState(): Record<string, string> {
    return fingerprint(path.join(workspace, '.git'));
  }

  it("never touches the person's index, HEAD, refs, hooks or config, and ignores their global config and GIT_* variables", async () => {
    write('src/app.ts', 'export const app = 1;\n');
    write('README.md', '# app\n');
    write('.gitignore', 'secret.env\n');
    userGit(['init', '-q', '-b', 'main']);
    userGit(['add', '-A']);
    userGit(['commit', '-q', '-m', 'first']);
    userGit(['tag', 'v1']);
    // A dirty tree: one change staged, another not, an untracked file and an ignored one.
    write('src/app.ts', 'export const app = 2;\n');
    userGit(['add', 'src/app.ts']);
    write('README.md', '# app\n\nmore\n');
    write('untracked.txt', 'new\n');
    write('secret.env', 'TOKEN=1\n');
    // Hooks that would leave a mark if any git call of Tether's ran them.
    const marker = path.join(base, 'hook-ran');
    for (const hook of ['pre-commit', 'post-commit', 'post-index-change', 'reference-transaction', 'post-checkout']) {
      const file = path.join(workspace, '.git', 'hooks', hook);
      fs.writeFileSync(file, `#!/bin/sh\necho ${hook} >> "${marker}"\n`);
      fs.chmodSync(file, 0o755);
    }
    // Global config and environment that would change what a snapshot holds if they were read.
    const home = path.join(base, 'home');
    fs.mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
    fs.writeFileSync(path.join(home, 'everything-ignored'), '*\n');
    fs.writeFileSync(
      path.join(home, '.gitconfig'),
      `[core]\n\tautocrlf = true\n\texcludesFile = ${path.join(home, 'everything-ignored')}\n\thooksPath = ${path.join(workspace, '.git', 'hooks')}\n`,
    );
    fs.writeFileSync(path.join(home, '.config', 'git', 'ignore'), '*.ts\n');
    process.env.HOME = home;
    process.env.XDG_CONFIG_HOME = path.join(home, '.config');
    process.env.GIT_DIR = path.join(workspace, '.git');
    process.env.GIT_INDEX_FILE = path.join(workspace, '.git', 'index');
    process.env.GIT_WORK_TREE = workspace;

    const statusBefore = userGit([
      '--no-optional-locks',
      'status',
      '--porcelain=v2',
      '--branch',
      '-z',
      '--untracked-files=all',
      '--ignored',
    ]).toString('utf8');
    const refsBefore = userGit(['for-each-ref', '--format=%(refname) %(objectname)']).toString('utf8');
    const headBefore = userGit(['rev-parse', 'HEAD']).toString('utf8');
    const indexBefore = fs.readFileSync(path.join(workspace, '.git', 'index'));
    const gitBefore = gitFolderState();

    const repo = await openShadowRepo({ workspace, gitDir });
    const start = await repo.snapshot('start', { ref: 'sessions/s1/base' });
    expect(await treeFiles(repo, start.commit)).toEqual(['.gitignore', 'README.md', 'src/app.ts', 'untracked.txt']);
    write('src/app.ts', 'export const app = 3;\n');
    fs.rmSync(path.join(workspace, 'untracked.txt'));
    expect((await changedFiles(repo, start.commit, 'worktree')).map((change) => `${change.status} ${change.path}`)).toEqual([
      'modified src/app.ts',
      'deleted untracked.txt',
    ]);
    await fileDiff(repo, start.commit, 'worktree', 'src/app.ts');
    await repo.restoreFiles(start.commit);
    expect(read('src/app.ts').toString()).toBe('export const app = 2;\n');

    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.readFileSync(path.join(workspace, '.git', 'index')).equals(indexBefore)).toBe(true);
    expect(gitFolderState()).toEqual(gitBefore);
    expect(
      userGit(['--no-optional-locks', 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignored']).toString('utf8'),
    ).toBe(statusBefore);
    expect(userGit(['for-each-ref', '--format=%(refname) %(objectname)']).toString('utf8')).toBe(refsBefore);
    expect(userGit(['rev-parse', 'HEAD']).toString('utf8')).toBe(headBefore);
  });

  it("refuses a shadow repository inside the workspace, such as the person's own .git", async () => {
    userGit(['init', '-q']);
    await expect(openShadowRepo({ workspace, gitDir: path.join(workspace, '.git') })).rejects.toThrow(/inside the workspace/);
    await expect(openShadowRepo({ workspace, gitDir: path.join(workspace, 'sub', 'shadow.git') })).rejects.toThrow(/inside the workspace/);
  });

  it('refuses a shadow repository that a link, dangling or not, would put inside the workspace', async () => {
    const data = path.join(base, 'data');
    fs.mkdirSync(data, { recursive: true });
    fs.symlinkSync(workspace, path.join(data, 'live'));
    fs.symlinkSync(path.join(workspace, 'not-yet'), path.join(data, 'dangling'));
    for (const through of ['live/shadow.git', 'dangling/shadow.git', 'dangling/../live/deeper/shadow.git']) {
      await expect(openShadowRepo({ workspace, gitDir: path.join(data, through) })).rejects.toThrow(/inside the workspace/);
    }
    expect(fs.readdirSync(workspace)).toEqual([]);
  });
});

describe('restoreFiles', () => {
  it('puts back the exact bytes, executable bits and links, removes files created since, and leaves ignored and oversized files alone', async () => {
    write('.gitignore', '*.local\n');
    write('.gitattributes', '* text=auto\n');
    write('crlf.txt', 'one\r\ntwo\r\n');
    write('no-newline.txt', 'last line');
    write('empty.txt', '');
    write('image.bin', Buffer.from([0x89, 0x50, 0x00, 0x01, 0xff, 0x00]));
    write('tool.sh', '#!/bin/sh\necho tool\n', 0o755);
    write('becomes-exec.sh', 'echo later\n', 0o644);
    write('deep/a/b/c.txt', 'deep\n');
    write('becomes-dir', 'a file\n');
    fs.symlinkSync('deep/a', path.join(workspace, 'link-to-dir'));
    fs.symlinkSync('crlf.txt', path.join(workspace, 'relink'));
    const snapshotState = fingerprint(workspace);
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('checkpoint');

    // Everything a session might do afterwards.
    write('crlf.txt', 'one\ntwo\nthree\n');
    write('image.bin', Buffer.from([1, 2, 3]));
    fs.chmodSync(path.join(workspace, 'tool.sh'), 0o644);
    fs.chmodSync(path.join(workspace, 'becomes-exec.sh'), 0o755);
    fs.rmSync(path.join(workspace, 'deep'), { recursive: true });
    fs.rmSync(path.join(workspace, 'empty.txt'));
    fs.rmSync(path.join(workspace, 'becomes-dir'));
    write('becomes-dir/inside.txt', 'now a folder\n');
    fs.rmSync(path.join(workspace, 'relink'));
    fs.symlinkSync('no-newline.txt', path.join(workspace, 'relink'));
    write('new/created/file.ts', 'created\n');
    write('created.txt', 'created\n');
    write('settings.local', 'ignored, must survive\n');
    write('big.dat', Buffer.alloc(DEFAULT_MAX_FILE_BYTES + 10, 'z'));
    const beforeRestore = fingerprint(workspace);

    const result = await repo.restoreFiles(snapshot.commit);
    expect(result.restored.tree).toBe(snapshot.tree);
    const survivors = (relative: string) => relative === 'settings.local' || relative === 'big.dat';
    expect(fingerprint(workspace, survivors)).toEqual(snapshotState);
    expect(read('settings.local').toString()).toBe('ignored, must survive\n');
    expect(read('big.dat').length).toBe(DEFAULT_MAX_FILE_BYTES + 10);
    expect(fs.existsSync(path.join(workspace, 'new'))).toBe(false);

    // The state before the restore was saved, so the restore can be undone.
    await repo.restoreFiles(result.saved.commit);
    expect(fingerprint(workspace)).toEqual(beforeRestore);
  });

  it("writes a snapshot's file over an ignored or oversized file standing at its path", async () => {
    write('config.json', '{"v":1}\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('start');
    write('config.json', Buffer.alloc(DEFAULT_MAX_FILE_BYTES + 1, 'x'));
    await repo.restoreFiles(snapshot.commit);
    expect(read('config.json').toString()).toBe('{"v":1}\n');
  });

  it('clears an untracked file standing where the snapshot has a folder', async () => {
    write('out/report.txt', 'report\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('start');
    fs.rmSync(path.join(workspace, 'out'), { recursive: true });
    write('out', Buffer.alloc(DEFAULT_MAX_FILE_BYTES + 1, 'x'));
    await repo.restoreFiles(snapshot.commit);
    expect(read('out/report.txt').toString()).toBe('report\n');
  });

  it('refuses a commit the shadow repository does not have', async () => {
    const repo = await openShadowRepo({ workspace, gitDir });
    await expect(repo.restoreFiles('0123456789abcdef0123456789abcdef01234567')).rejects.toThrow(/has no such snapshot/);
    await expect(repo.restoreFiles('--hard')).rejects.toThrow(/has no such snapshot/);
  });
});

describe('refs', () => {
  it('points, resolves, lists and deletes refs under refs/tether/', async () => {
    write('a.txt', 'a\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const start = await repo.snapshot('start', { ref: 'sessions/s1/base' });
    write('a.txt', 'b\n');
    const step = await repo.snapshot('step 1');
    await repo.ref('sessions/s1/steps/1', step.commit);
    expect(await repo.resolveRef('sessions/s1/base')).toBe(start.commit);
    expect(await repo.resolveRef('refs/tether/sessions/s1/steps/1')).toBe(step.commit);
    expect(await repo.resolveRef('sessions/none/base')).toBeNull();
    expect(await repo.listRefs('sessions/s1')).toEqual([
      { name: 'sessions/s1/base', commit: start.commit },
      { name: 'sessions/s1/steps/1', commit: step.commit },
    ]);
    await repo.deleteRef('sessions/s1/base');
    expect(await repo.resolveRef('sessions/s1/base')).toBeNull();
  });

  it('asks git about a loose ref whose file does not name an object directly: a symbolic ref, one half written', async () => {
    write('a.txt', 'a\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const start = await repo.snapshot('start', { ref: 'sessions/s1/base' });
    const refs = path.join(gitDir, 'refs', 'tether', 'sessions');
    fs.mkdirSync(path.join(refs, 's3'), { recursive: true });
    fs.writeFileSync(path.join(refs, 's3', 'base'), 'ref: refs/tether/sessions/s1/base\n');
    expect(await repo.resolveRef('sessions/s3/base')).toBe(start.commit);
    fs.writeFileSync(path.join(refs, 's3', 'base'), start.commit.slice(0, 20));
    expect(await repo.resolveRef('sessions/s3/base')).toBeNull();
  });

  it('sets the ref even when the snapshot made no new commit', async () => {
    write('a.txt', 'a\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const first = await repo.snapshot('start');
    const second = await repo.snapshot('session 2 start', { ref: 'sessions/s2/base' });
    expect(second.changed).toBe(false);
    expect(await repo.resolveRef('sessions/s2/base')).toBe(first.commit);
  });

  it('refuses names that would leave refs/tether/ or that git cannot store', async () => {
    const repo = await openShadowRepo({ workspace, gitDir });
    const snapshot = await repo.snapshot('start');
    for (const name of ['../heads/main', 'a/../b', 'a//b', '/abs', 'x.lock', 'with space', '-x', 'latest', '']) {
      await expect(repo.ref(name, snapshot.commit), name).rejects.toThrow(/Cannot use .* as a snapshot ref name/);
    }
    await expect(repo.ref('ok', 'not-a-commit')).rejects.toThrow(/has no such snapshot/);
  });
});

describe('making and reopening the repository with few git processes', () => {
  /** Puts a `git` first on PATH that logs each call's arguments, then runs the real one. */
  function countGitCalls(): { calls: () => string[][]; restore: () => void } {
    const bin = path.join(base, 'logging-bin');
    const log = path.join(base, 'git-calls.log');
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nprintf '%s\\037' "$@" >> '${log}'\necho >> '${log}'\nexec '${realGit}' "$@"\n`, {
      mode: 0o755,
    });
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
    return {
      calls: () =>
        fs.existsSync(log)
          ? fs
              .readFileSync(log, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((line) =>
                line
                  .split('\x1f')
                  .filter((arg, i, all) => i < all.length - 1 || arg !== '')
                  .filter((arg, i, all) => !(arg === '-c' || all[i - 1] === '-c')),
              )
          : [],
      restore: () => {
        process.env.PATH = savedPath;
      },
    };
  }
  /** The subcommands run, less the version check (asked again whenever PATH changes). */
  const subcommands = (calls: string[][]) => calls.map((call) => call[0]).filter((name) => name !== '--version');

  it("is git's own empty repository, copied from a template git made once, so a new project's runs no git init", async () => {
    write('a.txt', 'a\n');
    await openShadowRepo({ workspace, gitDir });
    const template = path.join(path.dirname(gitDir), '.template.git');
    expect(fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim()).toBe('ref: refs/tether/latest');
    const made = path.join(base, 'by-git-init.git');
    userGit(['init', '--quiet', '--bare', '--template=', made], base);
    userGit(['--git-dir', made, 'symbolic-ref', 'HEAD', 'refs/tether/latest'], base);
    expect(fingerprint(template)).toEqual(fingerprint(made));
    expect(fs.readFileSync(path.join(gitDir, 'config'), 'utf8')).toBe(fs.readFileSync(path.join(made, 'config'), 'utf8'));

    const git = countGitCalls();
    try {
      const second = await openShadowRepo({ workspace, gitDir: path.join(path.dirname(gitDir), 'second.git') });
      expect(await second.resolveRef('sessions/new/base')).toBeNull();
      const snapshot = await second.snapshot('start', { ref: 'sessions/new/base' });
      expect(await second.resolveRef('sessions/new/base')).toBe(snapshot.commit);
      // Only the snapshot itself: status, update-index, write-tree; its commit and refs are written
      // without git, and the ref, loose, is read from its file.
      expect(subcommands(git.calls())).toEqual(['status', 'update-index', 'write-tree']);
      expect(await treeFiles(second, snapshot.commit)).toEqual(['a.txt']);
    } finally {
      git.restore();
    }
  });

  it('reads the latest snapshot of an earlier run from its loose commit, and still from git once refs and objects are packed', async () => {
    write('a.txt', 'a\n');
    const first = await (await openShadowRepo({ workspace, gitDir })).snapshot('start', { ref: 'sessions/s1/base' });
    const git = countGitCalls();
    try {
      const reopened = await openShadowRepo({ workspace, gitDir });
      const again = await reopened.snapshot('next run');
      expect(again).toMatchObject({ changed: false, commit: first.commit, tree: first.tree });
      expect(subcommands(git.calls())).toEqual(['status']);
    } finally {
      git.restore();
    }

    userGit(['--git-dir', gitDir, 'pack-refs', '--all'], base);
    userGit(['--git-dir', gitDir, 'repack', '-a', '-d', '-q'], base);
    userGit(['--git-dir', gitDir, 'prune-packed'], base);
    expect(fs.existsSync(path.join(gitDir, 'refs', 'tether', 'latest'))).toBe(false);
    expect(fs.existsSync(path.join(gitDir, 'objects', first.commit.slice(0, 2), first.commit.slice(2)))).toBe(false);
    const packed = await openShadowRepo({ workspace, gitDir });
    expect(await packed.resolveRef('sessions/s1/base')).toBe(first.commit);
    expect(await packed.resolveRef('sessions/s1/bas')).toBeNull();
    expect(await packed.snapshot('packed')).toMatchObject({ changed: false, commit: first.commit, tree: first.tree });
    write('a.txt', 'b\n');
    const changed = await packed.snapshot('changed');
    expect(changed.changed).toBe(true);
    expect((await packed.git(['rev-parse', `${changed.commit}^`])).stdout.toString().trim()).toBe(first.commit);
  });

  it('makes a repository in a folder that is already there, empty or not, and in two processes at once', async () => {
    fs.mkdirSync(gitDir, { recursive: true });
    write('a.txt', 'a\n');
    expect((await (await openShadowRepo({ workspace, gitDir })).snapshot('start')).changed).toBe(true);

    const cluttered = path.join(path.dirname(gitDir), 'cluttered.git');
    fs.mkdirSync(cluttered);
    fs.writeFileSync(path.join(cluttered, 'stray.txt'), 'left here\n');
    expect((await (await openShadowRepo({ workspace, gitDir: cluttered })).snapshot('start')).changed).toBe(true);

    const raced = path.join(path.dirname(gitDir), 'raced.git');
    const [one, two] = await Promise.all([openShadowRepo({ workspace, gitDir: raced }), openShadowRepo({ workspace, gitDir: raced })]);
    const [a, b] = await Promise.all([one.snapshot('one'), two.snapshot('two')]);
    expect(b.tree).toBe(a.tree);
    expect(fs.readdirSync(path.dirname(gitDir)).filter((name) => name.includes('.making-'))).toEqual([]);
  });
});

describe('when git cannot be used', () => {
  it('says Tether needs git when git is not on PATH', async () => {
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(base, 'empty-bin');
    try {
      const failure = await openShadowRepo({ workspace, gitDir }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GitError);
      expect((failure as GitError).kind).toBe('missing');
      expect((failure as GitError).message).toBe(MISSING_GIT_MESSAGE);
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('says git is too old, not what the old git said, when the version is asked alongside the first snapshot', async () => {
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    const bin = path.join(base, 'old-git-bin');
    fs.mkdirSync(bin);
    // Answers the version as an old git would; every other command fails as an old git's might.
    fs.writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\ncase " $* " in *" --version "*) echo "git version 2.17.1"; exit 0;; *" status "*) echo "error: unknown option" >&2; exit 129;; esac\nexec '${realGit}' "$@"\n`,
      { mode: 0o755 },
    );
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
    try {
      write('a.txt', 'a\n');
      const repo = await openShadowRepo({ workspace, gitDir });
      const failure = await repo.snapshot('start').catch((error: unknown) => error);
      expect((failure as GitError).kind).toBe('too_old');
      expect((failure as GitError).message).toMatch(/needs git 2\.20 or newer .* found 2\.17\.1/);
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('says Tether needs git when git goes missing after the repository was made', async () => {
    write('a.txt', 'a\n');
    const repo = await openShadowRepo({ workspace, gitDir });
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(base, 'empty-bin');
    try {
      const failure = await repo.snapshot('start').catch((error: unknown) => error);
      expect((failure as GitError).message).toBe(MISSING_GIT_MESSAGE);
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('says which folder is missing when the workspace does not exist', async () => {
    await expect(openShadowRepo({ workspace: path.join(base, 'gone'), gitDir })).rejects.toThrow(/Cannot snapshot .*gone/);
  });
});

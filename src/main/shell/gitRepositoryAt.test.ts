import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findsWorkspaceRepository, workspaceRepositoryFetchesLazily } from './gitRepositoryAt';

let root = '';
let ws = '';
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-gitrepo-')));
  ws = path.join(root, 'ws');
  const git = (...args: string[]) => execFileSync('git', args, { stdio: 'ignore' });
  git('init', '-q', ws);
  fs.mkdirSync(path.join(ws, 'src', 'deep'), { recursive: true });
  git('init', '-q', '--bare', path.join(ws, 'docs', 'history'));
  git('init', '-q', path.join(ws, 'nested'));
  fs.mkdirSync(path.join(ws, 'nested', 'src'));
  fs.mkdirSync(path.join(ws, 'sub'));
  fs.writeFileSync(path.join(ws, 'sub', '.git'), 'gitdir: ../.git/modules/sub\n');
  git('init', '-q', '--bare', path.join(ws, '.git', 'modules', 'sub'));
  fs.symlinkSync(path.join(ws, 'docs', 'history'), path.join(ws, 'to-history'));
  fs.symlinkSync(os.tmpdir(), path.join(ws, 'to-tmp'));
  git('init', '-q', path.join(root, 'outside'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const own = (dir: string, from = ws) => findsWorkspaceRepository(ws, from, dir);

describe('findsWorkspaceRepository', () => {
  it('is yes where git finds the workspace’s own repository', () => {
    for (const dir of ['.', 'src', 'src/deep', './src/../src', 'src/missing/folder', '.git', '.git/objects', 'docs'])
      expect(own(dir), dir).toBe(true);
    expect(own('..', path.join(ws, 'src'))).toBe(true);
    expect(own(path.join(ws, 'src'))).toBe(true);
  });

  it('is no for another repository inside it: bare, nested, a submodule, a git directory itself', () => {
    for (const dir of [
      'docs/history',
      'docs/history/refs',
      'docs/history/missing',
      'nested',
      'nested/src',
      'nested/.git',
      'sub',
      '.git/modules/sub',
      'to-history',
      'src/../docs/history',
    ]) {
      expect(own(dir), dir).toBe(false);
    }
    expect(own('.', path.join(ws, 'nested'))).toBe(false);
  });

  it('is no outside the workspace, by path or through a link', () => {
    for (const dir of ['..', '../outside', '/', 'to-tmp', 'to-tmp/..']) expect(own(dir), dir).toBe(false);
  });

  it('follows a link before `..`, as git’s chdir does', () => {
    // to-history/.. is docs, inside the workspace's own repository, whatever the spelling suggests.
    expect(own('to-history/..')).toBe(true);
  });
});

describe('workspaceRepositoryFetchesLazily', () => {
  const repo = (name: string, ...config: string[][]) => {
    const dir = path.join(root, name);
    execFileSync('git', ['init', '-q', dir], { stdio: 'ignore' });
    for (const args of config) execFileSync('git', ['-C', dir, 'config', ...args], { stdio: 'ignore' });
    return dir;
  };

  it('is yes for a partial clone: a promisor remote, extensions.partialClone, or an include it cannot follow', () => {
    expect(
      workspaceRepositoryFetchesLazily(
        repo('promisor', ['remote.origin.url', 'https://example.com/r.git'], ['remote.origin.promisor', 'true']),
      ),
    ).toBe(true);
    expect(workspaceRepositoryFetchesLazily(repo('extension', ['extensions.partialClone', 'origin']))).toBe(true);
    expect(workspaceRepositoryFetchesLazily(repo('included', ['include.path', '../elsewhere.config']))).toBe(true);
  });

  it("is yes in a worktree of one, whose config is the main repository's", () => {
    const main = repo('main-partial', ['remote.origin.promisor', 'true']);
    execFileSync('git', ['-C', main, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'first'], {
      stdio: 'ignore',
    });
    const worktree = path.join(root, 'main-partial-wt');
    execFileSync('git', ['-C', main, 'worktree', 'add', '-q', worktree], { stdio: 'ignore' });
    expect(workspaceRepositoryFetchesLazily(worktree)).toBe(true);
  });

  it('reads promisor as git reads a boolean: alone, quoted, any number but 0, a comment after it', () => {
    const written = (name: string, line: string) => {
      const dir = repo(name);
      fs.appendFileSync(path.join(dir, '.git', 'config'), `[remote "origin"]\n\turl = https://example.com/r.git\n${line}\n`);
      return workspaceRepositoryFetchesLazily(dir);
    };
    expect(written('bare-key', '\tpromisor')).toBe(true);
    expect(written('bare-key-comment', '\tPromisor # fetches on demand')).toBe(true);
    expect(written('quoted', '\tpromisor = "true"')).toBe(true);
    expect(written('number', '\tpromisor = 2')).toBe(true);
    expect(written('on', '\tpromisor=on ; set by a script')).toBe(true);
    expect(written('quoted-false', '\tpromisor = "false" # not one')).toBe(false);
    expect(written('off', '\tpromisor = off')).toBe(false);
    expect(written('empty', '\tpromisor =')).toBe(false);
    expect(written('other-key', '\tpromisorish = true')).toBe(false);
  });

  it("is yes when a worktree's own config.worktree makes its remote a promisor", () => {
    const main = repo('main-whole', ['extensions.worktreeConfig', 'true']);
    execFileSync('git', ['-C', main, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'first'], {
      stdio: 'ignore',
    });
    const worktree = path.join(root, 'main-whole-wt');
    execFileSync('git', ['-C', main, 'worktree', 'add', '-q', worktree], { stdio: 'ignore' });
    expect(workspaceRepositoryFetchesLazily(worktree)).toBe(false);
    execFileSync('git', ['-C', worktree, 'config', '--worktree', 'remote.origin.promisor', 'true'], { stdio: 'ignore' });
    expect(workspaceRepositoryFetchesLazily(worktree)).toBe(true);
    expect(workspaceRepositoryFetchesLazily(main)).toBe(false);
  });

  it('is no for a whole repository, a remote that is no promisor, and a folder that is no repository', () => {
    expect(workspaceRepositoryFetchesLazily(ws)).toBe(false);
    expect(
      workspaceRepositoryFetchesLazily(
        repo('plain-remote', ['remote.origin.url', 'https://example.com/r.git'], ['remote.origin.promisor', 'false']),
      ),
    ).toBe(false);
    const none = path.join(root, 'no-repo');
    fs.mkdirSync(none);
    expect(workspaceRepositoryFetchesLazily(none)).toBe(false);
  });
});

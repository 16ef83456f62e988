import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GIT_WRITABLE, gitFence, gitMachineryHolding, gitMakes } from './gitFence';

let root = '';
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

function repository(): string {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-gitfence-')));
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  git(ws, 'init', '-q');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a');
  git(ws, 'add', '.');
  git(ws, 'commit', '-qm', 'first');
  return ws;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

const names = (gitDir: string, entries: string[]) => entries.map((entry) => path.relative(gitDir, entry)).sort();

describe('what committing and branching write', () => {
  it('is objects, refs, logs, the index, HEAD and the other *_HEAD files, messages, packed-refs and lock files', () => {
    for (const name of [
      'objects',
      'refs',
      'logs',
      'index',
      'HEAD',
      'ORIG_HEAD',
      'FETCH_HEAD',
      'MERGE_HEAD',
      'CHERRY_PICK_HEAD',
      'REVERT_HEAD',
      'REBASE_HEAD',
      'BISECT_LOG',
      'BISECT_START',
      'COMMIT_EDITMSG',
      'MERGE_MSG',
      'SQUASH_MSG',
      'MERGE_MODE',
      'AUTO_MERGE',
      'packed-refs',
      'index.lock',
      'HEAD.lock',
      'packed-refs.lock',
      'index.stash.4242',
      'gc.pid',
      'lfs',
    ]) {
      expect(GIT_WRITABLE.test(name), name).toBe(true);
    }
  });

  it('is not the machinery: config, hooks, commondir, config.worktree, modules, worktrees, info, an operation in progress', () => {
    for (const name of [
      'config',
      'config.worktree',
      'commondir',
      'hooks',
      'info',
      'modules',
      'worktrees',
      'description',
      'branches',
      'remotes',
      'gitdir',
      'rebase-merge',
      'rebase-apply',
      'sequencer',
      'config.lock.d',
      'HEAD_x',
    ]) {
      expect(GIT_WRITABLE.test(name), name).toBe(false);
    }
  });
});

describe('gitMakes', () => {
  it('keeps what committing writes and the states of operations git leaves in progress', () => {
    for (const name of [
      'objects',
      'ORIG_HEAD',
      'index.lock',
      'rebase-merge',
      'rebase-apply',
      'sequencer',
      'worktrees',
      'NOTES_MERGE_PARTIAL',
      'reftable',
    ]) {
      expect(gitMakes(name), name).toBe(true);
    }
  });

  it('keeps no other name: what git reads there is more than any list of the dangerous names', () => {
    for (const name of ['remotes', 'branches', 'hooks', 'config', 'info', 'modules', 'commondir', 'svn', 'grafts', 'anything', '.hidden']) {
      expect(gitMakes(name), name).toBe(false);
    }
  });
});

describe('gitFence', () => {
  it('fences every entry of .git but what committing writes, and the names git reads that are not there yet', () => {
    const ws = repository();
    const gitDir = path.join(ws, '.git');
    const fence = gitFence(ws);
    expect(fence.gitDirs).toEqual([gitDir]);
    expect(fence.allowWrite).toEqual([]);
    const existing = fs.readdirSync(gitDir).filter((name) => !GIT_WRITABLE.test(name));
    expect(existing).toEqual(expect.arrayContaining(['config', 'hooks', 'info', 'description']));
    // `branches` as old git made it, `remotes` missing: both are where a plain `git push` may be told to go.
    expect(names(gitDir, fence.denyWrite)).toEqual(
      [...new Set([...existing, 'branches', 'commondir', 'config.worktree', 'modules', 'remotes'])].sort(),
    );
    expect(fence.denyWrite.some((entry) => /objects|refs|logs|index|HEAD|COMMIT_EDITMSG/.test(path.basename(entry)))).toBe(false);
  });

  it('fences submodules’ and other worktrees’ git directories, and an operation the person has in progress, once they exist', () => {
    const ws = repository();
    const gitDir = path.join(ws, '.git');
    for (const name of ['modules/m', 'worktrees/w', 'rebase-merge']) fs.mkdirSync(path.join(gitDir, name), { recursive: true });
    const denied = names(gitDir, gitFence(ws).denyWrite);
    expect(denied).toEqual(expect.arrayContaining(['modules', 'worktrees', 'rebase-merge']));
  });

  it('in a linked worktree: its own git directory and the shared objects, refs and logs are writable, its commondir and gitdir are not', () => {
    const main = repository();
    const wt = path.join(root, 'wt');
    git(main, 'worktree', 'add', '-q', wt, '-b', 'session');
    const own = path.join(main, '.git', 'worktrees', 'wt');
    const fence = gitFence(wt);
    expect(fence.gitDirs).toEqual([own]);
    expect(fence.allowWrite).toEqual([own, ...['objects', 'refs', 'logs'].map((name) => path.join(main, '.git', name))]);
    expect(names(own, fence.denyWrite)).toEqual(['commondir', 'config.worktree', 'gitdir', 'modules']);
    expect(fence.allowWrite.some((entry) => /hooks|config$/.test(entry))).toBe(false);
  });

  it('in a submodule’s checkout: its git directory under the superproject’s .git/modules is fenced like a .git folder', () => {
    const upstream = repository();
    const superproject = path.join(root, 'super');
    fs.mkdirSync(superproject);
    git(superproject, 'init', '-q');
    git(superproject, 'submodule', '-q', 'add', upstream, 'sub');
    const checkout = path.join(superproject, 'sub');
    const gitDir = path.join(superproject, '.git', 'modules', 'sub');
    const fence = gitFence(checkout);
    expect(fence.gitDirs).toEqual([gitDir]);
    expect(fence.allowWrite).toEqual([gitDir]);
    expect(names(gitDir, fence.denyWrite)).toEqual(expect.arrayContaining(['commondir', 'config', 'hooks']));
    // And the superproject's own fence covers its submodules' git directories.
    expect(names(path.join(superproject, '.git'), gitFence(superproject).denyWrite)).toContain('modules');
  });

  it('fences nothing where there is no .git, so `git init` works', () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-gitfence-')));
    expect(gitFence(root)).toEqual({ gitDirs: [], allowWrite: [], denyWrite: [] });
  });

  it('names the entry that holds a path in the machinery, and nothing for what committing writes', () => {
    const ws = repository();
    expect(gitMachineryHolding(path.join(ws, '.git', 'modules', 'm', 'config'), ws)).toBe(path.join(ws, '.git', 'modules'));
    expect(gitMachineryHolding(path.join(ws, '.git', 'commondir'), ws)).toBe(path.join(ws, '.git', 'commondir'));
    expect(gitMachineryHolding(path.join(ws, '.git', 'index.lock'), ws)).toBeUndefined();
    expect(gitMachineryHolding(path.join(ws, '.git', 'refs', 'heads', 'x.lock'), ws)).toBeUndefined();
    expect(gitMachineryHolding(path.join(ws, 'src', 'config'), ws)).toBeUndefined();
  });
});

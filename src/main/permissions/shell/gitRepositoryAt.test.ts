import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findsWorkspaceRepository } from './gitRepositoryAt';

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

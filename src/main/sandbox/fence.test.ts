import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isInside } from '../workspace/filePaths';
import { builtInFence, effectiveFence } from './fence';

let root = '';
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

function workspace(withGit: boolean): string {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-fence-')));
  const ws = path.join(root, 'ws');
  fs.mkdirSync(withGit ? path.join(ws, '.git') : ws, { recursive: true });
  return ws;
}

describe('the fence', () => {
  it('writes only in the workspace, never git’s machinery or .tether; secrets and the data folder unreadable; no network', () => {
    const ws = workspace(true);
    const fence = effectiveFence({ workspace: ws, dataDir: '/data/tether', home: '/home/me' });
    expect(fence.allowWrite).toEqual([ws]);
    expect(fence.denyWrite).toEqual([
      ...['branches', 'commondir', 'config', 'config.worktree', 'hooks', 'info', 'modules', 'remotes'].map((name) => `${ws}/.git/${name}`),
      `${ws}/.tether`,
    ]);
    expect(fence.denyRead).toEqual(
      expect.arrayContaining(['/home/me/.ssh', '/home/me/.aws', '/home/me/.gnupg', `${ws}/.env*`, `${ws}/*/.env*`, '/data/tether']),
    );
    expect(fence.allowedDomains).toEqual([]);
    expect(fence.allowRead).toEqual([]);
  });

  it('does not fence .git where there is none, so `git init` still works', () => {
    const ws = workspace(false);
    expect(builtInFence({ workspace: ws, dataDir: '/d', home: '/h' }).denyWrite).toEqual([`${ws}/.tether`]);
  });

  it('adds what the person set for the project, with ~ and workspace-relative paths', () => {
    const ws = workspace(true);
    const fence = effectiveFence({
      workspace: ws,
      dataDir: '/d',
      home: '/home/me',
      custom: {
        allowWrite: ['~/.cache/pip'],
        denyWrite: ['secrets'],
        denyRead: ['~/.kube'],
        allowedDomains: ['pypi.org'],
        packageRegistries: false,
      },
    });
    expect(fence.allowWrite).toEqual([ws, '/home/me/.cache/pip']);
    expect(fence.denyWrite).toContain(`${ws}/secrets`);
    expect(fence.denyRead).toContain('/home/me/.kube');
    expect(fence.allowedDomains).toEqual(['pypi.org']);
  });

  it('re-allows reading a workspace that lies inside the data folder (a session worktree)', () => {
    const ws = workspace(false);
    expect(effectiveFence({ workspace: ws, dataDir: root, home: '/h' }).allowRead).toEqual([ws]);
  });
});

describe('the fence of a git worktree', () => {
  it('lets commands write the worktree’s own git folder and the shared objects and refs, never the main hooks or config', async () => {
    const { execFileSync } = await import('node:child_process');
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-fence-wt-')));
    const main = path.join(root, 'main');
    fs.mkdirSync(main);
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', main, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'ignore' });
    git('init', '-q');
    fs.writeFileSync(path.join(main, 'a.txt'), 'a');
    git('add', '.');
    git('commit', '-qm', 'first');
    git('worktree', 'add', '-q', path.join(root, 'wt'), '-b', 'session');
    const fence = effectiveFence({ workspace: path.join(root, 'wt'), dataDir: '/d', home: '/h' });
    expect(fence.allowWrite).toEqual(
      expect.arrayContaining([
        path.join(root, 'wt'),
        path.join(main, '.git', 'worktrees', 'wt'),
        path.join(main, '.git', 'objects'),
        path.join(main, '.git', 'refs'),
      ]),
    );
    expect(fence.allowWrite).not.toContain(path.join(main, '.git'));
    expect(fence.allowWrite.some((entry) => entry.includes('hooks') || entry.endsWith('config'))).toBe(false);
  });
});

describe('removeFenceLeftovers', () => {
  it('removes the empty read-only placeholder a killed sandbox left at .tether, and nothing real', async () => {
    const { removeFenceLeftovers } = await import('./fence');
    const ws = workspace(true);
    fs.writeFileSync(path.join(ws, '.tether'), '');
    fs.chmodSync(path.join(ws, '.tether'), 0o444);
    fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
    removeFenceLeftovers(ws);
    expect(fs.existsSync(path.join(ws, '.tether'))).toBe(false);
    expect(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });
});

describe('isInside', () => {
  it('counts a name that merely starts with two dots as inside, and a step up as outside', () => {
    expect(isInside('/ws/..cache/x', '/ws')).toBe(true);
    expect(isInside('/ws', '/ws')).toBe(true);
    expect(isInside('/ws/../etc', '/ws')).toBe(false);
    expect(isInside('/wsx/a', '/ws')).toBe(false);
  });
});

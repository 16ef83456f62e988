import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configuredHooksFolder } from './configuredHooks';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function repository(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-hooks-')));
  made.push(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  return dir;
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });

describe('configuredHooksFolder', () => {
  it('is the folder core.hooksPath names inside the work tree, read again when the config changes', () => {
    const ws = repository();
    expect(configuredHooksFolder(ws)).toBeUndefined();
    git(ws, 'config', 'core.hooksPath', '.githooks');
    expect(configuredHooksFolder(ws)).toBe(path.join(ws, '.githooks'));
    git(ws, 'config', 'core.hooksPath', `${ws}/scripts/hooks`);
    expect(configuredHooksFolder(ws)).toBe(path.join(ws, 'scripts', 'hooks'));
  });

  it('is nothing for a hooks folder outside the work tree, or the work tree itself', () => {
    const ws = repository();
    git(ws, 'config', 'core.hooksPath', '/etc/git-hooks');
    expect(configuredHooksFolder(ws)).toBeUndefined();
    git(ws, 'config', 'core.hooksPath', '../elsewhere');
    expect(configuredHooksFolder(ws)).toBeUndefined();
    git(ws, 'config', 'core.hooksPath', '.');
    expect(configuredHooksFolder(ws)).toBeUndefined();
  });

  it('works in a linked worktree, whose .git is a file, and in a folder that is no repository', () => {
    const ws = repository();
    const linked = path.join(path.dirname(ws), `${path.basename(ws)}-linked`);
    made.push(linked);
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: ws });
    git(ws, 'worktree', 'add', '-q', linked, '-b', 'side');
    git(ws, 'config', 'core.hooksPath', '.githooks');
    expect(configuredHooksFolder(linked)).toBe(path.join(linked, '.githooks'));
    const plain = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-hooks-plain-')));
    made.push(plain);
    expect(() => configuredHooksFolder(plain)).not.toThrow();
  });
});

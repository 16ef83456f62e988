import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../../test/support/tempDirs';
import { configuredHooksFolder } from './configuredHooks';

afterEach(() => removeTempDirs());

function repository(): string {
  const dir = fs.realpathSync(tempDir('tether-hooks-'));
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
    const linked = path.join(fs.realpathSync(tempDir('tether-hooks-linked-')), 'wt');
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: ws });
    git(ws, 'worktree', 'add', '-q', linked, '-b', 'side');
    git(ws, 'config', 'core.hooksPath', '.githooks');
    expect(configuredHooksFolder(linked)).toBe(path.join(linked, '.githooks'));
    const plain = fs.realpathSync(tempDir('tether-hooks-plain-'));
    expect(() => configuredHooksFolder(plain)).not.toThrow();
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../../test/support/tempDirs';
import { gitAutorunWatch } from './autorunInGit';

// The watch itself, with real git and no sandbox: what a command does is done here by hand between
// begin() and check(). test/autorunAfterCommand.test.ts drives it through run_command and bubblewrap.

afterEach(() => removeTempDirs());

function repository() {
  const ws = fs.realpathSync(tempDir('tether-ingit-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: ws, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  git('add', '.');
  git('commit', '-qm', 'start');
  return { ws, git };
}

/** What a command would do: a task file committed, and the work-tree copy gone (quarantined). */
function commitTaskFile(ws: string, git: (...args: string[]) => string): void {
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.vscode', 'tasks.json'), '{}\n');
  git('add', '-A');
  git('commit', '-qm', 'x');
  fs.rmSync(path.join(ws, '.vscode'), { recursive: true });
}

describe('gitAutorunWatch', () => {
  it('judges nothing when git could not be read before the command: an empty list would make every ref look new', () => {
    const { ws, git } = repository();
    git('branch', 'keep');
    const watch = gitAutorunWatch(ws);
    const path_ = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      watch.begin();
    } finally {
      process.env.PATH = path_;
    }
    commitTaskFile(ws, git);
    expect(watch.check({ undo: true })).toEqual([]);
    expect(git('branch', '--list', 'keep')).toContain('keep');
    expect(git('log', '--format=%s', '-1')).toBe('x');
  });

  it('takes back a commit that brings a task file the work tree does not hold, and reports it without undoing when asked so', () => {
    const { ws, git } = repository();
    const start = git('rev-parse', 'HEAD');
    const reported = gitAutorunWatch(ws);
    reported.begin();
    commitTaskFile(ws, git);
    const kept = reported.check({ undo: false });
    // The commit, and the index it left holding the file.
    expect(kept).toMatchObject([
      { where: 'refs/heads/main', paths: ['.vscode/tasks.json'], undone: false },
      { where: 'the index', paths: ['.vscode/tasks.json'], undone: false },
    ]);
    expect(git('log', '--format=%s', '-1')).toBe('x');
    git('reset', '-q', '--hard', start);
    fs.rmSync(path.join(ws, '.vscode'), { recursive: true, force: true });
    const watch = gitAutorunWatch(ws);
    watch.begin();
    commitTaskFile(ws, git);
    const taken = watch.check({ undo: true });
    expect(taken).toMatchObject([
      { where: 'refs/heads/main', paths: ['.vscode/tasks.json'], undone: true },
      { where: 'the index', undone: true },
    ]);
    expect(git('rev-parse', 'HEAD')).toBe(start);
    expect(git('ls-files', '--', '.vscode')).toBe('');
  });

  it('leaves a commit alone whose task file is the one the work tree holds', () => {
    const { ws, git } = repository();
    const watch = gitAutorunWatch(ws);
    watch.begin();
    fs.mkdirSync(path.join(ws, '.vscode'));
    fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{"editor.tabSize": 2}\n');
    git('add', '-A');
    git('commit', '-qm', 'settings');
    expect(watch.check({ undo: true })).toEqual([]);
    expect(git('log', '--format=%s', '-1')).toBe('settings');
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyGit, type GitContext } from './classifyGit';

const inside: GitContext = { cwdInWorkspace: true, directoryInWorkspace: (dir) => !dir.startsWith('/') && !dir.startsWith('..') };
const git = (command: string, context: GitContext = inside) => classifyGit(command.split(' ').filter(Boolean), context);

describe('classifyGit', () => {
  it.each([
    'status',
    'status --short',
    'diff',
    'diff --cached --stat',
    'log --oneline -10',
    'log -p -1',
    'show HEAD:README.md',
    'branch',
    'branch --show-current',
    'branch -a -v',
    'branch --list feat*',
    'branch --contains HEAD',
    'branch --merged main',
    'rev-parse --abbrev-ref HEAD',
    'ls-files -m',
    'blame -L 1,5 f',
    'grep -n TODO',
    'grep -e o',
    'describe --tags --always',
    'remote',
    'remote -v',
    'remote get-url origin',
    'tag',
    'tag -l v*',
    'stash list',
    'worktree list',
    'config --get user.name',
    'config --list --show-origin',
    'cat-file -p HEAD',
    'ls-tree HEAD',
    'rev-list --count HEAD',
    'merge-base a b',
    'shortlog -sn',
    '--no-pager log',
    '-P diff',
    '-C src status',
    '-Csrc status',
    '--no-optional-locks status',
  ])('git %s reads only', (command) => {
    expect(git(command)).toEqual({ readOnly: true, local: true });
  });

  it.each([
    ['checkout status', 'the first word is the subcommand; a later "status" is not'],
    ['-c core.pager=cat log', 'config on the command line can name any program'],
    ['-ccore.pager=cat status', 'attached -c'],
    ['--config-env=core.pager=X status', 'config from the environment'],
    ['--exec-path=/tmp log', 'other git programs'],
    ['--git-dir=/tmp/x log', 'another repository and its config'],
    ['--work-tree=/tmp status', 'another work tree'],
    ['-p log', 'a pager'],
    ['--paginate log', 'a pager'],
    ['log --output=/tmp/x', 'writes a file'],
    ['diff --output /tmp/x', 'writes a file'],
    ['show --output=/tmp/x HEAD', 'writes a file'],
    ['log --outp=/tmp/x', 'an abbreviation of --output'],
    ['diff --ext-diff', 'runs the external diff driver'],
    ['log -p --textconv', 'runs textconv filters'],
    ['grep -O x', 'opens the matches in a pager'],
    ['grep -nO x', '-O inside a cluster'],
    ['grep --open-files-in-pager=vim x', "a pager of the caller's choosing"],
    ['cat-file --batch-command', 'reads commands'],
    ['branch -d feature', 'deletes'],
    ['branch -D feature', 'deletes'],
    ['branch -m a b', 'renames'],
    ['branch -c a b', 'copies'],
    ['branch --delete a', 'deletes'],
    ['branch --set-upstream-to=o/m', 'changes config'],
    ['branch new-branch', 'creates'],
    ['tag v1', 'creates a tag'],
    ['remote add origin u', 'adds a remote'],
    ['remote remove origin', 'removes a remote'],
    ['stash', 'stashes changes'],
    ['config user.name x', 'sets config'],
    ['fetch', 'network'],
    ['push', 'network'],
    ['reset --hard', 'moves the branch'],
    ['', 'no subcommand'],
  ])('git %s is not read-only: %s', (command) => {
    expect(git(command).readOnly).toBe(false);
  });

  it('refuses a repository outside the workspace, by -C or by the directory it runs in', () => {
    expect(git('-C /tmp/other status').readOnly).toBe(false);
    expect(git('-C src -C /tmp status').readOnly).toBe(false);
    expect(git('status', { ...inside, cwdInWorkspace: false }).readOnly).toBe(false);
  });

  it('takes each -C from the one before, as git does', () => {
    const asked: string[] = [];
    const context: GitContext = {
      cwdInWorkspace: true,
      directoryInWorkspace: (dir) => (asked.push(dir), !path.posix.normalize(dir).startsWith('..')),
    };
    expect(git('-C src -C .. status', context).readOnly).toBe(true);
    expect(git('-C src -C ../.. status', context).readOnly).toBe(false);
    expect(git('-C src -C /tmp -C x status', context).readOnly).toBe(true);
    expect(asked).toEqual(['src/..', 'src/../..', '/tmp/x']);
    // `-C ""` leaves git where it is.
    expect(classifyGit(['-C', '', 'status'], { ...context, directoryInWorkspace: () => false }).readOnly).toBe(true);
  });

  it('refuses another repository inside the workspace, wherever git would find it', () => {
    const own = (foreign: string[]): GitContext => ({ ...inside, gitRepositoryIsOwn: (dir) => !foreign.includes(dir) });
    expect(git('status', own(['.'])).readOnly).toBe(false);
    expect(git('status', own(['.'])).local).toBe(false);
    expect(git('-C docs/history status', own(['docs/history'])).readOnly).toBe(false);
    expect(git('-C docs -C history log', own(['docs/history'])).readOnly).toBe(false);
    expect(git('-C src log', own(['docs/history'])).readOnly).toBe(true);
    expect(git('log -- docs/history', own(['docs/history'])).readOnly).toBe(true);
    // Writers that stay local are no longer local in another repository: its hooks are its own.
    expect(git('-C docs/history init', own(['docs/history'])).local).toBe(false);
  });

  it.each([
    'push',
    'fetch',
    'pull',
    'clone u',
    'ls-remote u',
    'submodule update',
    'remote show origin',
    'remote update',
    'archive --remote=u HEAD',
    'commit -m x',
    'add .',
    'checkout main',
    'merge x',
    'rebase main',
    'am p',
    'cherry-pick x',
    'lfs pull',
    'some-alias',
    '-c x=y status',
  ])('git %s may reach the network (directly, or through hooks or configured programs)', (command) => {
    expect(git(command).local).toBe(false);
  });

  it.each([
    'status',
    'log',
    'init',
    'config user.name x',
    'clean -fd',
    'remote add o u',
    'remote show -n origin',
    'submodule status',
    'archive HEAD',
    'format-patch -1',
  ])('git %s stays local', (command) => {
    expect(git(command).local).toBe(true);
  });
});

describe('classifyGit in a partial clone', () => {
  const partial: GitContext = { ...inside, fetchesLazily: () => true };

  it('reads, but may reach the network: a read fetches the objects the clone lacks', () => {
    for (const command of ['show HEAD:README.md', 'log -p -1', 'blame -L 1,5 f', 'diff', 'status']) {
      expect(git(command, partial), command).toEqual({ readOnly: true, local: false });
    }
    expect(git('add f', partial).local).toBe(false);
  });

  it('reads the config only where it decides: not for a command that reaches the network anyway', () => {
    let reads = 0;
    const counting: GitContext = {
      ...inside,
      fetchesLazily: () => {
        reads++;
        return true;
      },
    };
    expect(git('push origin main', counting).local).toBe(false);
    expect(git('--no-lazy-fetch show HEAD', counting).local).toBe(true);
    expect(reads).toBe(0);
    expect(git('show HEAD', counting).local).toBe(false);
    expect(reads).toBe(1);
  });

  it('stays local with --no-lazy-fetch, and as before where the repository is whole', () => {
    expect(git('--no-lazy-fetch show HEAD:README.md', partial)).toEqual({ readOnly: true, local: true });
    expect(git('show HEAD:README.md', { ...inside, fetchesLazily: () => false })).toEqual({ readOnly: true, local: true });
  });
});

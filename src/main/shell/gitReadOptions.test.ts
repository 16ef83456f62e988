import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyGit, type GitContext } from './classifyGit';
import { gitOptionKnown } from './gitReadOptions';

// git's reading subcommands run unasked only with options git documents for them: an option the
// table does not know makes the line ask, and every option the installed git lists is known.

const inside: GitContext = { cwdInWorkspace: true, directoryInWorkspace: () => true };
const readsOnly = (line: string): boolean => classifyGit(line.split(' '), inside).readOnly;

const READING = [
  'status',
  'diff',
  'log',
  'show',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'blame',
  'grep',
  'describe',
  'rev-list',
  'merge-base',
  'shortlog',
  'show-ref',
  'for-each-ref',
  'count-objects',
  'check-ignore',
  'name-rev',
  'cat-file',
];

describe("git's reading options", () => {
  it.each([
    'log --oneline -5',
    'log -p -1',
    'log --graph --decorate --all',
    'log --author=me --since=2.weeks --format=%H',
    'log --stat --no-merges -n 3',
    'log --follow -- src/a.ts',
    'log -L1,5:README.md',
    'log -S needle --pickaxe-all',
    'show --stat HEAD',
    'show -s --pretty=format:%s HEAD',
    'diff --cached --name-only',
    'diff --no-index a b',
    'diff --word-diff HEAD~1',
    'diff -U5 --stat',
    'status -sb',
    'status --porcelain=v2 -uall',
    'blame -L 10,20 README.md',
    'blame --contents=src/a.ts README.md',
    'grep -n -e foo --and -e bar',
    'rev-parse --show-toplevel',
    'rev-parse --abbrev-ref HEAD',
    'ls-files -z --others --exclude-standard',
    'cat-file -p HEAD',
    'stash list --stat',
    'reflog show -5',
    'worktree list --porcelain',
    'for-each-ref --format=%(refname) refs/heads',
    'describe --tags --abbrev=0',
    'log --no-decorate --clear-dec --decorate=short',
  ])('git %s is read-only', (line) => {
    expect(readsOnly(line)).toBe(true);
  });

  it.each(['blame --frobnicate README.md', 'log --frobnicate', 'status -Q', 'grep -j foo', 'stash list --frobnicate', 'show --de'])(
    'git %s is not read-only: an option git does not document for it (or an ambiguous abbreviation)',
    (line) => {
      const verdict = classifyGit(line.split(' '), inside);
      expect(verdict.readOnly).toBe(false);
      expect(verdict.why).toMatch(/is not an option git documents/);
    },
  );

  it('makes any option it does not know not read-only, for every reading subcommand', () => {
    const unknownLong = fc.stringMatching(/^[a-z][a-z0-9-]{2,16}$/).map((name) => `--zz${name}`);
    fc.assert(
      fc.property(fc.constantFrom(...READING), unknownLong, (subcommand, option) => {
        expect(readsOnly(`${subcommand} ${option}`), `git ${subcommand} ${option}`).toBe(false);
      }),
      { numRuns: 300, seed: 31 },
    );
  });

  it('reads options after -- as paths', () => {
    expect(readsOnly('log -- --frobnicate')).toBe(true);
  });

  const installed = spawnSync('git', ['--version'], { encoding: 'utf8' }).status === 0;
  it.runIf(installed).each(READING)('knows every option the installed git lists for %s', (subcommand) => {
    const listed = spawnSync('git', [subcommand, '--git-completion-helper'], { encoding: 'utf8' }).stdout.split(/\s+/);
    const options = listed.filter((word) => /^--[a-z]/.test(word)).map((word) => word.replace(/=$/, ''));
    expect(options.filter((option) => !gitOptionKnown(subcommand, option))).toEqual([]);
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule } from '../../shared/permissions';
import { createPermissionEngine } from './engine';
import { initShellParser } from '../shell/analyzeCommand';
import { command } from '../../../test/support/permissionQueries';

// Issue 31, finding 1: a "read-only" command reads a file outside the workspace through one of its
// options (`date -f ~/.netrc` prints every line inside an error; `git blame --contents=FILE x` prints
// it), or through an option the analysis does not see (an abbreviation, a word only known when it
// runs, a file name a glob expands to). Through the real shell analysis and permission engine, with a
// real workspace (a git repository), home folder and symlinks, as a headless ask-mode run judges them.

let base = '';
let root = '';
let home = '';
beforeAll(async () => {
  await initShellParser();
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-option-reads-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.mkdirSync(path.join(base, 'outside'));
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, '.netrc'), 'machine example.com login me password hunter2\n');
  fs.writeFileSync(path.join(base, 'outside', 'file'), 'secret\n');
  fs.writeFileSync(path.join(root, 'README.md'), '# project\n');
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const foo = 1;\n');
  fs.writeFileSync(path.join(root, 'names.txt'), `${path.join(base, 'outside', 'file')}\0`);
  fs.writeFileSync(path.join(root, 'sums.md5'), `d41d8cd98f00b204e9800998ecf8427e  ${path.join(base, 'outside', 'file')}\n`);
  // Two trees to compare, one holding a link out (a repository can commit one).
  fs.mkdirSync(path.join(root, 'left'));
  fs.mkdirSync(path.join(root, 'right', 'keys'), { recursive: true });
  fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'left', 'keys'));
  execFileSync('git', ['init', '-q', root]);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function engine(mode: PermissionMode = 'ask', rules: PermissionRule[] = []) {
  return createPermissionEngine({ workspaceRoot: root, home, mode, outsideContent: 'ask', projectTrusted: false, rules });
}

/** Options that name a file outside the workspace: a read of it, which asks as read_file does. */
const READS_OUTSIDE = [
  'date -f ~/notes.txt',
  'date -f/etc/passwd',
  'date --file=/etc/passwd',
  'date --file /etc/passwd',
  'date --fil=/etc/passwd',
  'date -u -f ../outside/file +%s',
  'date -r /etc/passwd',
  'date --reference=../outside/file',
  'git blame --contents=/etc/passwd README.md',
  'git blame --contents /etc/passwd README.md',
  'git blame --cont=/etc/passwd README.md',
  'git blame -S/etc/passwd README.md',
  'git blame --ignore-revs-file=../outside/file README.md',
  'git diff --no-index /etc/hosts README.md',
  'git log -O/etc/passwd',
  'grep --exclude-from=/etc/passwd -r foo src',
  'rg --ignore-file=/etc/passwd foo',
  'diff --from-file=/etc/passwd README.md',
  'diff --to-file ../outside/file README.md',
  'diff -X /etc/passwd README.md src/a.ts',
  "jq -n --rawfile x /etc/passwd '$x'",
  "jq -n --slurpfile x ../outside/file '$x'",
  'jq -L /etc -n 1',
  'file -m /etc/passwd README.md',
  'file -m README.md:/etc/passwd README.md',
  'realpath --relative-to=/etc README.md',
  'sort --random-source=/etc/passwd README.md',
  'tree --fromfile /etc/passwd',
  'tree --gitfile=/etc/passwd',
  "sed '1r /etc/passwd' README.md",
  'sed -n "R ../outside/file" README.md',
  'find . -newer /etc/passwd',
  'xargs -a ../outside/file echo',
  'xargs --arg-file=/etc/passwd echo',
];

/** Lines that cannot be pinned down: the program reads files named inside a file, or a script or an option it is not told. */
const NOT_READ_ONLY = [
  'wc --files0-from=names.txt',
  'wc --files0=names.txt',
  'du --files0-from=names.txt',
  'sort --files0-from=names.txt',
  'md5sum -c sums.md5',
  'sha256sum --check sums.md5',
  'cksum -c sums.md5',
  'file -f names.txt',
  'file --files-from names.txt',
  'jq -f filter.jq README.md',
  `jq -n 'import "../outside/data" as $d; $d'`,
  `jq -n 'include "lib"; 1'`,
  'sed -f script.sed README.md',
  'find . -files0-from names.txt',
  'diff -l README.md src/a.ts',
  // An option the table does not know.
  'date --frobnicate',
  'cat --frobnicate README.md',
  'ls -@',
  'git blame --frobnicate README.md',
  'git log --output-indicator-new=x --frobnicate',
  // A word only known when it runs, where an option could stand, for a program with options that read files.
  'x=--file=/etc/passwd; date "$x"',
  'p=-f/etc/passwd; grep "$p" src',
  'grep -r $opts foo src',
];

describe('a read-only command that reads a file outside through an option', () => {
  it.each(READS_OUTSIDE)('`%s` asks, naming what it reads', (line) => {
    const verdict = engine().evaluate(command(line));
    expect(verdict.action, verdict.reason).toBe('ask');
    expect(verdict.readsOutside, verdict.reason).toBeDefined();
  });

  it.each(NOT_READ_ONLY)('`%s` is not read-only, so it asks in ask mode and is refused in read-only mode', (line) => {
    const verdict = engine().evaluate(command(line));
    expect(verdict.action, verdict.reason).toBe('ask');
    expect(engine('read-only').evaluate(command(line)).action).toBe('deny');
  });

  it('is denied by the built-in rule for ~/.netrc, which never goes to a model', () => {
    for (const line of ['date -f ~/.netrc', 'date --file ~/.netrc', `git blame --contents=${home}/.netrc README.md`]) {
      const verdict = engine('unleashed').evaluate(command(line));
      expect(verdict.action, `${line}: ${verdict.reason}`).toBe('deny');
    }
  });

  it('is denied by a deny rule on reading the file, in every mode, as read_file is', () => {
    const deny: PermissionRule[] = [{ pattern: 'read_file(~/.netrc)', action: 'deny', source: 'user' }];
    for (const mode of ['ask', 'auto', 'unleashed', 'read-only'] as PermissionMode[]) {
      for (const line of [
        'date -f ~/.netrc',
        `date --file=${home}/.netrc`,
        `date --fi ${home}/.netrc`,
        `git blame --contents=${home}/.netrc README.md`,
        `git blame -S${home}/.netrc README.md`,
        `xargs -a ${home}/.netrc echo`,
        `sed "r ${home}/.netrc" README.md`,
        `jq -n --rawfile t ${home}/.netrc '$t'`,
        `file -m README.md:${home}/.netrc README.md`,
      ]) {
        const verdict = engine(mode, deny).evaluate(command(line));
        expect(verdict.action, `${mode}: ${line}: ${verdict.reason}`).toBe('deny');
        expect(verdict.reason).toMatch(/denies reading/);
      }
    }
  });

  it('asks for a glob that expands to a file name the program would read as an option', () => {
    fs.mkdirSync(path.join(root, 'planted'));
    try {
      fs.writeFileSync(path.join(root, 'planted', '--files0-from=list'), '');
      fs.writeFileSync(path.join(root, 'planted', 'list'), `${path.join(base, 'outside', 'file')}\0`);
      const verdict = engine().evaluate({ ...command('wc -c *'), args: { command: 'wc -c *', cwd: 'planted' } });
      expect(verdict.action, verdict.reason).toBe('ask');
      expect(verdict.reason).toMatch(/--files0-from=list/);
      // The same glob where no name starts with a dash runs on its own.
      expect(engine().evaluate({ ...command('wc -c *'), args: { command: 'wc -c *', cwd: 'src' } }).action).toBe('allow');
    } finally {
      fs.rmSync(path.join(root, 'planted'), { recursive: true, force: true });
    }
  });

  it('asks for a recursive diff, which follows the links it meets out of the workspace', () => {
    const verdict = engine().evaluate(command('diff -r left right'));
    expect(verdict.action, verdict.reason).toBe('ask');
    expect(engine().evaluate(command('diff -r --no-dereference left right')).action).toBe('allow');
  });
});

describe('ordinary reads still run on their own, headless, in ask mode', () => {
  it.each([
    'date',
    'date +%s',
    'date -u -d yesterday +%F',
    'date -f src/a.ts',
    'date --file=src/a.ts +%s',
    'date -r README.md',
    'git blame README.md',
    'git blame --contents=src/a.ts README.md',
    'git log --oneline -5',
    'git diff --stat',
    'git show HEAD:README.md',
    'cat src/a.ts',
    'grep -rn foo src',
    'grep -e foo -f src/a.ts README.md',
    'rg -n foo src',
    'ls -la',
    'ls -la src',
    'head -n 5 README.md',
    'tail -20 README.md',
    'wc -l src/a.ts',
    'wc -l src/*.ts',
    'sort -k 2 -n README.md',
    'uniq -c README.md',
    'jq -n 1',
    "jq -n --arg x 1 '$x'",
    'jq . package.json',
    "sed -n '1,5p' README.md",
    "sed '1r src/a.ts' README.md",
    'file README.md',
    'stat -c %s README.md',
    'du -sh src',
    'md5sum README.md',
    'diff README.md src/a.ts',
    'find . -name "*.ts" -type f',
    'seq -5 5',
    'echo --file=/etc/passwd',
    'printf "%s\\n" -f/etc/passwd',
    'basename /etc/passwd',
    'xargs -a names.txt echo',
  ])('`%s` runs', (line) => {
    const verdict = engine().evaluate(command(line));
    expect(verdict.action, verdict.reason).toBe('allow');
    expect(verdict.readsOutside).toBeUndefined();
  });
});

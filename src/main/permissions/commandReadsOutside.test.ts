import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule } from '../../shared/permissions';
import { createPermissionEngine } from './engine';
import { initShellParser } from '../shell/analyzeCommand';
import { command, query, testTools } from '../../../test/support/permissionQueries';

// A read-only command whose path arguments, input redirections or cd target resolve outside the
// workspace asks, as read_file does; deny rules on reading (the credential stores) hold for it.
// Through the real shell analysis, with a real workspace, home folder and symlinks.

let base = '';
let root = '';
let home = '';
beforeAll(async () => {
  await initShellParser();
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-reads-outside-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  fs.mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
  fs.mkdirSync(path.join(base, 'outside'));
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export {};\n');
  fs.writeFileSync(path.join(base, 'outside', 'file'), 'secret\n');
  fs.symlinkSync(path.join(base, 'outside', 'file'), path.join(root, 'src', 'link-out'));
  fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'outdir'));
  fs.symlinkSync(home, path.join(root, 'homelink'));
  fs.writeFileSync(path.join(home, '.netrc'), 'machine x password y\n');
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function engine(mode: PermissionMode = 'ask', rules: PermissionRule[] = []) {
  return createPermissionEngine({ workspaceRoot: root, home, mode, outsideContent: 'ask', projectTrusted: false, rules });
}

const OUTSIDE = [
  'cat /etc/passwd',
  'wc -l < /etc/hosts',
  'cat ../outside/file',
  'grep -f /etc/shadow x',
  'grep -f/etc/shadow x',
  'grep --file=/etc/shadow x',
  'head -n 1 ~/notes.txt',
  'ls ~',
  'ls -la /tmp',
  'cd .. && cat outside/file',
  'cd /etc && cat passwd',
  'cd src && cat ../../outside/file',
  'cat src/link-out',
  'cat outdir/file',
  'diff src/a.ts /etc/hosts',
  'sort < ../outside/file',
  'cat "$HOME/notes.txt"',
  'cat $(cat list.txt)',
  'cat .*/file',
  'cat {..,.}/outside/file',
  'find / -name passwd',
  'rg --files /etc',
  'tail -f /var/log/syslog',
  'git diff --no-index /etc/hosts src/a.ts',
  'cd',
  // Found by a red-team pass: a read in a substitution, symlinks before `..`, globs that match a
  // link out, recursion that follows links, an abbreviated option.
  'echo "$(< /etc/hosts)"',
  'x=$(</etc/hosts); echo "$x"',
  'cat outdir/../outside/file',
  'cat < outdir/../outside/file',
  'cd -P outdir/.. && cat outside/file',
  'set -P; cd outdir/..; cat outside/file',
  'cat src/*',
  'wc -c src/l*',
  'cat src/link-ou[t]',
  'grep -R secret .',
  'rg -L secret',
  'rg --follow secret',
  'find -L . -name file',
  'grep --rege=root /etc/hosts',
  'sed --expr=p -n /etc/hosts',
];

/** Commands that are not read-only but name a file outside on their line. */
const OTHER_OUTSIDE = [
  'git commit -F /etc/hosts',
  'git commit --file=/etc/hosts',
  'git tag -F ../outside/file v1',
  'cp /etc/hosts .',
  'python3 script.py ../outside/file',
];

describe('a read-only command that reads outside the workspace', () => {
  it.each(OUTSIDE)('`%s` asks, naming what it reads', (line) => {
    const verdict = engine().evaluate(command(line));
    expect(verdict.action, verdict.reason).toBe('ask');
    expect(verdict.reason).toMatch(/outside the workspace/);
    expect(verdict.readsOutside).toBeDefined();
  });

  it.each(OUTSIDE)('`%s` runs in unleashed mode, and asks in read-only mode unless it leaves with cd', (line) => {
    expect(engine('unleashed').evaluate(command(line)).action).toBe('allow');
    // A cd out of the workspace is not read-only (what runs after it is not known to be inside): read-only mode denies it.
    expect(engine('read-only').evaluate(command(line)).action).toBe(
      ['cd .. && cat outside/file', 'cd /etc && cat passwd', 'cd'].includes(line) ? 'deny' : 'ask',
    );
  });

  it.each(OTHER_OUTSIDE)('`%s`, which is not read-only, asks naming the file, even where a rule allows the program', (line) => {
    const program = line
      .split(' ')
      .slice(0, line.startsWith('git') ? 2 : 1)
      .join(' ');
    const verdict = engine('ask', [{ pattern: `run_command(${program} *)`, action: 'allow', source: 'user' }]).evaluate(command(line));
    expect(verdict.action, verdict.reason).toBe('ask');
    expect(verdict.reason).toMatch(/outside the workspace/);
    expect(verdict.readsOutside).toBeDefined();
  });

  it('is denied by the built-in rules for the credential stores, in every mode', () => {
    for (const mode of ['ask', 'auto-edit', 'unleashed', 'read-only'] as PermissionMode[]) {
      for (const line of [
        'cat ~/.ssh/id_ed25519',
        'wc -c < ~/.netrc',
        'grep token ~/.git-credentials',
        'head ~/.aws/credentials',
        'cd ~/.ssh && cat id_rsa',
        'echo "$(< ~/.netrc)"',
        'cat homelink/../home/.netrc',
        'cat homelin?/.netrc',
        'grep --rege=x ~/.netrc',
        'git commit -F ~/.netrc',
      ]) {
        const verdict = engine(mode).evaluate(command(line));
        expect(verdict.action, `${mode}: ${line}: ${verdict.reason}`).toBe(line.startsWith('cd') ? verdict.action : 'deny');
        if (!line.startsWith('cd')) expect(verdict.reason).toMatch(/denies reading/);
      }
    }
  });

  it('is allowed by a read rule for the place, and by the exact command', () => {
    expect(
      engine('ask', [{ pattern: 'read_file(//etc/**)', action: 'allow', source: 'user' }]).evaluate(command('cat /etc/passwd')).action,
    ).toBe('allow');
    expect(
      engine('ask', [{ pattern: 'run_command(cat /etc/passwd)', action: 'allow', source: 'user' }]).evaluate(command('cat /etc/passwd'))
        .action,
    ).toBe('allow');
    // A rule for the program alone does not cover where it reads, as it does not cover where a redirection writes.
    expect(
      engine('ask', [{ pattern: 'run_command(cat *)', action: 'allow', source: 'user' }]).evaluate(command('cat /etc/passwd')).action,
    ).toBe('ask');
  });

  it('offers the exact command, never a prefix, as "Allow always"', () => {
    const offer = engine().evaluate(command('cat /etc/passwd')).allowAlways;
    expect(offer).toEqual({ rule: 'run_command(cat /etc/passwd)' });
  });

  it('agrees with read_file on the same paths', () => {
    for (const target of ['/etc/passwd', '../outside/file', 'src/link-out']) {
      const byTool = engine().evaluate(query(testTools.read_file, { path: target })).action;
      const byCommand = engine().evaluate(command(`cat ${target}`)).action;
      expect(byCommand, target).toBe(byTool);
    }
  });
});

describe('a read-only command that stays inside the workspace', () => {
  it.each([
    'cat src/a.ts',
    'ls',
    'ls -la src',
    'grep -rn "/api/v1" src',
    'grep -e foo -- src/a.ts',
    'rg -n "^/" src',
    "sed -n '/x/p' src/a.ts",
    'cd src && cat a.ts',
    'cd src/deep && ls ..',
    'wc -l < src/a.ts',
    'echo /etc/passwd',
    'cat src/*.ts',
    'head -c 16 /dev/urandom',
    'git log --oneline -5 -- src',
    'git show HEAD:src/a.ts',
    'cut -d/ -f1 src/a.ts',
    'jq .name package.json',
  ])('`%s` runs on its own', (line) => {
    const verdict = engine().evaluate(command(line));
    expect(verdict.action, verdict.reason).toBe('allow');
    expect(verdict.readsOutside).toBeUndefined();
  });
});

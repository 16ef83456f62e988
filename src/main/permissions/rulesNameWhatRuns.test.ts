import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule } from '../../shared/permissions';
import { createPermissionEngine } from './engine';
import { initShellParser } from '../shell/analyzeCommand';
import { WRAPPERS } from '../shell/wrapperSpecs';
import { command } from '../../../test/support/permissionQueries';

// A rule covers arguments, never programs: rules are matched against the program that really runs.
// A rule naming a wrapper covers the wrapper, never the program inside it, and a deny rule for the
// program holds through every wrapper, in every mode. Through the real shell analysis.

let root = '';
beforeAll(async () => {
  await initShellParser();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-wrappers-')));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const MODES: PermissionMode[] = ['ask', 'auto-edit', 'read-only', 'unleashed'];
const rule = (pattern: string, action: PermissionRule['action'] = 'allow'): PermissionRule => ({ pattern, action, source: 'user' });

function engine(rules: PermissionRule[], mode: PermissionMode = 'ask') {
  return createPermissionEngine({
    workspaceRoot: root,
    home: path.join(root, 'home'),
    mode,
    outsideContent: 'ask',
    projectTrusted: false,
    rules,
  });
}

/** A wrapper rule, and a line where that wrapper runs `rm`. */
const WRAPPED_RM: Array<[string, string]> = [
  ['run_command(timeout *)', 'timeout 5 rm -rf build'],
  ['run_command(nice *)', 'nice -n 10 rm -rf build'],
  ['run_command(nohup *)', 'nohup rm -rf build'],
  ['run_command(stdbuf *)', 'stdbuf -oL rm -rf build'],
  ['run_command(ionice *)', 'ionice -c3 rm -rf build'],
  ['run_command(setsid *)', 'setsid rm -rf build'],
  ['run_command(env *)', 'env FOO=1 rm -rf build'],
  ['run_command(xargs *)', 'echo build | xargs rm -rf'],
  ['run_command(sudo *)', 'sudo -u builder rm -rf build'],
  ['run_command(doas *)', 'doas rm -rf build'],
  ['run_command(pkexec *)', 'pkexec rm -rf build'],
  ['run_command(runuser *)', 'runuser -u builder -- rm -rf build'],
  ['run_command(watch *)', 'watch -n 1 rm -rf build'],
  ['run_command(find *)', 'find . -name build -exec rm -rf {} +'],
  ['run_command(find *)', 'find . -name build -execdir rm -rf {} \\;'],
];

describe('a rule naming a wrapper covers the wrapper, never the program inside it', () => {
  it.each(WRAPPED_RM)('%s does not allow `%s`', (allow, line) => {
    for (const mode of ['ask', 'auto-edit'] as PermissionMode[]) {
      const verdict = engine([rule(allow)], mode).evaluate(command(line));
      expect(verdict.action, `${mode}: ${verdict.reason}`).toBe('ask');
    }
  });

  it.each(WRAPPED_RM.filter(([, line]) => !line.startsWith('find') && !line.includes('xargs')))(
    'with the program allowed on its own too, %s allows `%s`',
    (allow, line) => {
      expect(engine([rule(allow), rule('run_command(rm *)')]).evaluate(command(line)).action).toBe('allow');
    },
  );

  it('with rm allowed on its own too, run_command(xargs *) still asks for `xargs rm`: which files it deletes is only known when it runs', () => {
    // The names come from its input: no rule's words can say where they lead (shell/runTimeWrites.ts).
    const verdict = engine([rule('run_command(xargs *)'), rule('run_command(rm *)')]).evaluate(command('echo build | xargs rm -rf'));
    expect(verdict.action).toBe('ask');
    expect(verdict.reason).toContain('the words xargs appends');
  });

  it('lets a program allowed on its own run through a wrapper that only limits or times it, and no other', () => {
    const e = engine([rule('run_command(npm test *)')]);
    for (const line of [
      'timeout 60 npm test',
      'nice npm test',
      'nohup npm test',
      'time npm test',
      'stdbuf -oL npm test',
      'setsid npm test',
    ])
      expect(e.evaluate(command(line)).action, line).toBe('allow');
    for (const line of [
      'sudo npm test',
      'env CI=1 npm test',
      'echo x | xargs npm test',
      'runuser -u ci -- npm test',
      'flock /tmp/l npm test',
    ])
      expect(e.evaluate(command(line)).action, line).toBe('ask');
  });

  it('offers only the exact command as "Allow always" for a wrapped line', () => {
    for (const [, line] of WRAPPED_RM) {
      const offer = engine([]).evaluate(command(line)).allowAlways;
      if (offer && 'rule' in offer) expect(offer.rule, line).toBe(`run_command(${line})`);
    }
  });
});

describe('a deny rule for a program holds through every wrapper, in every mode', () => {
  const lines = [
    ...WRAPPED_RM.map(([, line]) => line),
    'flock /tmp/lock rm -rf build',
    'strace -f rm -rf build',
    'chroot / rm -rf build',
    'unshare -r rm -rf build',
    'taskset -c 0 rm -rf build',
    'timeout 5 sudo rm -rf build',
    'command rm -rf build',
    'exec rm -rf build',
    'runuser -l builder -c "rm -rf build"',
  ];
  it.each(lines)('run_command(rm *) denies `%s`', (line) => {
    for (const mode of MODES) {
      const verdict = engine([rule('run_command(rm *)', 'deny'), rule('run_command')], mode).evaluate(command(line));
      expect(verdict.action, `${mode}: ${verdict.reason}`).toBe('deny');
    }
  });

  // Found by a red-team pass: programs run from a string, a here-document, a runner or an exec-option.
  const hidden = [
    "bash <<'EOF'\nrm -rf build\nEOF",
    "sh <<< 'rm -rf build'",
    "sudo bash <<< 'rm -rf build'",
    "flock /tmp/l -c 'rm -rf build'",
    "script -qc 'rm -rf build' /dev/null",
    "unshare -r sh -c 'rm -rf build'",
    "strace -f sh -c 'rm -rf build'",
    "nsenter -t 1 -m -- sh -c 'rm -rf build'",
    "parallel 'rm -rf {}' ::: build",
    "busybox sh -c 'rm -rf build'",
    "npx -c 'rm -rf build'",
    "su -c'rm -rf build'",
    "su --comm='rm -rf build'",
    "su -lc 'rm -rf build'",
    'fakeroot rm -rf build',
    'numactl -N 0 rm -rf build',
    'toybox rm -rf build',
    'coreutils --coreutils-prog=rm -rf build',
    "sg wheel -c 'rm -rf build'",
    'dbus-run-session rm -rf build',
    'xvfb-run rm -rf build',
    "tmux new -d 'rm -rf build'",
    'screen -dm rm -rf build',
    "echo 'rm -rf build' | at now",
    'npm exec -- rm -rf build',
    'pnpm exec rm -rf build',
    'yarn exec rm -rf build',
    'uv run rm -rf build',
    'poetry run rm -rf build',
    'git bisect run rm -rf build',
    "git rebase -x 'rm -rf build' HEAD~1",
    "git submodule foreach 'rm -rf build'",
    "git -c alias.x='!rm -rf build' x",
    "make --eval='$(shell rm -rf build)'",
    'cmake -E rm -rf build',
  ];
  it.each(hidden)('run_command(rm *) denies `%s`, whose program no rule can see by its name', (line) => {
    for (const mode of MODES) {
      const verdict = engine([rule('run_command(rm *)', 'deny'), rule('run_command')], mode).evaluate(command(line));
      expect(verdict.action, `${mode}: ${verdict.reason}`).toBe('deny');
    }
  });

  it('lists every wrapper the table knows as one a prefix is never offered for', () => {
    for (const name of Object.keys(WRAPPERS)) {
      const offer = engine([]).evaluate(command(`${name} ls`)).allowAlways;
      if (offer && 'rule' in offer) expect(offer.rule, name).not.toMatch(/\*\)$/);
    }
  });

  it('no mode and no chain of wrappers turns a deny into an allow', () => {
    const wrapper = fc.constantFrom(
      'timeout 5',
      'nice',
      'nohup',
      'env A=1',
      'sudo',
      'flock /tmp/l',
      'strace',
      'stdbuf -oL',
      'setsid',
      'command',
      'pkexec',
      'taskset -c 0',
    );
    fc.assert(
      fc.property(
        fc.array(wrapper, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...MODES),
        fc.constantFrom('rm -rf x', 'git push --force', 'curl https://example.com'),
        (chain, mode, inner) => {
          const program = inner.split(' ')[0]!;
          const line = `${chain.join(' ')} ${inner}`;
          const verdict = engine(
            [rule(`run_command(${program} *)`, 'deny'), rule('run_command'), rule(`run_command(${chain[0]!.split(' ')[0]} *)`)],
            mode,
          ).evaluate(command(line));
          if (verdict.action !== 'deny') throw new Error(`${mode}: ${line} → ${verdict.action}: ${verdict.reason}`);
        },
      ),
      { numRuns: 200 },
    );
  });
});

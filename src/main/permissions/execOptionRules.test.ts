import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule } from '../../shared/permissions';
import { commandPrefix } from './allowAlways';
import { createPermissionEngine } from './engine';
import { command } from '../../../test/support/permissionQueries';
import { analyzeCommand, initShellParser } from '../shell/analyzeCommand';
import type { ExecOptionEntry } from '../shell/execOptionEntry';
import { execOptionIn, findExecOption } from '../shell/execOptions';
import { EXEC_OPTIONS } from '../shell/execOptionTable';

// A rule covers arguments, never programs: an option that hands an allowed program another program to
// run, code to load, or files to write, is never covered by a prefix rule, and "Allow always" never
// offers a prefix for such a line. One test per entry of the table, through the real shell analysis.

let root = '';
beforeAll(async () => {
  await initShellParser();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-exec-options-')));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

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

/** The simple command of `line` whose program is the entry's. */
function partOf(line: string, program: string) {
  const analysis = analyzeCommand(line, { cwd: root, workspaceRoot: root });
  const part = analysis.commands.find((c) => path.posix.basename(c.argv[0] ?? '') === program);
  if (!part) throw new Error(`no ${program} in ${line}: ${JSON.stringify(analysis)}`);
  return part;
}

/** Every prefix rule a person could have written for the line's program: the program, then each of its first words. */
function prefixRules(argv: readonly string[]): string[] {
  const rules: string[] = [];
  for (let k = 1; k <= Math.min(argv.length, 3); k++) {
    if (argv.slice(1, k).some((word) => /[\s'"*$`\\]/.test(word))) break;
    rules.push(`run_command(${argv.slice(0, k).join(' ')} *)`);
  }
  return rules;
}

function entryName(entry: ExecOptionEntry): string {
  const options = [
    ...(entry.long ?? []).map((o) => `--${o}`),
    ...[...(entry.short ?? '')].map((o) => `-${o}`),
    ...(entry.word ?? []).map((o) => `-${o}`),
    ...(entry.runsWords ?? []),
  ];
  return `${entry.program}${entry.subcommands ? ` ${entry.subcommands[0]}` : ''} ${options.slice(0, 3).join(' ')}${entry.assignments ? ' NAME=value' : ''}`;
}

describe('the exec-option table', () => {
  it.each(EXEC_OPTIONS.map((entry) => [entryName(entry), entry] as const))(
    '%s: its example is found, covered by no prefix rule, and offered no prefix',
    (_name, entry) => {
      const part = partOf(entry.example, entry.program);
      const found = execOptionIn(part);
      expect(found, entry.example).toBeDefined();
      expect(found!.why).toContain(entry.program);
      // No prefix is offered: for this reason, or an earlier one (find runs anything, curl is too sharp).
      expect(commandPrefix(part)).toHaveProperty('none');
      for (const prefix of prefixRules(part.argv)) {
        const verdict = engine([rule(prefix)]).evaluate(command(entry.example));
        expect(verdict.action, `${prefix} on ${entry.example}: ${verdict.reason}`).toBe('ask');
        const offer = verdict.allowAlways;
        // What is offered is the exact line, never a prefix.
        if (offer && 'rule' in offer) expect(offer.rule).toBe(`run_command(${entry.example})`);
      }
      // The exact command, which the person has read, is still something a rule can allow.
      expect(engine([rule(`run_command(${entry.example})`)]).evaluate(command(entry.example)).action).not.toBe('deny');
    },
  );

  it('cites where each entry comes from and has an example for its test', () => {
    for (const entry of EXEC_OPTIONS) {
      expect(entry.doc.length, entry.program).toBeGreaterThan(10);
      expect(entry.example.startsWith(entry.program), entry.example).toBe(true);
    }
  });
});

describe('the issue’s lines and other members of the class', () => {
  const cases: Array<[string, string]> = [
    ['run_command(find *)', 'find . -exec rm {} +'],
    ['run_command(find *)', 'find . -delete'],
    ['run_command(find *)', 'find src -name "*.o" -execdir sh -c "id" \\;'],
    ['run_command(find *)', 'find . -fprint /tmp/list'],
    ['run_command(git fetch *)', "git fetch --upload-pack='sh -c id' ."],
    ['run_command(git fetch *)', "git fetch --upload-p='sh -c id' ."],
    ['run_command(git *)', "git -c core.sshCommand='sh -c id' fetch"],
    ['run_command(git rebase *)', "git rebase -x 'make test' main"],
    ['run_command(git rebase *)', "git rebase --exec='make test' main"],
    ['run_command(git bisect *)', 'git bisect run ./check.sh'],
    ['run_command(git submodule *)', "git submodule foreach 'rm -rf .'"],
    ['run_command(go test *)', "go test -exec='sh -c id' ./..."],
    ['run_command(go build *)', 'go build -toolexec /tmp/x ./...'],
    ['run_command(make *)', "make --eval='$(shell id)'"],
    ['run_command(make *)', "make SHELL='/tmp/x' all"],
    ['run_command(cargo *)', 'cargo --config build.rustc-wrapper=/tmp/x build'],
    ['run_command(npm test *)', "npm test --script-shell='/tmp/x'"],
    ['run_command(pytest *)', 'pytest -p evil tests'],
    ['run_command(rg *)', "rg --pre='/tmp/x' foo"],
    ['run_command(docker run *)', 'docker run -v /:/host alpine id'],
    ['run_command(kubectl *)', 'kubectl --kubeconfig=/tmp/k get pods'],
    ['run_command(terraform *)', 'terraform -chdir=/tmp/other plan'],
    ['run_command(sort *)', "sort --compress-program='/tmp/x' a"],
    ['run_command(tar *)', "tar -xf a.tar --to-command='sh -c id'"],
    // Found by a red-team pass.
    ['run_command(find *)', "find -- . -name '*.o' -delete"],
    ['run_command(find *)', 'find -- . -fprint /tmp/x'],
    ['run_command(make *)', "make -- CC='sh -c id' all"],
    ['run_command(make *)', "make 'SHELL = /tmp/x' all"],
    ['run_command(make *)', "make 'X != id' all"],
    ['run_command(tar *)', "tar cIf 'sh -c id' /tmp/x.tar src"],
    ['run_command(go test *)', 'go test -C /tmp/other ./...'],
    ['run_command(go test *)', 'go test -coverprofile=/home/u/.bashrc ./...'],
    ['run_command(go vet *)', 'go vet -vettool=/tmp/x ./...'],
    ['run_command(git config *)', 'git config core.hooksPath /tmp/h'],
    ['run_command(git config *)', 'git config --local core.pager id'],
    ['run_command(git archive *)', 'git archive -o /tmp/x.tar HEAD'],
    ['run_command(man *)', "man -P 'sh -c id' ls"],
    ['run_command(cmake *)', 'cmake -E rm -rf /home/u'],
    ['run_command(bazel *)', "bazel test --run_under='sh -c id' //..."],
    ['run_command(tox *)', "tox -x 'testenv.commands=sh -c id'"],
    ['run_command(helm template *)', 'helm template . --post-renderer /tmp/x'],
    ['run_command(mvn test *)', 'mvn test exec:exec -Dexec.executable=sh'],
    ['run_command(python -m pytest *)', 'python -m pytest --basetemp=/home/u'],
    ['run_command(uv run pytest *)', 'uv run pytest --basetemp=/home/u'],
    ['run_command(npx vitest *)', 'npx vitest run --reporter=/tmp/r.js'],
    ['run_command(yarn jest *)', 'yarn jest --globalSetup=/tmp/x.js'],
    ['run_command(pnpm vitest *)', 'pnpm vitest run --reporter=/tmp/r.js'],
  ];
  it.each(cases)('%s does not cover `%s`', (allow, line) => {
    for (const mode of ['ask', 'auto-edit'] as PermissionMode[]) {
      const verdict = engine([rule(allow)], mode).evaluate(command(line));
      expect(verdict.action, `${mode}: ${verdict.reason}`).toBe('ask');
    }
  });

  const benign: Array<[string, string]> = [
    ['run_command(git fetch *)', 'git fetch origin main'],
    ['run_command(git push *)', 'git push -u origin main'],
    ['run_command(git log *)', 'git log --oneline -5'],
    ['run_command(git add *)', 'git add *.ts'],
    ['run_command(go test *)', 'go test -run TestX -count=1 ./...'],
    ['run_command(make *)', 'make -j4 test'],
    ['run_command(npm test *)', 'npm test -- --watch=false'],
    ['run_command(npm install *)', 'npm install --save-dev vitest'],
    ['run_command(cargo build *)', 'cargo build --release'],
    ['run_command(pytest *)', 'pytest -q -k "not slow" tests'],
    ['run_command(docker *)', 'docker ps -a'],
    ['run_command(rg *)', 'rg -n TODO src'],
    ['run_command(git config *)', 'git config user.email'],
    ['run_command(tar *)', 'tar czf out.tgz src'],
    ['run_command(python -m pytest *)', 'python -m pytest -q tests'],
    ['run_command(make *)', 'make -- test'],
  ];
  it.each(benign)('%s still covers `%s`', (allow, line) => {
    expect(engine([rule(allow)]).evaluate(command(line)).action).toBe('allow');
  });

  it('counts an argument only known when it runs, or appended by xargs, as a possible exec-option', () => {
    for (const line of ['git fetch "$OPTS" origin', 'find . $ACTION', 'make $TARGET', 'go test $FLAGS ./...']) {
      const verdict = engine([
        rule(
          `run_command(${line
            .split(' ')
            .slice(0, line.startsWith('git') || line.startsWith('go') ? 2 : 1)
            .join(' ')} *)`,
        ),
      ]).evaluate(command(line));
      expect(verdict.action, `${line}: ${verdict.reason}`).toBe('ask');
    }
    expect(findExecOption(['git', 'fetch'], { appended: true })).toBeDefined();
    expect(findExecOption(['git', 'add', '*.ts'], { unknown: [2] })).toBeUndefined();
  });

  it('offers only the exact command for an editor, which runs whatever it is told to', () => {
    for (const line of ['vim -c wq x', 'nvim +q x', 'emacs --batch -l x', 'nano x']) {
      const offer = engine([]).evaluate(command(line)).allowAlways;
      if (offer && 'rule' in offer) expect(offer.rule, line).toBe(`run_command(${line})`);
    }
  });

  it('finds nothing in programs the table does not know, nor in what follows --', () => {
    expect(findExecOption(['ls', '-exec'])).toBeUndefined();
    expect(findExecOption(['npm', 'test', '--', '--script-shell=/tmp/x'])).toBeUndefined();
    expect(findExecOption(['/usr/bin/git', '-c', 'a=b', 'log'])).toBeDefined();
  });
});

describe('properties', () => {
  const withOption = fc.constantFrom(...EXEC_OPTIONS.map((entry) => entry.example));
  const benignWord = fc.constantFrom('-v', '--quiet', 'src', 'main', '-n', './...', 'x.txt');

  it('no prefix rule of a line ever allows it when the line holds an exec-option of its program', () => {
    fc.assert(
      fc.property(
        withOption,
        fc.array(benignWord, { maxLength: 3 }),
        fc.constantFrom<PermissionMode>('ask', 'auto-edit'),
        (example, extra, mode) => {
          const line = `${example} ${extra.join(' ')}`.trim();
          const program = example.split(' ')[0]!;
          const part = partOf(line, program);
          for (const prefix of prefixRules(part.argv)) {
            const verdict = engine([rule(prefix)], mode).evaluate(command(line));
            if (verdict.action === 'allow') throw new Error(`${prefix} allowed ${line}: ${verdict.reason}`);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode, PermissionRule } from '../../shared/permissions';
import { command } from '../../../test/support/permissionQueries';
import { commandPrefix } from './allowAlways';
import type { SimpleCommand } from '../shell/commandAnalysis';
import { describeParts } from '../shell/describeParts';
import { createPermissionEngine } from './engine';
import { analyzeCommand, initShellParser } from '../shell/analyzeCommand';
import { execOptionIn } from '../shell/execOptions';
import { hiddenProgram } from '../shell/hiddenProgram';

// One table per shell fact: what a runner runs and what a wrapper is are read from one place by every
// consumer (the analysis of hidden programs, Allow always's offer, the exec-option lookup, the words
// the request shows), so no consumer can hold a second opinion. Each member below was once answered
// differently by two tables.

let root = '';
beforeAll(async () => {
  await initShellParser();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-shell-facts-')));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const rule = (pattern: string, action: PermissionRule['action'] = 'allow'): PermissionRule => ({ pattern, action, source: 'user' });

/** `fenced`: whether the sandbox holds the session's commands (what auto mode leaves to it). */
function evaluate(line: string, rules: PermissionRule[], mode: PermissionMode = 'ask', fenced?: boolean) {
  return createPermissionEngine({
    workspaceRoot: root,
    home: path.join(root, 'home'),
    mode,
    outsideContent: 'ask',
    projectTrusted: false,
    rules,
    ...(fenced !== undefined ? { commandsFenced: () => fenced } : {}),
  }).evaluate(command(line));
}

function onlyPart(line: string): SimpleCommand {
  const analysis = analyzeCommand(line, { cwd: root, workspaceRoot: root });
  expect(analysis.unpinnable, line).toBeUndefined();
  expect(analysis.commands, line).toHaveLength(1);
  return analysis.commands[0]!;
}

describe('runners: one table for what runs whatever it is given', () => {
  // `bun run` runs a file, a package's program or any program on PATH (`bun run ls`); `bundle exec`,
  // `uvx`, `pdm run`… run a program by name; `go run` builds and runs a package.
  const runners: Array<[line: string, runner: string]> = [
    ['bun run rm -rf build', 'bun run'],
    ['bundle exec rm -rf build', 'bundle exec'],
    ['uvx rm -rf build', 'uvx'],
    ['go run ./cmd/clean', 'go run'],
    ['pdm run rm -rf build', 'pdm run'],
    ['hatch run rm -rf build', 'hatch run'],
    ['conda run rm -rf build', 'conda run'],
    ['mise exec -- rm -rf build', 'mise exec'],
    ['npm exec rm -rf build', 'npm exec'],
  ];

  it.each(runners)('%s runs a program no rule sees by name (%s)', (line, runner) => {
    expect(hiddenProgram(onlyPart(line))).toContain(runner);
  });

  it.each(runners)('%s is denied whenever a run_command deny rule exists, in every mode', (line) => {
    for (const mode of ['ask', 'auto-edit', 'auto', 'unleashed'] as PermissionMode[]) {
      expect(evaluate(line, [rule('run_command(rm *)', 'deny')], mode).action, mode).toBe('deny');
    }
  });

  it.each(runners)('%s is offered no prefix rule, only the exact line', (line) => {
    expect(commandPrefix(onlyPart(line))).toHaveProperty('none');
    const offer = evaluate(line, []).allowAlways;
    if (offer && 'rule' in offer) expect(offer.rule).toBe(`run_command(${line})`);
  });

  it('offers no prefix on any subcommand of a runner, which would cover its running one (`pdm *` covers `pdm run rm`)', () => {
    for (const line of ['pdm install', 'hatch build', 'rye sync', 'mise install', 'direnv allow', 'nix build']) {
      const prefix = commandPrefix(onlyPart(line));
      if ('words' in prefix) expect(prefix.words.length, line).toBeGreaterThan(1);
    }
  });

  // The program a runner runs by name keeps its exec-options: a prefix for it never covers them.
  const throughRunner: Array<[allow: string, line: string]> = [
    ['run_command(uvx pytest *)', 'uvx pytest -p evil_plugin tests'],
    ['run_command(bundle exec make *)', "bundle exec make --eval='$(shell id)'"],
    ['run_command(bun run vitest *)', 'bun run vitest --reporter=/tmp/r.js'],
    ['run_command(conda run pytest *)', 'conda run pytest --basetemp=/home/u'],
    ['run_command(poetry run pytest *)', 'poetry run pytest -p evil_plugin'],
  ];
  it.each(throughRunner)('%s does not cover `%s`', (allow, line) => {
    expect(execOptionIn(onlyPart(line)), line).toBeDefined();
    expect(evaluate(line, [rule(allow)]).action).toBe('ask');
  });

  it('still reads the options of a runner that builds what it runs (go run is no program name)', () => {
    expect(execOptionIn(onlyPart("go run -exec='sh -c id' ./cmd/tool"))?.why).toContain('go');
    expect(execOptionIn(onlyPart('go run -exec=/tmp/x make'))?.why).toContain('-exec');
  });

  it("counts a runner's own exec-options wherever they stand before --, as well as the program's", () => {
    for (const line of ['npm exec eslint --script-shell=/tmp/x .', 'npm exec --node-options=--require=/tmp/x.js eslint .']) {
      expect(execOptionIn(onlyPart(line)), line).toBeDefined();
      expect(evaluate(line, [rule('run_command(npm exec eslint *)')]).action, line).toBe('ask');
    }
    expect(evaluate('pnpm vitest run --dir /tmp/other', [rule('run_command(pnpm vitest *)')]).action).toBe('ask');
    expect(execOptionIn(onlyPart('npm exec -- eslint --script-shell=/tmp/x .'))).toBeUndefined();
  });

  it('keeps benign lines through runners covered by their prefix', () => {
    for (const [allow, line] of [
      ['run_command(bundle exec rake *)', 'bundle exec rake test'],
      ['run_command(uvx ruff *)', 'uvx ruff check .'],
      ['run_command(bun run test *)', 'bun run test'],
      ['run_command(npx vitest *)', 'npx vitest run'],
    ] as const) {
      expect(evaluate(line, [rule(allow)]).action, line).toBe('allow');
    }
  });
});

describe('wrappers: one table for what each one is', () => {
  /** The words of the riskiest effect of the line's one part (`exec` and `builtin` make a line unpinnable, yet it is described). */
  function shown(line: string): string {
    const [part, ...rest] = analyzeCommand(line, { cwd: root, workspaceRoot: root }).commands;
    expect(rest, line).toHaveLength(0);
    return describeParts([part!])[0]!.effects[0]!.text;
  }

  it('names in the request every wrapper a rule must name, and only those', () => {
    expect(shown('env FOO=1 rm -f out.txt')).toBe('rm deletes out.txt (through env)');
    expect(shown('builtin kill 1234')).toBe('kill runs code (through builtin)');
    expect(shown('sudo rm -f out.txt')).toBe('rm deletes out.txt (through sudo)');
    expect(shown('xargs rm -f out.txt')).toBe('rm deletes out.txt (through xargs)');
    expect(shown('setsid rm -f out.txt')).toBe('rm deletes out.txt');
    expect(shown('exec rm -f out.txt')).toBe('rm deletes out.txt');
    expect(shown('timeout 5 nice -n 5 rm -f out.txt')).toBe('rm deletes out.txt');
  });

  it('lets the rule for a program cover it through a wrapper that only limits or detaches it, and no other', () => {
    const allowRm = [rule('run_command(rm *)')];
    for (const line of ['setsid rm -f out.txt', 'timeout 5 rm -f out.txt', 'stdbuf -o0 rm -f out.txt', 'nohup rm -f out.txt']) {
      expect(evaluate(line, allowRm).action, line).toBe('allow');
    }
    for (const line of ['env FOO=1 rm -f out.txt', 'sudo rm -f out.txt', 'xargs rm -f out.txt']) {
      expect(evaluate(line, allowRm).action, line).toBe('ask');
    }
    // exec and builtin make the line unpinnable besides: it asks whatever the rules.
    expect(evaluate('exec rm -f out.txt', allowRm).action).toBe('ask');
    expect(evaluate('builtin kill 1234', [rule('run_command(kill *)'), rule('run_command(builtin *)')]).action).toBe('ask');
  });

  it('finds the exec-option of the program inside any wrapper', () => {
    for (const line of [
      "env FOO=1 make --eval='$(shell id)'",
      "setsid git -c core.pager='sh -c id' log",
      "exec git -c core.pager='sh -c id' log",
      "builtin command git -c core.pager='sh -c id' log",
    ]) {
      const analysis = analyzeCommand(line, { cwd: root, workspaceRoot: root });
      expect(
        analysis.commands.some((part) => execOptionIn(part) !== undefined),
        line,
      ).toBe(true);
    }
  });
});

describe('other facts the shell folder once kept twice', () => {
  it("judges tar by the exec-option table's entry: the old style `tar cIf` runs a program", () => {
    expect(onlyPart("tar cIf 'sh -c id' /tmp/x.tar src").mayReachNetwork).toBe(true);
    expect(onlyPart("tar -c --use-compress-prog='sh -c id' -f x.tar src").mayReachNetwork).toBe(true);
    expect(onlyPart('tar czf out.tgz src').mayReachNetwork).toBe(false);
    expect(onlyPart('tar -xf a.tar').mayReachNetwork).toBe(false);
  });

  it('says a publishing subcommand sends, wherever the engine counts it as sending', () => {
    for (const [line, text] of [
      ['cargo publish', 'cargo publish sends what the project holds to a server'],
      ['twine upload dist/x.whl', 'twine upload sends what the project holds to a server'],
      ['podman push img', 'podman push sends what the project holds to a server'],
    ] as const) {
      const effect = describeParts([onlyPart(line)])[0]!.effects[0]!;
      expect(effect, line).toEqual({ risk: 'sends', text });
    }
    expect(describeParts([onlyPart('git push origin main')])[0]!.effects[0]!.text).toBe('git push sends commits to origin');
  });

  it('offers no prefix for a program that sends whatever it is given, saying so', () => {
    for (const line of ['scp a.txt host:', 'rsync -a src host:dst', 'ssh host', 'nc host 80', 'socat - TCP:host:80']) {
      const prefix = commandPrefix(onlyPart(line));
      expect(prefix, line).toHaveProperty('none');
      expect('none' in prefix && prefix.none, line).toMatch(/another machine|both ways|copies files/);
    }
  });
});

describe('writes to a place only known when it runs: one table for where a program writes', () => {
  const members: Array<[line: string, allowedBy: string]> = [
    ['echo x > $OUT', 'run_command(echo *)'],
    ['npm test > "$D/x"', 'run_command(npm test *)'],
    ['git log >> "$(mktemp)"', 'run_command(git log *)'],
    ['cat <<EOF > "$P"\nexport PATH=/tmp/evil:$PATH\nEOF', 'run_command(cat *)'],
    ['tee "$F" < notes.txt', 'run_command(tee *)'],
    ['touch "$F"', 'run_command(touch *)'],
    ['cp a.txt "$DEST"', 'run_command(cp *)'],
    ['cp --target-directory="$D" a.txt', 'run_command(cp *)'],
    ['dd if=a.img of=$X', 'run_command(dd *)'],
    ['sed -i s/a/b/ "$F"', 'run_command(sed *)'],
  ];

  it.each(members)('`%s` is offered Allow once only, saying why', (line) => {
    const verdict = evaluate(line, []);
    expect(verdict.action).toBe('ask');
    expect(verdict.allowAlways).toEqual({
      refused: expect.stringMatching(/^the line writes to a place only known when it runs \(.+\); allow it once/),
    });
  });

  it.each(members)('`%s` asks even under an allow rule written by hand, by its words or as the whole line', (line, prefix) => {
    for (const mode of ['ask', 'auto-edit'] as PermissionMode[]) {
      for (const allow of [prefix, `run_command(${line})`]) {
        const verdict = evaluate(line, [rule(allow)], mode);
        expect(verdict.action, `${mode} ${allow}`).toBe('ask');
        expect(verdict.reason, `${mode} ${allow}`).toContain('a place only known when it runs');
      }
    }
  });

  it('leaves the write to the sandbox in auto mode, as for a redirection, unless a deny or ask rule names write paths', () => {
    const inAuto = (line: string, rules: PermissionRule[]) => evaluate(line, rules, 'auto', true);
    for (const line of ['tee "$F" < notes.txt', 'cp a.txt "$DEST"', 'echo x > "$D/x"']) {
      expect(inAuto(line, [rule('run_command(tee *)'), rule('run_command(cp *)')]).action, line).toBe('allow');
      expect(inAuto(line, [rule('edit_file(**/.bashrc)', 'deny')]).action, line).toBe('ask');
    }
  });

  it('names, in the request, the program writing each such place', () => {
    for (const [line, text] of [
      ['tee "$F" < notes.txt', 'tee writes "$F"'],
      ['cp a.txt "$DEST"', 'cp copies a.txt to "$DEST"'],
      ['dd if=a.img of=$X', 'dd writes $X'],
    ] as const) {
      expect(
        describeParts([onlyPart(line)])[0]!.effects.map((e) => e.text),
        line,
      ).toContain(text);
    }
  });

  it.each([
    'echo hi > out.txt',
    'npm test > log.txt',
    'cat a | tee b.txt',
    'echo $HOME > out.txt',
    'cp -- "$SRC" dest.txt',
    'tee ~/notes.txt < a.txt',
  ])('`%s`, whose every write is spelled out, keeps Allow always, and the grant allows it', (line) => {
    const offer = evaluate(line, []).allowAlways;
    expect(offer).toHaveProperty('rule');
    expect(evaluate(line, [rule((offer as { rule: string }).rule)]).action).toBe('allow');
  });

  it('`echo $HOME`, which writes nothing, needs no rule at all', () => {
    expect(evaluate('echo $HOME', []).action).toBe('allow');
  });
});

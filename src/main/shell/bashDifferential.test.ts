import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, initShellParser } from './analyzeCommand';

/**
 * The analysis against real bash: generated command lines run under bash with a PATH holding only
 * stub programs that log their own name. Every stub bash ran must be among the commands the
 * analysis found, unless the analysis said the line cannot be pinned down. A stub that runs
 * unlisted is a command smuggled past the analysis.
 *
 * Each stub name is used once per line (s0, s1, ...), so "listed" means this very occurrence.
 */

let root: string;
let bin: string;
let runs = 0;
const STUBS = 40;

beforeAll(async () => {
  await initShellParser();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-shell-diff-'));
  bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  fs.mkdirSync(path.join(root, 'ws'));
  for (let i = 0; i < STUBS; i++) {
    const stub = path.join(bin, `s${i}`);
    fs.writeFileSync(stub, '#!/bin/sh\necho "${0##*/}" >> "$STUB_LOG"\n');
    fs.chmodSync(stub, 0o755);
  }
  // Real tools the lines may use as wrappers; everything else is not found.
  for (const tool of ['bash', 'sh', 'env', 'timeout', 'nice', 'nohup', 'xargs', 'find', 'cat']) {
    const found = ['/usr/bin', '/bin'].map((dir) => path.join(dir, tool)).find((file) => fs.existsSync(file));
    if (found) fs.symlinkSync(found, path.join(bin, tool));
  }
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** Runs a line under bash (as run_command does: eval of the text) and returns the stubs that ran. */
function runUnderBash(line: string): string[] {
  // A fresh log per run: a stub left running in the background must not write into the next one.
  const log = path.join(root, `ran-${runs++}.log`);
  fs.writeFileSync(log, '');
  spawnSync('/bin/bash', ['-c', '__cmd=$1; set --; (eval "$__cmd")', 'bash', line], {
    cwd: path.join(root, 'ws'),
    env: { PATH: bin, STUB_LOG: log, HOME: root },
    input: '',
    timeout: 5000,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

function listed(line: string): { names: Set<string>; unpinnable: string | undefined } {
  const analysis = analyzeCommand(line, { cwd: path.join(root, 'ws'), workspaceRoot: path.join(root, 'ws'), pathEnv: bin });
  const names = new Set<string>();
  for (const command of analysis.commands) if (command.argv[0]) names.add(path.basename(command.argv[0]));
  return { names, unpinnable: analysis.unpinnable };
}

function expectNothingSmuggled(line: string): void {
  const ran = runUnderBash(line);
  const { names, unpinnable } = listed(line);
  if (unpinnable) return;
  const smuggled = ran.filter((name) => !names.has(name));
  expect(smuggled, `bash ran ${smuggled.join(', ')} from ${JSON.stringify(line)}, which the analysis did not list`).toEqual([]);
}

/** A statement built from fragments, each using fresh stub names from `next`. */
type Fragment = (next: () => string, inner: () => string) => string;

const words: Fragment[] = [
  () => 'x',
  () => '"a b"',
  () => "'c d'",
  () => '$HOME',
  () => '"$HOME"',
  () => "$'e\\tf'",
  (_next, inner) => `$(${inner()})`,
  (_next, inner) => `"$(${inner()})"`,
  (_next, inner) => `\`${inner().replace(/[`\\$]/g, '\\$&')}\``,
  (_next, inner) => `<(${inner()})`,
  (_next, inner) => `\${U:-$(${inner()})}`,
  (_next, inner) => `\${#U}$(${inner()})`,
  () => '$((1 + 2))',
  () => '{1..2}',
  () => '*.none',
  () => '# comment',
  () => 'a#b',
  () => '\\;',
  () => '$[1+1]',
  (_next, inner) => `"\${U//x/$(${inner()})}"`,
  (_next, inner) => `"$(echo "$(${inner()})")"`,
  (_next, inner) => `$( (${inner()}) )`,
  (_next, inner) => `"\`${inner()}\`"`,
  (_next, inner) => `$(case v in (v) ${inner()};; esac)`,
];

function statementArbitrary(): fc.Arbitrary<(next: () => string) => string> {
  const { statement } = fc.letrec<{ statement: (next: () => string) => string; simple: (next: () => string) => string }>((tie) => ({
    simple: fc
      .tuple(fc.array(fc.nat(words.length - 1), { maxLength: 3 }), fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7), fc.nat(1000))
      .map(([argChoices, redirect, seed]) => (next: () => string) => {
        const name = next();
        const head = name.slice(0, 1);
        const tail = name.slice(1);
        const spellings = [
          name,
          `'${name}'`,
          `"${name}"`,
          `${head}''${tail}`,
          `\\${name}`,
          `$'\\x73'${tail}`,
          `${head}\\\n${tail}`,
          `'${head}'\\${tail}`,
          `$'${head}'\\${tail}`,
          `"${head}"\\${tail}`,
          `X='a'\\b ${name}`,
        ];
        const program = spellings[seed % spellings.length]!;
        const inner = (): string => `${next()}`;
        const args = argChoices.map((choice) => words[choice]!(next, inner));
        const redirects = [
          '',
          ' > /dev/null',
          ' 2>&1',
          ' < /dev/null',
          ` <<< "$(${next()})"`,
          ' >/dev/null 2>&1',
          ' | cat',
          ` && ${next()}`,
        ][redirect]!;
        return `${program} ${args.join(' ')}${redirects}`;
      }),
    statement: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('simple'),
      fc.tuple(tie('statement'), fc.constantFrom(' && ', ' || ', '; ', ' | ', ' & ', '\n', ' |& '), tie('statement')).map(
        ([a, op, b]) =>
          (next: () => string) =>
            `${a(next)}${op}${b(next)}`,
      ),
      tie('statement').map((s) => (next: () => string) => `( ${s(next)} )`),
      tie('statement').map((s) => (next: () => string) => `{ ${s(next)}; }`),
      fc.tuple(tie('statement'), tie('statement')).map(
        ([c, b]) =>
          (next: () => string) =>
            `if ${c(next)}; then ${b(next)}; else ${next()}; fi`,
      ),
      tie('statement').map((s) => (next: () => string) => `for v in 1 2; do ${s(next)}; done`),
      tie('statement').map((s) => (next: () => string) => `while ${next()}; false; do ${s(next)}; done`),
      tie('statement').map((s) => (next: () => string) => `case v in v) ${s(next)} ;; *) ${next()} ;; esac`),
      tie('statement').map((s) => (next: () => string) => `fn() { ${s(next)}; }; fn`),
      tie('statement').map((s) => (next: () => string) => `bash -c '${s(next).replace(/'/g, "'\\''")}'`),
      tie('statement').map((s) => (next: () => string) => `sh -c "${s(next).replace(/["\\$`]/g, '\\$&')}"`),
      tie('statement').map((s) => (next: () => string) => `cat <<EOF\n$(${s(next)})\nEOF`),
      tie('statement').map((s) => (next: () => string) => `cat <<'EOF'\n$(${next()})\nEOF\n${s(next)}`),
      tie('statement').map((s) => (next: () => string) => `V=$(${s(next)}); echo "$V"`),
      tie('statement').map((s) => (next: () => string) => `! ${s(next)}`),
      tie('statement').map((s) => (next: () => string) => `echo "$(${s(next)})" > /dev/null`),
      fc.constant((next: () => string) => `timeout 5 ${next()}`),
      fc.constant((next: () => string) => `nice -n 1 ${next()}`),
      fc.constant((next: () => string) => `env A=1 ${next()}`),
      fc.constant((next: () => string) => `xargs ${next()} < /dev/null`),
      fc.constant((next: () => string) => `echo . | xargs -I{} ${next()} {}`),
      fc.constant((next: () => string) => `find . -maxdepth 0 -exec ${next()} {} \\;`),
      fc.constant((next: () => string) => `time ${next()}`),
      fc.constant((next: () => string) => `command ${next()}`),
      fc.constant((next: () => string) => `nohup ${next()} > /dev/null 2>&1`),
      fc.constant((next: () => string) => `trap '${next()}' EXIT`),
      fc.constant((next: () => string) => `${next()} #; ${next()}`),
      fc.constant((next: () => string) => `[[ -n x ]] && ${next()}`),
      fc.constant((next: () => string) => `(( 1 + 1 )) && ${next()}`),
      fc.constant((next: () => string) => `function fx { ${next()}; }; fx`),
      fc.constant((next: () => string) => `${next()} &> /dev/null`),
      fc.constant((next: () => string) => `cat <<EOF\n\\$(${next()}) \\\n$(${next()})\nEOF`),
      fc.constant((next: () => string) => `cat <<EOF\n$(cat <(${next()}))\nEOF`),
      fc.constant((next: () => string) => `case x in (x) ${next()};; esac`),
      fc.constant((next: () => string) => `${next()} <<< $'\\'' $(${next()})'`),
      fc.constant((next: () => string) => `echo "$(${next()}" )")`),
      fc.constant((next: () => string) => `select v in 1; do ${next()}; break; done < /dev/null`),
      fc.constant((next: () => string) => `until ${next()}; true; do :; done`),
    ),
  }));
  return statement;
}

function build(make: (next: () => string) => string): string {
  let counter = 0;
  return make(() => `s${counter++ % STUBS}`);
}

describe('analysis against real bash', () => {
  it('lists every command bash runs in hand-written lines that hide commands', () => {
    const lines = [
      's0; s1 && s2 || s3 | s4 & s5',
      'echo $(s0) `s1` "$(s2)" <(s3) >(s4)',
      'echo `echo \\`s0\\``',
      'echo ${U:-$(s0)} ${U:=$(s1)} ${U/x/$(s2)}',
      'cat <<EOF\n$(s0)\nEOF',
      'cat <<-EOF\n\t$(s0)\n\tEOF\ns1',
      'cat <<EOF | s0\nbody\nEOF',
      'cat <<EOF && s0\nbody\nEOF',
      'if s0; then s1; elif s2; then s3; else s4; fi',
      'for i in $(s0); do s1; done',
      'case $(s0) in x) s1;; esac',
      'f() { s0; }; f',
      'bash -c "s0; s1"',
      "sh -c 's0 | s1'",
      'bash -c \'bash -c "s0"\'',
      'timeout 5 s0; nice -n 1 s1; nohup s2 >/dev/null 2>&1; env A=1 s3; command s4; time s5',
      'echo . | xargs s0',
      'echo . | xargs -I{} s0 {}',
      'find . -maxdepth 0 -exec s0 {} \\; -exec s1 {} +',
      "trap 's0' EXIT",
      "$'\\x73'0",
      "s''0",
      '"s0"',
      's\\\n0',
      'x=$(s0) y=`s1`',
      'declare z=$(s0)',
      'export w=$(s0); local 2>/dev/null q=$(s1)',
      '[[ $(s0) == x ]]',
      'echo $(( $(s0) ))',
      '(( $(s0) )) ',
      's0 > $(s1)',
      's0 < <(s1)',
      'exec 3< <(s0)',
      'read -r v <<< "$(s0)"',
      'echo "${U:-`s0`}"',
      'a=(1 $(s0))',
      '{ s0; } 2>/dev/null',
      '(s0) | s1',
      '! s0',
      's0 |& s1',
      'coproc s0',
      'echo ${U#$(s0)}',
      'echo "$(echo "$(s0)")"',
      "echo $'\\'' $(s0)",
      'echo "\\$(s0)"',
      "echo '$(s0)'",
      'echo \\$(s0)',
      "$'s'\\0 x",
      'cat <<E\nE \n$(s0)\nE',
      'cat <<-E\n\t$(s0)\n\tE\ns1',
      'cat <<E1 <<E2\nE1\n$(s0)\nE2\ns1',
      "cat <<'E'\n$(s0)\nE\ns1",
      'cat <<\\E\n$(s0)\nE\ns1',
      'cat <<E"x"\n$(s0)\nEx\ns1',
      'echo "$(cat <<E\n$(s0)\nE\n)"',
      'x=$(cat <<E\n$(s0)\nE\n); s1',
      'echo a#$(s0) #$(s1)',
      'case x in x) s0 ;& y) s1 ;;& *) s2 ;; esac',
      '[[ -f <(s0) ]]',
      'time s0 | s1',
      '{ s0; } & s1',
      'for ((i=$(s0); i<1; i++)); do s1; done',
      'echo "`echo \\"$(s0)\\"`"',
      'echo $(s0 \\\n; s1)',
      'echo $((s0) )',
      'echo $((s0);s1)',
      'echo $( (s0) )',
      'a[$(s0)]=1',
      'echo $(< /dev/null) $(s0)',
      ': $(s0) & wait',
      'f() { s0; }; declare -f f >/dev/null; f',
      's0 2>&1 | s1 |& s2',
      'if ! s0; then :; fi; while ! s1; do break; done',
      'echo {a,$(s0)}',
      "X='a'\\b s0",
      's0 > /dev/null s1',
      "echo $'\\\\' ; s0 ; echo $'b'",
      "echo $'\\\\'\\' ; s0",
      // Lists after a cd (the analysis tracks where the shell is through && and ;).
      'cd . && s0 && s1',
      'cd /nonexistent; s0 && s1',
      'cd . || s0; s1',
      's0 && cd . && s1 || s2',
      '(cd /; s0) && s1',
      'cd . && { s0; s1; } || s2',
      // Wrappers in a row, and find's other ways to run a program.
      'timeout 5 env A=1 nice s0',
      'find . -maxdepth 0 -execdir s0 {} \\;',
      'echo . | xargs -0 s0',
      'nohup timeout 5 s0 >/dev/null 2>&1; s1',
    ];
    for (const line of lines) expectNothingSmuggled(line);
  });

  it('lists every command bash runs in generated lines', () => {
    fc.assert(
      fc.property(statementArbitrary(), (make) => {
        expectNothingSmuggled(build(make));
      }),
      { numRuns: Number(process.env.DIFF_RUNS ?? 250), ...(process.env.DIFF_RUNS ? {} : { seed: 20260101 }) },
    );
  }, 600_000);
});

describe('what bash refuses to parse, against real bash', () => {
  // Lines tree-sitter reads without complaint but bash rejects: never pinned down, so never allowed.
  const refused = [
    'ls ;; pwd',
    'ls ;& pwd',
    'ls ;;& pwd',
    '(ls ;; pwd)',
    '{ ls ;; }',
    'ls && pwd ;;',
    'echo a; ;; echo b',
    'if ls; then pwd ;; fi',
  ];

  it.each(refused)('%s is refused by bash and cannot be pinned down', (line) => {
    const checked = spawnSync('/bin/bash', ['-n', '-c', line], { encoding: 'utf8' });
    expect(checked.status, `bash -n accepted ${JSON.stringify(line)}`).not.toBe(0);
    expect(listed(line).unpinnable).toBeDefined();
  });

  it('still reads a case statement, whose terminators bash accepts', () => {
    for (const line of [
      'case x in a) ls ;; b) pwd ;; esac',
      'case x in (a) ls;; esac',
      'case $1 in\n  -h) echo help ;;\n  *) ls ;;\nesac',
    ]) {
      expect(spawnSync('/bin/bash', ['-n', '-c', line]).status).toBe(0);
      expect(listed(line).unpinnable).toBeUndefined();
    }
  });
});

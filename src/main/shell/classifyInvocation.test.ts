import { describe, expect, it } from 'vitest';
import { classifyInvocation, isOnReadOnlyList, type InvocationContext } from './classifyInvocation';
import { literalWord, type Word } from './readWord';

const inside: InvocationContext = { cwdInWorkspace: true, directoryInWorkspace: (dir) => !dir.startsWith('/') && !dir.startsWith('..') };

/** Classifies a command written as plain words (each literal). */
function classify(command: string, context: InvocationContext = inside): { readOnly: boolean; local: boolean } {
  const [name, ...args] = command.split(' ');
  const { readOnly, local } = classifyInvocation(name!, args.map(literalWord), context);
  return { readOnly, local };
}

const pattern = (text: string): Word => ({ text, kind: 'pattern', splits: true, source: text });
const dynamic = (text: string): Word => ({ text, kind: 'dynamic', splits: true, source: text });
const quoted = (text: string): Word => ({ text, kind: 'dynamic', splits: false, source: text });

describe('the read-only list', () => {
  it.each([
    'ls -la',
    'cat a',
    'head -n 5 f',
    'tail -f log',
    'wc -l f',
    'grep -rn x .',
    'egrep x f',
    'fgrep x f',
    'rg -n foo',
    'rg Cargo.toml -n',
    'pwd',
    'echo hi',
    'printf %s x',
    'true',
    'false',
    'which node',
    'type ls',
    'file f',
    'stat f',
    'du -sh .',
    'df -h',
    'tree -L 2',
    'nl -nrz Cargo.toml',
    'tac Cargo.toml',
    'sort -k 2 -n f',
    'uniq -c f',
    'cut -d, -f1 f',
    'tr a b',
    'diff a b',
    'cmp a b',
    'comm a b',
    'basename a/b',
    'dirname a/b',
    'realpath x',
    'readlink -f x',
    'date',
    'date +%s',
    'date -u -d yesterday +%F',
    'uname -a',
    'whoami',
    'id -u',
    'env',
    'printenv HOME',
    'seq 1 10',
    'find . -name x -type f',
    'sed -n 1,5p f',
    'sed s/a/b/g f',
    'base64 f',
    'base64 -d f',
    'jq . f.json',
    'git status',
    'git diff HEAD',
    'git log -p -1',
    'git show HEAD',
    'git branch',
    'git branch --show-current',
    'git rev-parse HEAD',
    'git ls-files',
    'git blame f',
    'git grep -n x',
    'git describe --tags',
    'git remote -v',
    'command -v ls',
    'cd src',
    'test -f x',
    '[ -f x ]',
    // Builtins that only change the shell's own state; the analysis refuses their dangerous forms first.
    'read -r line',
    'set -euo pipefail',
    'shopt -s nullglob',
    'shift',
    'export A=1',
    'unset A',
    'trap - EXIT',
    'let i++',
  ])('%s reads only', (command) => {
    expect(classify(command)).toEqual({ readOnly: true, local: true });
  });

  it.each([
    ['sort -o out f', 'writes the output file'],
    ['sort -uo out f', '-o inside a cluster'],
    ['sort --output=out f', 'long form'],
    ['sort --out=out f', 'GNU abbreviation of --output'],
    ['sort --compress-program=sh f', 'runs a program'],
    ['uniq in out', 'the second operand is written'],
    ['date -s now', 'sets the clock'],
    ['date --set=now', 'sets the clock'],
    ['date 010100002030', 'an operand that is not +FORMAT sets the clock'],
    ['file -C -m magic', 'compiles a magic file'],
    ['tree -o out', 'writes the listing'],
    ['find . -delete', 'deletes'],
    ['find . -exec rm {} ;', 'runs a command'],
    ['find . -execdir python3 {} ;', 'runs a command'],
    ['find . -ok rm {} ;', 'runs a command'],
    ['find . -okdir rm {} ;', 'runs a command'],
    ['find . -fls /etc/passwd', 'writes a file'],
    ['find . -fprint /etc/passwd', 'writes a file'],
    ['find . -fprint0 /etc/passwd', 'writes a file'],
    ['find . -fprintf /root/suid.txt x', 'writes a file'],
    ['sed -i s/a/b/ f', 'edits in place'],
    ['sed -i.bak s/a/b/ f', 'edits in place'],
    ['sed --in-place s/a/b/ f', 'edits in place'],
    ['sed -n 1w/tmp/x f', 'writes a file'],
    ['sed s/a/b/e f', 'runs a command'],
    ['sed -f script f', 'a script from a file'],
    ['sed -n xp f', 'a script this parser cannot read'],
    ['base64 -o out.bin', 'writes a file'],
    ['base64 --output out.bin', 'writes a file'],
    ['base64 --output=out.bin', 'writes a file'],
    ['base64 -ob64.txt', 'attached -o'],
    ['rg --pre pwned files', 'runs a preprocessor'],
    ['rg --pre=pwned files', 'runs a preprocessor'],
    ['rg --pre-glob *.gz x', 'selects files for the preprocessor'],
    ['rg --hostname-bin pwned files', 'runs a program'],
    ['rg --hostname-bin=pwned files', 'runs a program'],
    ['rg -z x', 'runs decompressors'],
    ['rg --search-zip x', 'runs decompressors'],
    ['rg -iz x', '-z inside a cluster'],
    ['printf -v PATH x', 'assigns a variable'],
    ['cd /tmp', 'leaves the workspace'],
    ['cd ..', 'leaves the workspace'],
    ['cd', 'goes home'],
    ['cd -', 'goes to the previous directory'],
    ['command ls', 'a wrapper, analysed as the command it runs'],
  ])('%s is not read-only: %s', (command) => {
    expect(classify(command).readOnly).toBe(false);
  });

  it('keeps an -e in sort or rg from hiding a value', () => {
    expect(classify('sort -ko f').readOnly).toBe(true);
    expect(classify('rg -ez x').readOnly).toBe(true);
  });

  it('accepts arguments only known at run time for programs none of whose options read, write or run anything', () => {
    expect(classifyInvocation('cat', [dynamic('$f'), pattern('*.txt')], inside)).toMatchObject({ readOnly: true, local: true });
    expect(classifyInvocation('head', [literalWord('-n'), dynamic('$n'), quoted('"$f"')], inside).readOnly).toBe(true);
    // grep -f FILE reads patterns from a file: `$x` could be that option.
    expect(classifyInvocation('grep', [literalWord('-r'), dynamic('$x')], inside).readOnly).toBe(false);
    expect(classifyInvocation('grep', [literalWord('-r'), literalWord('-e'), quoted('"$x"'), literalWord('.')], inside).readOnly).toBe(
      true,
    );
    expect(classifyInvocation('grep', [literalWord('-r'), literalWord('--'), dynamic('$x')], inside).readOnly).toBe(true);
  });

  it('refuses arguments only known at run time for programs with options that write or run', () => {
    for (const name of ['sort', 'rg', 'base64', 'file', 'tree', 'uniq', 'date', 'sed', 'git', 'cd', 'env']) {
      expect(classifyInvocation(name, [dynamic('$x')], inside).readOnly, name).toBe(false);
    }
    expect(classifyInvocation('rg', [literalWord('foo'), pattern('*')], inside).readOnly).toBe(false);
    expect(classifyInvocation('printf', [dynamic('$fmt')], inside).readOnly).toBe(false);
  });

  it('lets find take patterns that cannot become one of its dangerous primaries', () => {
    expect(classifyInvocation('find', [literalWord('.'), literalWord('-name'), pattern('*.py')], inside).readOnly).toBe(true);
    expect(classifyInvocation('find', [pattern('*')], inside).readOnly).toBe(false);
    expect(classifyInvocation('find', [pattern('-de*')], inside).readOnly).toBe(false);
    expect(classifyInvocation('find', [literalWord('.'), dynamic('$expr')], inside).readOnly).toBe(false);
  });

  it('knows which programs are on the list', () => {
    expect(isOnReadOnlyList('ls')).toBe(true);
    expect(isOnReadOnlyList('git')).toBe(true);
    expect(isOnReadOnlyList('rm')).toBe(false);
    expect(isOnReadOnlyList('node')).toBe(false);
  });
});

describe('what stays local', () => {
  it.each([
    'rm -rf build',
    'mkdir -p a',
    'cp a b',
    'mv a b',
    'touch x',
    'chmod +x f',
    'ln -s a b',
    'tee out',
    'tar -czf a.tgz src',
    'tsc -p .',
    'sed -i s/a/b/ f',
    'sort -o out f',
    'git init',
    'git clean -fd',
    'kill 1',
    'umask 077',
  ])('%s', (command) => {
    expect(classify(command)).toEqual({ readOnly: false, local: true });
  });

  it.each([
    'curl x',
    'wget x',
    'ssh h',
    'node app.js',
    'python3 x.py',
    'bash x.sh',
    'npm test',
    'npm install',
    'make',
    'cargo check',
    'eslint .',
    'prettier -w .',
    'jest',
    'vitest',
    'awk {print} f',
    'tar -xf host:archive.tar',
    'tar --to-command=sh -xf a.tar',
    'rg --pre=x y',
    'sort --compress-program=gzip f',
    'sed s/x/y/e f',
    'git push',
    'git fetch',
    'git commit -m x',
    'git add .',
    'unknown-tool',
  ])('%s may reach the network (or runs code that may)', (command) => {
    expect(classify(command).local).toBe(false);
  });
});

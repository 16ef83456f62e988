import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandAnalysis, SimpleCommand } from './commandAnalysis';
import { createShellTestbed, type ShellTestbed } from '../../../test/support/shellTestbed';

// What the analysis finds a line does besides running programs: the files its redirections write and
// read, which parts only read (and where their programs resolve), and what may reach the network.

let bed: ShellTestbed;

beforeAll(async () => {
  bed = await createShellTestbed();
});

afterAll(() => {
  bed.dispose();
});

const analyze = (command: string): CommandAnalysis => bed.analyze(command);
const only = (command: string): SimpleCommand => bed.only(command);

const expectUnpinnable = (command: string, why?: RegExp): CommandAnalysis => bed.expectUnpinnable(command, why);

const readsOnly = (command: string): boolean => {
  const analysis = analyze(command);
  return !analysis.unpinnable && analysis.commands.length > 0 && analysis.commands.every((c) => c.readOnly);
};

describe('redirections', () => {
  it('records writes with >, >>, &>, &>>, >|, >& file, and the group they apply to', () => {
    expect(only('ls > a').writesTo).toEqual(['a']);
    expect(only('ls >> a').writesTo).toEqual(['a']);
    expect(only('ls &> a').writesTo).toEqual(['a']);
    expect(only('ls &>> a').writesTo).toEqual(['a']);
    expect(only('ls >| a').writesTo).toEqual(['a']);
    expect(only('ls >& a').writesTo).toEqual(['a']);
    expect(only('ls 2> error.log').writesTo).toEqual(['error.log']);
    expect(analyze('{ ls; pwd; } > out').commands.map((c) => c.writesTo)).toEqual([['out'], ['out']]);
    expect(analyze('(ls) >> log').commands[0]!.writesTo).toEqual(['log']);
  });

  it('gives a redirection after `a && b` to b alone, as bash does (the parser hangs it on the whole list)', () => {
    expect(analyze('rm -rf src && echo edited > out.txt').commands.map((c) => [c.argv[0], c.writesTo])).toEqual([
      ['rm', []],
      ['echo', ['out.txt']],
    ]);
    expect(analyze('a || b && c > f').commands.map((c) => c.writesTo)).toEqual([[], [], ['f']]);
    expect(analyze('cd sub && cat < in.txt').commands.map((c) => c.readsFrom ?? null)).toEqual([null, 'in.txt']);
    // A group is still written by every command in it; a pipeline's last part keeps it on the whole pipeline.
    expect(analyze('{ rm x && echo b; } > out').commands.map((c) => c.writesTo)).toEqual([['out'], ['out']]);
    expect(analyze('a && b | c > f').commands.map((c) => c.writesTo)).toEqual([[], ['f'], ['f']]);
  });

  it('does not count duplications, /dev/null, standard streams, reads or here-strings as writes', () => {
    for (const command of [
      'ls 2>&1',
      'ls > /dev/null 2>&1',
      'ls 2>/dev/null',
      'ls &>/dev/null',
      'ls >&2',
      'ls 2>&-',
      'ls >/dev/stderr',
      'cat < f',
      'cat <<< "hello"',
      'exec 3<&0',
    ]) {
      expect(
        analyze(command).commands.flatMap((c) => c.writesTo),
        command,
      ).toEqual([]);
    }
  });

  it('records the target of <> (which the parser cannot read, so the line is refused too)', () => {
    const analysis = expectUnpinnable('cat <> data.bin', /syntax/);
    expect(analysis.commands.flatMap((c) => c.writesTo)).toEqual(['data.bin']);
  });

  it('gives a write target only known when it runs as written', () => {
    expect(only('ls > "$out"').writesTo).toEqual(['"$out"']);
  });

  it('finds a redirection alone inside a substitution: $(> file) empties the file, $(< file) reads it', () => {
    const writes = analyze('echo $(> out.txt) "$(>> log.txt)"').commands.flatMap((c) => c.writesTo);
    expect(writes).toEqual(['out.txt', 'log.txt']);
    expect(analyze('echo "$(< notes.txt)"').reads?.map((r) => r.shown)).toEqual(['notes.txt']);
  });

  it('never calls a command that writes read-only', () => {
    expect(only('ls > out.txt').readOnly).toBe(false);
    expect(only('echo "hello" > file.txt')).toMatchObject({ argv: ['echo', 'hello'], writesTo: ['file.txt'], readOnly: false });
  });
});

describe('read-only commands and where programs resolve', () => {
  it('calls listed programs found on a system PATH read-only', () => {
    for (const command of [
      'ls -la',
      'cat a b',
      'grep -rn x .',
      'rg -n foo',
      'wc -l f',
      'head -5 f',
      'git status',
      'git log --oneline -5',
      'jq . f.json',
      'pwd',
      'echo hi',
      'date +%s',
    ]) {
      expect(readsOnly(command), command).toBe(true);
    }
  });

  it('never calls a program in the workspace read-only, whether named by path or found on PATH', () => {
    bed.addWorkspaceProgram('cat');
    bed.addWorkspaceProgram('tools/ls');
    expect(only('./cat secret.txt')).toMatchObject({ readOnly: false, mayReachNetwork: true });
    expect(only(`${bed.workspace}/tools/ls`).readOnly).toBe(false);
    expect(only('tools/ls').readOnly).toBe(false);
    const withWorkspaceFirst = bed.analyze('ls', { pathEnv: `${path.join(bed.workspace, 'tools')}:${bed.systemBin}` });
    expect(withWorkspaceFirst.commands[0]!.readOnly).toBe(false);
  });

  it('does not trust a system program when a workspace folder earlier on PATH could shadow it', () => {
    fs.mkdirSync(path.join(bed.workspace, 'node_modules', '.bin'), { recursive: true });
    const analysis = bed.analyze('cat f', { pathEnv: `${path.join(bed.workspace, 'node_modules', '.bin')}:${bed.systemBin}` });
    expect(analysis.commands[0]!.readOnly).toBe(false);
  });

  it('does not trust PATH with a relative entry', () => {
    expect(bed.analyze('cat f', { pathEnv: `.:${bed.systemBin}` }).commands[0]!.readOnly).toBe(false);
    expect(bed.analyze('cat f', { pathEnv: `:${bed.systemBin}` }).commands[0]!.readOnly).toBe(false);
    // bash stops at the first match: a relative entry after it changes nothing.
    expect(bed.analyze('cat f', { pathEnv: `${bed.systemBin}:.` }).commands[0]!.readOnly).toBe(true);
  });

  it('does not trust a system PATH entry that is a symlink into the workspace', () => {
    const linked = path.join(bed.systemBin, '..', 'linked');
    fs.mkdirSync(path.join(bed.workspace, 'real'), { recursive: true });
    bed.addWorkspaceProgram('real/ls');
    fs.symlinkSync(path.join(bed.workspace, 'real'), linked);
    expect(bed.analyze('ls', { pathEnv: linked }).commands[0]!.readOnly).toBe(false);
  });

  it('does not trust a program that is not found', () => {
    expect(bed.analyze('cat f', { pathEnv: '/nonexistent' }).commands[0]).toMatchObject({ readOnly: false, mayReachNetwork: true });
  });

  it('trusts bash builtins whatever PATH holds, but not when a wrapper execs them', () => {
    expect(bed.analyze('echo hi && pwd && true', { pathEnv: '/nonexistent' }).commands.every((c) => c.readOnly)).toBe(true);
    expect(bed.analyze('timeout 5 echo hi', { pathEnv: `/nonexistent:${bed.systemBin}` }).commands[0]!.readOnly).toBe(true);
    expect(bed.analyze('nice echo hi', { pathEnv: '/nonexistent' }).commands[0]!.readOnly).toBe(false);
  });

  it('trusts an absolute path in a system folder, not one elsewhere', () => {
    expect(only('/usr/bin/rg pattern file.txt').readOnly).toBe(true);
    expect(only('/tmp/elsewhere/cat f').readOnly).toBe(false);
    expect(only(`${bed.systemBin}/cat f`).readOnly).toBe(true);
  });

  it('never calls a command run as another user, with its output sent to nohup.out, or xargs -I read-only', () => {
    expect(only('sudo ls').readOnly).toBe(false);
    expect(only('doas ls').readOnly).toBe(false);
    expect(only('nohup ls').readOnly).toBe(false);
    expect(analyze('ls | xargs -I{} cat {}').commands[1]!.readOnly).toBe(false);
  });

  it('keeps xargs read-only only for programs whose every argument is harmless', () => {
    expect(analyze('ls | xargs cat').commands[1]!.readOnly).toBe(true);
    // A name xargs appends can be an option: grep -f FILE reads patterns from a file the line does not name.
    expect(analyze('ls | xargs grep -l x').commands[1]!.readOnly).toBe(false);
    expect(analyze('ls | xargs grep -l x --').commands[1]!.readOnly).toBe(true);
    expect(analyze('ls | xargs sort').commands[1]!.readOnly).toBe(false);
    expect(analyze('ls | xargs rg x').commands[1]!.readOnly).toBe(false);
  });

  it('judges glob and variable arguments by whether they could become a dangerous option', () => {
    expect(readsOnly('cat *.txt')).toBe(true);
    expect(readsOnly('cat $dir')).toBe(true);
    // `$dir` may split into `-LR /`: ls follows links out as it walks.
    expect(readsOnly('ls $dir')).toBe(false);
    expect(readsOnly('ls -- $dir')).toBe(true);
    expect(readsOnly("find . -name '*.py'")).toBe(true);
    expect(readsOnly('find . -name *.py')).toBe(true);
    expect(readsOnly('rg foo *')).toBe(false);
    expect(readsOnly('sort $f')).toBe(false);
    expect(readsOnly('git log $range')).toBe(false);
  });

  it('tracks where cd goes: git reads only inside the workspace', () => {
    fs.mkdirSync(path.join(bed.workspace, 'src'), { recursive: true });
    expect(readsOnly('cd src && git log')).toBe(true);
    expect(readsOnly(`cd ${bed.workspace}/src && ls`)).toBe(true);
    expect(analyze('cd /tmp && git log').commands.map((c) => c.readOnly)).toEqual([false, false]);
    expect(analyze('cd .. && git status').commands.map((c) => c.readOnly)).toEqual([false, false]);
    expect(analyze('cd && git status').commands.map((c) => c.readOnly)).toEqual([false, false]);
    expect(analyze('cd src; cd ..; cd ..; git status').commands.at(-1)!.readOnly).toBe(false);
    expect(readsOnly('git -C src status')).toBe(true);
    expect(readsOnly('git -C /tmp status')).toBe(false);
    expect(readsOnly('env -C /tmp git status')).toBe(false);
    expect(readsOnly("env -C /tmp bash -c 'git status'")).toBe(false);
    expect(readsOnly("sudo -D /tmp sh -c 'git log'")).toBe(false);
  });

  it('calls declarations and unset of ordinary variables read-only', () => {
    expect(readsOnly('export FOO=1; local x=2; unset y; readonly z')).toBe(true);
  });

  it('calls a read loop over a read-only command read-only', () => {
    expect(readsOnly('git ls-files | while read -r f; do head -n 1 "$f"; done')).toBe(true);
    expect(readsOnly('git ls-files | while read -r f; do wc -l -- "$f"; done')).toBe(true);
    // A tracked file may be named `--files0-from=list`: wc would read the files list names.
    expect(readsOnly('git ls-files | while read -r f; do wc -l "$f"; done')).toBe(false);
    expect(readsOnly('set -euo pipefail; for f in *.md; do head -1 "$f"; done')).toBe(true);
  });

  it('refuses an interpreter that runs whatever script names xargs reads', () => {
    expectUnpinnable('ls *.py | xargs python3', /xargs reads/);
  });
});

describe('what may reach the network', () => {
  it.each([
    'curl https://example.com',
    'wget x',
    'ssh host',
    'scp a b:c',
    'rsync a b:c',
    'nc host 80',
    'ping host',
    'dig x',
    'gh pr list',
    'aws s3 ls',
    'git push',
    'git fetch',
    'git pull',
    'git clone u',
    'git ls-remote u',
    'git submodule update',
    // Repository hooks (project code) run for these: pre-commit, post-index-change, post-checkout.
    'git commit -m x',
    'git add .',
    'git checkout main',
    'npm install',
    'npm ci',
    'pnpm add x',
    'yarn',
    'npm test',
    'npx tsc',
    'pip install x',
    'cargo build',
    'go get x',
    'docker run x',
    'kubectl get pods',
    'make',
    'node app.js',
    'python3 x.py',
    'bash x.sh',
    'eslint .',
    'vitest run',
    'some-unknown-tool',
    'rg --pre=curl x',
    'sed "s/a/curl x/e" f',
  ])('%s may', (command) => {
    expect(
      analyze(command).commands.some((c) => c.mayReachNetwork),
      command,
    ).toBe(true);
  });

  it.each([
    'ls',
    'cat f',
    'grep x f',
    'rm -rf build',
    'mkdir -p a/b',
    'cp a b',
    'mv a b',
    'touch x',
    'chmod +x f',
    'git status',
    'git diff',
    'git init',
    'tsc -p .',
    'sed -i s/a/b/ f',
    'tar -xzf a.tgz',
    'find . -delete',
  ])('%s stays local', (command) => {
    expect(
      analyze(command).commands.map((c) => c.mayReachNetwork),
      command,
    ).toEqual([false]);
  });
});

describe('/dev/tcp and /dev/udp are the network', () => {
  it.each([
    'cat < /dev/tcp/example.com/80',
    'cat < "/dev/tcp/example.com/80"',
    "echo hi > '/dev/udp/10.0.0.1/53'",
    'exec 3<>/dev/tcp/example.com/443',
    'cat < /dev/tcp/example.com/80 | head -n 1',
    'wc -c >> /dev/tcp/h/9 < README.md',
  ])('%s cannot be pinned down, and may reach the network', (line) => {
    expectUnpinnable(line, /opens a network connection/);
  });

  it('leaves other devices alone', () => {
    expect(analyze('ls > /dev/null').unpinnable).toBeUndefined();
  });
});

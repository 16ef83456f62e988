import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitError, GUARD_CONFIG, runGit } from './git';
import { gitShell, type GitShell } from './gitShell';

const created: string[] = [];
const shells: GitShell[] = [];
let base: string;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-git-shell-')));
  created.push(base);
  repo = path.join(base, 'repo');
  fs.mkdirSync(repo);
  env = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, LC_ALL: 'C' };
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
  fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
});

afterEach(() => {
  for (const shell of shells.splice(0)) shell.close();
});

afterAll(() => {
  for (const folder of created) fs.rmSync(folder, { recursive: true, force: true });
});

const STATUS = ['status', '--porcelain=v2', '-z', '--untracked-files=all'];
const ADD = ['update-index', '--add', '-z', '--stdin'];
const WRITE_TREE = ['write-tree'];
const FAILS = ['rev-parse', '--verify', 'no-such-ref'];

function open(commands: string[][], options: { idleMs?: number; shellEnv?: NodeJS.ProcessEnv } = {}): GitShell {
  const shell = gitShell({
    cwd: repo,
    env: options.shellEnv ?? env,
    commands: commands.map((args) => [...GUARD_CONFIG, ...args]),
    parent: base,
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
  });
  if (!shell) throw new Error('gitShell is Linux-only, and this is Linux');
  shells.push(shell);
  return shell;
}

/** git's answer to `args`, started by node and through `shell`, side by side. */
async function both(shell: GitShell, args: string[], input?: string) {
  const options = { cwd: repo, env, ...(input !== undefined ? { input } : {}), okExitCodes: [0, 1, 128] };
  const direct = await runGit(args, options);
  const viaShell = await runGit(args, { ...options, shell });
  return { direct, viaShell };
}

const shellFolders = () => fs.readdirSync(base).filter((name) => name.startsWith('git-shell-'));

describe('gitShell', () => {
  it('answers as git started by node does: output bytes, errors and exit status, with input on stdin', async () => {
    const shell = open([STATUS, ADD, WRITE_TREE, FAILS]);
    fs.writeFileSync(path.join(repo, 'naïve name\twith tab.txt'), 'x\n');
    const status = await both(shell, STATUS);
    expect(status.viaShell).toEqual(status.direct);
    expect(status.viaShell.stdout.toString('utf8')).toContain('naïve name\twith tab.txt');

    await runGit(ADD, { cwd: repo, env, input: 'a.txt\0naïve name\twith tab.txt\0', shell });
    const tree = await both(shell, WRITE_TREE);
    expect(tree.viaShell).toEqual(tree.direct);
    expect(
      execFileSync('git', ['ls-tree', '--name-only', '-z', tree.viaShell.stdout.toString().trim()], { cwd: repo, env }).toString(),
    ).toBe('a.txt\0naïve name\twith tab.txt\0');

    const failed = await both(shell, FAILS);
    expect(failed.viaShell).toEqual(failed.direct);
    expect(failed.viaShell.exitCode).toBe(128);
    await expect(runGit(FAILS, { cwd: repo, env, shell })).rejects.toThrow(/rev-parse --verify no-such-ref failed .* exit code 128/);
    // All of it through the one shell, which a failure of its own would have set aside.
    expect(shell.commandNumber([...GUARD_CONFIG, ...STATUS])).toBe(0);
    expect(shellFolders()).toHaveLength(1);
  });

  it('runs only the commands it was given, each with its arguments taken literally', async () => {
    const substitutions = ['-c', 'user.name=$(touch pwned) `touch pwned2` $HOME', 'config', 'user.name'];
    const quotes = ['-c', `user.name=it's "quoted" \\ \\" ' '\\''`, 'config', 'user.name'];
    const shell = open([substitutions, quotes]);
    expect(shell.commandNumber([...GUARD_CONFIG, ...STATUS])).toBeUndefined();
    expect(shell.commandNumber([...GUARD_CONFIG, ...substitutions.slice(0, -1)])).toBeUndefined();
    for (const args of [substitutions, quotes]) {
      const { direct, viaShell } = await both(shell, args);
      expect(viaShell).toEqual(direct);
      expect(viaShell.stdout.toString()).toBe(`${args[1]!.slice('user.name='.length)}\n`);
    }
    // The shell itself answered (it would have been set aside after a failure).
    expect(shell.commandNumber([...GUARD_CONFIG, ...quotes])).toBe(1);
    expect(fs.readdirSync(repo).filter((name) => name.startsWith('pwned'))).toEqual([]);
    expect(fs.readdirSync(base).filter((name) => name.startsWith('pwned'))).toEqual([]);
  });

  it('takes calls one at a time, in the order they came', async () => {
    const shell = open([STATUS, ADD, WRITE_TREE]);
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(repo, `f${i}.txt`), `${i}\n`);
    const names = Array.from({ length: 20 }, (_, i) => `f${i}.txt`);
    const results = await Promise.all([
      ...names.map((name) => runGit(ADD, { cwd: repo, env, input: `${name}\0`, shell })),
      runGit(WRITE_TREE, { cwd: repo, env, shell }),
    ]);
    const tree = results.at(-1)!.stdout.toString().trim();
    expect(execFileSync('git', ['ls-tree', '--name-only', tree], { cwd: repo, env }).toString().trim().split('\n').sort()).toEqual(
      names.sort(),
    );
  });

  it('hands the call back to node when the shell dies, cannot find git, or cannot enter the folder: the answer is the same', async () => {
    const shell = open([STATUS, WRITE_TREE]);
    await runGit(STATUS, { cwd: repo, env, shell });
    const pids = execFileSync('pgrep', ['-f', `tether-git-shell ${repo} `], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const afterKill = await runGit(STATUS, { cwd: repo, env, shell });
    expect(afterKill.exitCode).toBe(0);
    // Once broken, the shell is not asked again.
    expect(shell.commandNumber([...GUARD_CONFIG, ...STATUS])).toBeUndefined();

    const noGit = open([STATUS], { shellEnv: { ...env, PATH: path.join(base, 'empty-bin') } });
    expect((await runGit(STATUS, { cwd: repo, env, shell: noGit })).exitCode).toBe(0);

    const gone = path.join(base, 'gone');
    fs.mkdirSync(gone);
    execFileSync('git', ['init', '-q'], { cwd: gone, env });
    const inGone = gitShell({ cwd: gone, env, commands: [[...GUARD_CONFIG, ...STATUS]], parent: base })!;
    shells.push(inGone);
    fs.rmSync(gone, { recursive: true });
    const failure = await runGit(STATUS, { cwd: gone, env, shell: inGone }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitError);
    expect((failure as GitError).kind).toBe('no_folder');
  });

  it('starts no second shell for the calls queued behind one that found it failing: they go to git directly', async () => {
    const made = new Set<string>();
    const watcher = fs.watch(base, (_event, name) => {
      if (name?.startsWith('git-shell-')) made.add(name);
    });
    try {
      const noGit = open([STATUS], { shellEnv: { ...env, PATH: path.join(base, 'empty-bin') } });
      const runs = await Promise.all(Array.from({ length: 5 }, () => runGit(STATUS, { cwd: repo, env, shell: noGit })));
      expect(runs.map((run) => run.exitCode)).toEqual([0, 0, 0, 0, 0]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(made.size).toBe(1);
    } finally {
      watcher.close();
    }
  });

  it('reads no startup file of the person (ENV, BASH_ENV)', async () => {
    const startup = path.join(base, 'startup.sh');
    fs.writeFileSync(startup, `touch '${path.join(base, 'sourced')}'\n`);
    const shell = open([STATUS], { shellEnv: { ...env, ENV: startup, BASH_ENV: startup } });
    await runGit(STATUS, { cwd: repo, env, shell });
    expect(fs.existsSync(path.join(base, 'sourced'))).toBe(false);
  });

  it('stops when idle, removing its folder, and starts again with the next call', async () => {
    const shell = open([STATUS], { idleMs: 50 });
    await runGit(STATUS, { cwd: repo, env, shell });
    expect(shellFolders()).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(shellFolders()).toEqual([]);
    expect((await runGit(STATUS, { cwd: repo, env, shell })).exitCode).toBe(0);
    expect(shellFolders()).toHaveLength(1);
  });

  it('removes the folders of shells whose process is gone, and keeps those of one still running', async () => {
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.on('close', resolve));
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      fs.mkdirSync(path.join(base, `git-shell-${dead.pid}-abc`));
      fs.mkdirSync(path.join(base, `git-shell-${alive.pid}-def`));
      await runGit(STATUS, { cwd: repo, env, shell: open([STATUS]) });
      expect(shellFolders()).toContain(`git-shell-${alive.pid}-def`);
      expect(shellFolders()).not.toContain(`git-shell-${dead.pid}-abc`);
    } finally {
      alive.kill();
    }
  });

  it('keeps no process alive: a program that used it ends at once, and its shell and folder with it', async () => {
    const gitShellModule = path.resolve(__dirname, 'gitShell.ts');
    const gitModule = path.resolve(__dirname, 'git.ts');
    const program = `
      const { gitShell } = await import(${JSON.stringify(gitShellModule)});
      const { GUARD_CONFIG, runGit } = await import(${JSON.stringify(gitModule)});
      const env = ${JSON.stringify(env)};
      const shell = gitShell({ cwd: ${JSON.stringify(repo)}, env, commands: [[...GUARD_CONFIG, 'status']], parent: ${JSON.stringify(base)} });
      const run = await runGit(['status'], { cwd: ${JSON.stringify(repo)}, env, shell });
      console.log(run.exitCode);
    `;
    const file = path.join(base, 'program.ts');
    fs.writeFileSync(file, program);
    const started = Date.now();
    const output = execFileSync(path.resolve('node_modules/.bin/jiti'), [file], { encoding: 'utf8', timeout: 20_000 });
    expect(output.trim().split('\n').at(-1)).toBe('0');
    expect(Date.now() - started).toBeLessThan(15_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(shellFolders()).toEqual([]);
    expect(() => execFileSync('pgrep', ['-f', `tether-git-shell ${repo}`])).toThrow();
  });
});

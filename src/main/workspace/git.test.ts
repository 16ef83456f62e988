import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitError, MISSING_GIT_MESSAGE, requireGit, runGit } from './git';

let base: string;
const savedPath = process.env.PATH;

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-git-')));
});
afterEach(() => {
  process.env.PATH = savedPath;
  fs.rmSync(base, { recursive: true, force: true });
});
afterAll(() => {
  process.env.PATH = savedPath;
});

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^GIT_/i.test(key)) env[key] = value;
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, ...extra };
}

/** A folder on PATH holding a fake `git` that prints `version`. */
function fakeGit(version: string): string {
  const bin = path.join(base, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "${version}"\n`);
  fs.chmodSync(path.join(bin, 'git'), 0o755);
  return bin;
}

describe('runGit', () => {
  it('returns stdout as bytes and treats listed exit codes as answers', async () => {
    const run = await runGit(['init', '-q', 'repo'], { cwd: base, env: cleanEnv() });
    expect(run.exitCode).toBe(0);
    const missing = await runGit(['rev-parse', '-q', '--verify', 'refs/heads/none'], {
      cwd: path.join(base, 'repo'),
      env: cleanEnv(),
      okExitCodes: [1],
    });
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout.length).toBe(0);
  });

  it('feeds stdin from a string or a stream', async () => {
    await runGit(['init', '-q', '--bare', 'store.git'], { cwd: base, env: cleanEnv() });
    const env = cleanEnv({ GIT_DIR: path.join(base, 'store.git') });
    const fromString = await runGit(['hash-object', '-w', '--stdin'], { cwd: base, env, input: 'hello\n' });
    async function* pieces() {
      yield 'hel';
      yield Buffer.from('lo\n');
    }
    const fromStream = await runGit(['hash-object', '-w', '--stdin'], { cwd: base, env, input: pieces() });
    expect(fromStream.stdout.toString().trim()).toBe(fromString.stdout.toString().trim());
    expect(fromString.stdout.toString().trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('reports a failure with the command, the folder and what git said', async () => {
    const failure = await runGit(['rev-parse', 'HEAD'], { cwd: base, env: cleanEnv({ GIT_CEILING_DIRECTORIES: base }) }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(GitError);
    expect((failure as GitError).kind).toBe('failed');
    expect((failure as GitError).message).toMatch(
      new RegExp(`git rev-parse HEAD failed in ${base} with exit code 128: fatal: not a git repository`),
    );
  });

  it('waits for a held lock file, then says another git process kept it', async () => {
    await runGit(['init', '-q', 'repo'], { cwd: base, env: cleanEnv() });
    const repo = path.join(base, 'repo');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(repo, '.git', 'index.lock'), '');
    const started = Date.now();
    const failure = await runGit(['update-index', '--add', 'a.txt'], { cwd: repo, env: cleanEnv() }).catch((error: unknown) => error);
    expect((failure as GitError).kind).toBe('locked');
    expect((failure as GitError).message).toMatch(/Another git process kept its lock file/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('succeeds once a briefly held lock is released', async () => {
    await runGit(['init', '-q', 'repo'], { cwd: base, env: cleanEnv() });
    const repo = path.join(base, 'repo');
    const lock = path.join(repo, '.git', 'index.lock');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    fs.writeFileSync(lock, '');
    const released = new Promise((resolve) => setTimeout(resolve, 300)).then(() => fs.rmSync(lock));
    const started = Date.now();
    const run = await runGit(['update-index', '--add', 'a.txt'], { cwd: repo, env: cleanEnv() });
    await released;
    expect(run.exitCode).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await runGit(['ls-files'], { cwd: repo, env: cleanEnv() })).stdout.toString()).toBe('a.txt\n');
  });

  it('says git is missing when it is not on PATH, and that a folder is missing when the folder is', async () => {
    const noGit = await runGit(['--version'], { cwd: base, env: { ...cleanEnv(), PATH: path.join(base, 'empty') } }).catch(
      (error: unknown) => error,
    );
    expect((noGit as GitError).kind).toBe('missing');
    expect((noGit as GitError).message).toBe(MISSING_GIT_MESSAGE);
    const noFolder = await runGit(['--version'], { cwd: path.join(base, 'gone'), env: cleanEnv() }).catch((error: unknown) => error);
    expect((noFolder as GitError).kind).toBe('no_folder');
    expect((noFolder as GitError).message).toMatch(/gone: the folder does not exist/);
  });
});

describe('requireGit', () => {
  it('accepts the installed git and gives its version', async () => {
    expect(await requireGit([2, 20])).toMatch(/^\d+\.\d+/);
  });

  it('refuses a git older than the minimum, saying which was found', async () => {
    process.env.PATH = fakeGit('git version 2.17.1');
    const failure = await requireGit([2, 20]).catch((error: unknown) => error);
    expect((failure as GitError).kind).toBe('too_old');
    expect((failure as GitError).message).toMatch(/needs git 2\.20 or newer .* found 2\.17\.1/);
  });

  it('does not remember a failure, so installing git fixes it without a restart', async () => {
    process.env.PATH = path.join(base, 'no-git-here');
    await expect(requireGit([2, 20])).rejects.toThrow(MISSING_GIT_MESSAGE);
    fs.mkdirSync(path.join(base, 'no-git-here'));
    fs.writeFileSync(path.join(base, 'no-git-here', 'git'), '#!/bin/sh\necho "git version 2.45.0"\n');
    fs.chmodSync(path.join(base, 'no-git-here', 'git'), 0o755);
    expect(await requireGit([2, 20])).toBe('2.45.0');
  });
});

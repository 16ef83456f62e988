import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { commandEnvironment } from './commandEnvironment';
import { GIT_GUARD, withGitGuard } from './gitGuard';
import type { GitShell } from './gitShell';

/** How a git call went wrong. */
export type GitErrorKind =
  /** git is not installed or not on PATH. */
  | 'missing'
  /** The installed git is older than Tether needs. */
  | 'too_old'
  /** The folder git was to run in does not exist. */
  | 'no_folder'
  /** Another git process holds a lock file (index.lock, a ref lock). */
  | 'locked'
  /** git ran and exited with a failure. */
  | 'failed';

/** A git call that failed; the message says which call, in which folder, and what to do next. */
export class GitError extends Error {
  override readonly name = 'GitError';

  constructor(
    readonly kind: GitErrorKind,
    message: string,
    readonly details: { args: readonly string[]; exitCode?: number | null; stderr?: string } = { args: [] },
  ) {
    super(message);
  }
}

export interface GitRun {
  /** Everything git printed on stdout, as bytes (paths from `-z` output are not always UTF-8). */
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

export interface GitOptions {
  cwd: string;
  /** The whole environment git sees (the caller decides what to inherit). */
  env: NodeJS.ProcessEnv;
  /** Written to git's stdin, which is then closed. A stream is consumed once, so a call fed by one is not retried on a lock. */
  input?: string | Buffer | AsyncIterable<Buffer | string>;
  /** Exit codes that are answers rather than failures (`rev-parse --verify -q` exits 1 for "no such ref"). */
  okExitCodes?: readonly number[];
  /** Starts the commands it knows (given with GUARD_CONFIG first) instead of node; see gitShell.ts. */
  shell?: GitShell;
}

export const MISSING_GIT_MESSAGE =
  'Tether needs git for the live diff and checkpoints; install git (https://git-scm.com/downloads) and make sure `git` is on PATH, then try again.';

/**
 * Config every git Tether runs gets, whatever the repository's own config says (GIT_GUARD: no
 * fsmonitor, no bare repository entered by discovery). On git's command line, it wins over every
 * config file.
 */
export const GUARD_CONFIG: readonly string[] = GIT_GUARD.flatMap(([key, value]) => ['-c', `${key}=${value}`]);

/**
 * The environment of a git Tether runs: Tether's own less every secret in it (a hostile repository's
 * filter or hook runs with it), and less the GIT_* variables `drop` names (a hook that launched
 * Tether sets GIT_DIR).
 */
export function gitEnv(drop: RegExp = /^GIT_/i): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(commandEnvironment(process.env).env)) if (!drop.test(key)) env[key] = value;
  return env;
}

/**
 * The environment for a git Tether runs synchronously in the person's repository: gitEnv's, with
 * GIT_GUARD as command-line config (no fsmonitor, no bare repository stumbled on).
 */
export function guardedGitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(gitEnv())) if (value !== undefined) env[key] = value;
  return withGitGuard(env);
}

const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;
const LOCK_RETRIES = 20;
const LOCK_RETRY_MS = 50;

/**
 * Runs git without a shell. A lock held by another git process (a second Tether on the same
 * folder) is waited out for about a second before it is reported, since those locks are brief.
 */
export async function runGit(args: readonly string[], options: GitOptions): Promise<GitRun> {
  for (let attempt = 0; ; attempt++) {
    const run = await runOnce(args, options);
    const ok = run.exitCode === 0 || (options.okExitCodes ?? []).includes(run.exitCode);
    if (ok) return run;
    const locked = /Unable to create '[^']*\.lock': File exists/i.test(run.stderr);
    if (locked && attempt < LOCK_RETRIES && !isStream(options.input)) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
      continue;
    }
    const said = run.stderr.trim().split('\n').slice(0, 6).join('\n') || '(git printed nothing)';
    const what = `git ${commandLine(args)} failed in ${options.cwd} with exit code ${run.exitCode}: ${said}`;
    throw new GitError(
      locked ? 'locked' : 'failed',
      locked
        ? `${what}\nAnother git process kept its lock file; wait for it to finish (or remove the stale .lock file) and try again.`
        : what,
      { args, exitCode: run.exitCode, stderr: run.stderr },
    );
  }
}

async function runOnce(args: readonly string[], options: GitOptions): Promise<GitRun> {
  const { shell } = options;
  const number = shell && !isStream(options.input) ? shell.commandNumber([...GUARD_CONFIG, ...args]) : undefined;
  if (shell && number !== undefined) {
    try {
      return await shell.run(number, options.input as string | Buffer | undefined);
    } catch {
      // The shell could not run it: git is started directly, and says what is wrong, if anything is.
    }
  }
  return runDirectly(args, options);
}

function runDirectly(args: readonly string[], options: GitOptions): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...GUARD_CONFIG, ...args],
      { cwd: options.cwd, env: options.env, encoding: 'buffer', maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true },
      (error, stdout, stderr) => {
        const stderrText = stderr.toString('utf8');
        if (error && typeof error.code !== 'number') {
          if (error.code === 'ENOENT') {
            // Node reports a missing cwd exactly like a missing program; tell them apart.
            if (!fs.existsSync(options.cwd)) {
              return reject(
                new GitError(
                  'no_folder',
                  `Cannot run git in ${options.cwd}: the folder does not exist. Open an existing folder, or recreate this one.`,
                  {
                    args,
                  },
                ),
              );
            }
            return reject(new GitError('missing', MISSING_GIT_MESSAGE, { args }));
          }
          return reject(
            new GitError('failed', `git ${commandLine(args)} could not run in ${options.cwd}: ${error.message}`, {
              args,
              stderr: stderrText,
            }),
          );
        }
        resolve({ stdout, stderr: stderrText, exitCode: error ? Number(error.code) : 0 });
      },
    );
    // git exits without reading stdin on some failures; the resulting EPIPE is not the error to report.
    child.stdin?.on('error', () => {});
    if (isStream(options.input)) {
      if (child.stdin) pipeline(Readable.from(options.input), child.stdin).catch(() => child.kill());
    } else {
      child.stdin?.end(options.input ?? '');
    }
  });
}

function isStream(input: GitOptions['input']): input is AsyncIterable<Buffer | string> {
  return typeof input === 'object' && input !== null && Symbol.asyncIterator in input;
}

/** The command without the `-c key=value` noise, short enough for a message. */
function commandLine(args: readonly string[]): string {
  const shown: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c') {
      i++;
      continue;
    }
    shown.push(args[i]!);
  }
  const text = shown.join(' ');
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

const checkedVersions = new Map<string, Promise<string>>();

/**
 * The installed git's version ("2.39.5"), or a GitError when git is missing or older than
 * `minimum`. Asked once per process (per PATH), since every snapshot would otherwise pay for it.
 */
export function requireGit(minimum: readonly [major: number, minor: number]): Promise<string> {
  const key = `${process.env.PATH ?? ''}\0${minimum.join('.')}`;
  let pending = checkedVersions.get(key);
  if (!pending) {
    pending = checkVersion(minimum);
    checkedVersions.set(key, pending);
    // A failure is not remembered: the person may install git and try again without a restart.
    pending.catch(() => checkedVersions.delete(key));
  }
  return pending;
}

async function checkVersion(minimum: readonly [number, number]): Promise<string> {
  const run = await runGit(['--version'], { cwd: os.tmpdir(), env: gitEnv() });
  const said = run.stdout.toString('utf8').trim();
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(said);
  if (!match)
    throw new GitError(
      'failed',
      `Cannot tell which git this is: \`git --version\` said "${said}". Install git from https://git-scm.com/downloads.`,
      { args: ['--version'] },
    );
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major < minimum[0] || (major === minimum[0] && minor < minimum[1])) {
    throw new GitError(
      'too_old',
      `Tether needs git ${minimum.join('.')} or newer for the live diff and checkpoints, but found ${match[0]}; update git (https://git-scm.com/downloads) and try again.`,
      { args: ['--version'] },
    );
  }
  return match[0];
}

/**
 * Runs git in the person's own repository (worktrees, merges), as the person would: their config
 * and identity apply. What is turned off: variables that would point git at another repository (a
 * hook that launched Tether sets GIT_DIR), hooks (a hook the agent wrote must not run on the
 * person's say-so for a merge), prompts, and translated messages (errors are read by their wording).
 */
export function runUserGit(
  args: readonly string[],
  options: { cwd: string; input?: string; okExitCodes?: readonly number[] },
): Promise<GitRun> {
  const env = gitEnv(
    /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|COMMON_DIR|PREFIX|CEILING_DIRECTORIES)$/i,
  );
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', LANGUAGE: 'C' });
  return runGit(['-c', `core.hooksPath=${os.devNull}`, '-c', 'core.quotePath=false', ...args], {
    cwd: options.cwd,
    env,
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.okExitCodes ? { okExitCodes: options.okExitCodes } : {}),
  });
}

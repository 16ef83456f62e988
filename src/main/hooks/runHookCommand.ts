import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findTrustedProgram } from '../workspace/programSearchPath';

/**
 * Runs one hook's command as Claude Code does: in a shell, in the session's folder, the event's JSON
 * on stdin, with a timeout. It never throws: a command that cannot start, or that outlives its
 * timeout (killed with its whole process group), is a result like any other, for the caller to report.
 */

export interface HookCommandRun {
  command: string;
  stdin: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Stopping the session stops the hook too (its whole process group). */
  signal?: AbortSignal;
}

export interface HookCommandResult {
  /** The exit code; null when it was killed or never started. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The session was stopped while it ran, and it with it. */
  stopped: boolean;
  /** Why it could not start at all. */
  startError?: string;
  durationMs: number;
}

/** What is kept of each stream: a hook's answer is a line or a small JSON object, not a log. */
const KEEP_CHARS = 64 * 1024;

export function runHookCommand(run: HookCommandRun): Promise<HookCommandResult> {
  const started = performance.now();
  // The session may have been stopped while the hook's sandbox was being readied: an abort listener
  // added now would never be called, and the hook would run to its timeout.
  if (run.signal?.aborted)
    return Promise.resolve({ exitCode: null, stdout: '', stderr: '', timedOut: false, stopped: true, durationMs: 0 });
  return new Promise((resolve) => {
    const windows = process.platform === 'win32';
    // The event's JSON comes from a file, not a pipe: node's pipes are socket pairs, and a bash whose
    // stdin is a socket takes itself for an ssh session and reads ~/.bashrc when SHLVL is low (as it is
    // once the sandbox's own shells exec): a pyenv init there cost every hook ten seconds.
    const input = windows ? undefined : inputFile(run.stdin);
    // Bash by its absolute path, never looked up where the agent could plant one (programSearchPath.ts).
    const child = spawn(windows ? run.command : hookShell(), windows ? [] : ['--norc', '--noprofile', '-c', run.command], {
      cwd: run.cwd,
      env: run.env,
      shell: windows,
      // Its own process group, so a timeout kills what it started too.
      detached: !windows,
      stdio: [input ?? 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) fs.closeSync(input);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let stopped = false;
    let startError: string | undefined;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < KEEP_CHARS) stdout += chunk.slice(0, KEEP_CHARS - stdout.length);
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < KEEP_CHARS) stderr += chunk.slice(0, KEEP_CHARS - stderr.length);
    });
    if (child.stdin) {
      // A hook that does not read its stdin closes the pipe early: that is not a failure.
      child.stdin.on('error', () => {});
      child.stdin.end(run.stdin);
    }
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child.pid, windows);
    }, run.timeoutMs);
    const stop = () => {
      stopped = true;
      kill(child.pid, windows);
    };
    run.signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => {
      startError = error.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', stop);
      resolve({
        exitCode: timedOut || stopped ? null : code,
        stdout,
        stderr,
        timedOut,
        stopped,
        ...(startError !== undefined ? { startError } : {}),
        durationMs: Math.round(performance.now() - started),
      });
    });
  });
}

function kill(pid: number | undefined, windows: boolean): void {
  if (pid === undefined) return;
  try {
    if (windows) process.kill(pid);
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function hookShell(): string {
  return fs.existsSync('/bin/bash') ? '/bin/bash' : (findTrustedProgram('bash') ?? 'bash');
}

/** An open descriptor of a file holding `text`, already unlinked: it goes when the hook is done with it. Undefined when none can be made (the pipe is used then). */
function inputFile(text: string): number | undefined {
  const file = path.join(os.tmpdir(), `tether-hook-input-${randomBytes(8).toString('hex')}`);
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx+', 0o600);
  } catch {
    return undefined;
  }
  try {
    fs.unlinkSync(file);
    // At position 0, leaving the descriptor's offset at the start, where the hook begins to read.
    fs.writeSync(fd, text, 0);
    return fd;
  } catch {
    fs.closeSync(fd);
    return undefined;
  }
}

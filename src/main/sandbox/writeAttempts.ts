import fs from 'node:fs';
import path from 'node:path';
import type { SandboxViolationEvent } from '@anthropic-ai/sandbox-runtime';
import type { startLinuxSandboxViolationMonitor } from '@anthropic-ai/sandbox-runtime/dist/sandbox/linux-violation-monitor.js';
import { isInside } from '../workspace/filePaths';

/**
 * The sandbox's own record of the writes it refused, so a command that failed at the fence is known
 * by what it tried, whatever it printed (`ENOENT: mkdir '~/.npm/_cacache'` is npm's way of saying
 * EROFS). On Linux the runtime's apply-seccomp, which already wraps every sandboxed command, reports
 * each write-intent syscall (open for writing, mkdir, rename, unlink, …) with its path to a socket;
 * this listens on one per compiled profile, keeps the attempts outside the places the profile lets
 * commands write, and hands each run its own (a run's environment names it in SRT_ENCODED_CMD). On
 * macOS the same record is Seatbelt's: the runtime's log monitor reads the kernel's deny lines.
 *
 * The path is read out of the sandboxed process's memory, so a command can make it say anything: it
 * says why a command failed, and never decides what is allowed (the mounts do).
 */

export interface WriteAttempt {
  syscall: string;
  path: string;
}

export interface WriteObserver {
  /** The socket the profile binds into the sandbox. */
  readonly socket: string;
  /** The variables that tie a run's reports to it. */
  runEnv(runId: string): Record<string, string>;
  /** The refused writes reported for a run so far (and forgets them). */
  take(runId: string): WriteAttempt[];
  stop(): void;
}

/** At most this many attempts are kept per run: a build that tries a thousand paths needs a few named. */
const KEPT_PER_RUN = 200;

/** The library's monitor (loaded with the runtime, not with this module). */
export type StartWriteMonitor = typeof startLinuxSandboxViolationMonitor;

export async function observeWrites(
  start: StartWriteMonitor,
  fence: { writable: readonly string[]; protected: readonly string[] },
): Promise<WriteObserver | undefined> {
  const byRun = new Map<string, WriteAttempt[]>();
  const monitor = start(
    (event: SandboxViolationEvent) => {
      const match = /^deny (\S+) (\/.*)$/.exec(event.line);
      if (!match || !event.encodedCommand) return;
      const runId = Buffer.from(event.encodedCommand, 'base64').toString('utf8');
      const kept = byRun.get(runId) ?? [];
      if (kept.length < KEPT_PER_RUN) kept.push({ syscall: match[1]!, path: match[2]! });
      byRun.set(runId, kept);
    },
    {
      // The kernel's own places and /tmp (the session's private one) are writable in every profile.
      allowWritePaths: [...fence.writable, '/tmp', '/dev', '/proc'],
      denyWritePaths: [...fence.protected],
      resolveCommandText: (key) => key,
    },
  );
  await monitor.ready;
  const socket = monitor.observeSocketPath;
  if (!socket) {
    monitor.stop();
    return undefined;
  }
  return {
    socket,
    runEnv: (runId) => ({ SRT_OBSERVE_SOCK: socket, SRT_ENCODED_CMD: Buffer.from(runId).toString('base64') }),
    take(runId) {
      const attempts = byRun.get(runId) ?? [];
      byRun.delete(runId);
      return attempts;
    },
    stop: () => monitor.stop(),
  };
}

/**
 * The refused writes worth naming: not a `mkdir` of a folder that is there (`mkdir -p` asks for each
 * one on the way, and gets EEXIST, not the fence), and not a path under one already named. Shortest
 * first, at most `limit`.
 */
export function refusedWrites(attempts: readonly WriteAttempt[], limit = 5): string[] {
  const named: string[] = [];
  const candidates = [
    ...new Set(
      attempts.filter((attempt) => !(attempt.syscall === 'mkdir' && isDirectory(attempt.path))).map((a) => path.normalize(a.path)),
    ),
  ];
  candidates.sort((a, b) => a.length - b.length);
  for (const candidate of candidates) {
    if (named.some((shown) => isInside(candidate, shown))) continue;
    named.push(candidate);
    if (named.length === limit) break;
  }
  return named;
}

/** The path of a Seatbelt deny line for a write (`bash(41) deny(1) file-write-create /Users/me/.npm/_cacache`). */
export function seatbeltRefusedWrite(line: string): string | undefined {
  return /\bdeny\(\d+\) file-write[\w-]* (\/.*)$/.exec(line)?.[1];
}

function isDirectory(target: string): boolean {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
}

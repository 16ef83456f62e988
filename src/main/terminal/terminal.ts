import type { TimeoutHold } from '../process/timeoutHold';

/**
 * Runs one shell command in a pseudo-terminal. pty.ts implements it and is the only importer of
 * node-pty; tools and tests depend on this interface.
 */
export interface CommandOptions {
  command: string;
  /** Absolute, already inside the workspace. */
  cwd: string;
  timeoutMs: number;
  /** Aborting kills the command's whole process group at once. */
  signal: AbortSignal;
  /** Receives output as it arrives (the UI's terminal). */
  onData?(chunk: string): void;
  /** Extra environment, on top of the non-interactive defaults. */
  env?: Record<string, string>;
  /** While held, the timeout stands still (the command waits for a person's answer about a connection). */
  hold?: TimeoutHold;
}

export interface CommandResult {
  /** Everything the command printed (stdout and stderr interleaved, as a terminal shows them). */
  output: string;
  /** null when it was killed by a signal. */
  exitCode: number | null;
  /** The signal's name when it was killed by one ('SIGKILL', ...). */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Which resource limit it most likely ran into, in words (commandLimits.ts). */
  limit?: string;
}

export interface Terminal {
  run(options: CommandOptions): Promise<CommandResult>;
  /** Kills whatever is still running (session end, app quit). */
  dispose(): void;
}

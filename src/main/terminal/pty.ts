import { randomBytes } from 'node:crypto';
import { closeSync, constants as fsConstants, existsSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { spawn, type IPty } from 'node-pty';
import { CappedText, DEFAULT_KEEP_CHARS } from '../process/cappedText';
import { withCommandSearchPath } from '../workspace/programSearchPath';
import { commandEnvironment, type ShellEnvironment } from '../workspace/commandEnvironment';
import { defaultLimits, limitHit, limitsPrefix, type EffectiveLimits } from '../process/commandLimits';
import type { CommandOptions, CommandResult, Terminal } from './terminal';
import { pausableTimeout } from '../process/timeoutHold';

/**
 * The Terminal that runs each command in its own pseudo-terminal (node-pty; this is the only file
 * that imports it). A PTY because that is what the person watches in the UI's terminal and what
 * makes tools behave as they do for a person (colours, line buffering); but nothing may wait for a
 * person: stdin is /dev/null, /dev/tty reads hit end-of-file, and the environment tells tools to
 * stay non-interactive.
 */

export interface PtyTerminalOptions {
  /** Characters of output kept from the start, and again from the end, of each command (default 1,000,000). */
  keepChars?: number;
  /** How long a process group has between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /** The person's `shellEnvironment` setting; secrets are left out of every command's environment either way. */
  environment?: ShellEnvironment;
  /** What each command may take of the machine (commandLimits.ts); the defaults when absent. */
  limits?: EffectiveLimits;
}

const DEFAULT_KILL_GRACE_MS = 2_000;
// Wide, so that tools which fit their output to the terminal (ps, ls, progress bars) do not cut it.
const COLS = 200;
const ROWS = 50;
const TERM = 'xterm-256color';
// After the shell's exit event, how long to wait for the end marker that may still be in flight.
const EXIT_GRACE_MS = 100;
// After the end marker, how long to wait for the exit event before giving up on it.
const MARKER_EXIT_WAIT_MS = 2_000;
// After a killed group is gone, how long to wait for node-pty to report the shell's exit.
const KILLED_EXIT_WAIT_MS = 500;
const POLL_MS = 50;

/**
 * Tells tools that nobody is at the keyboard: no prompts, no pagers, no editors, no update nags.
 * Modelled on what Claude Code and Codex set for their shells.
 */
const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  TERM,
  CI: '1',
  TETHER: '1',
  GIT_TERMINAL_PROMPT: '0',
  GCM_INTERACTIVE: 'never',
  GIT_EDITOR: 'true',
  EDITOR: 'true',
  VISUAL: 'true',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GH_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: 'cat',
  AWS_PAGER: '',
  DEBIAN_FRONTEND: 'noninteractive',
  npm_config_yes: 'true',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  PIP_NO_INPUT: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  PYTHONUNBUFFERED: '1',
  HOMEBREW_NO_AUTO_UPDATE: '1',
  COMPOSER_NO_INTERACTION: '1',
};

/**
 * Inherited variables that would mislead the command: a terminal size or multiplexer that is not
 * this PTY's (node-pty's own list), NO_COLOR because the UI's terminal shows colours (the model's
 * copy is stripped of them anyway), and Electron's switch that turns any Electron app the command
 * starts into plain Node.
 */
const DROPPED_ENV = [
  'COLUMNS',
  'LINES',
  'TERMCAP',
  'TMUX',
  'TMUX_PANE',
  'STY',
  'WINDOW',
  'WINDOWID',
  'NO_COLOR',
  'ELECTRON_RUN_AS_NODE',
  'ELECTRON_NO_ATTACH_CONSOLE',
];

export function createPtyTerminal(options: PtyTerminalOptions = {}): Terminal {
  const keepChars = options.keepChars ?? DEFAULT_KEEP_CHARS;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const limits = options.limits ?? defaultLimits();
  const running = new Set<() => void>();
  let disposed = false;

  return {
    async run(command: CommandOptions): Promise<CommandResult> {
      if (disposed)
        throw new Error(`Cannot run "${command.command}": this terminal was disposed (the session ended); start a new session.`);
      return runInPty(command, { environment: options.environment, limits, keepChars, killGraceMs, running });
    },
    dispose(): void {
      disposed = true;
      for (const kill of running) kill();
      running.clear();
    },
  };
}

interface RunSettings {
  environment: ShellEnvironment | undefined;
  limits: EffectiveLimits;
  keepChars: number;
  killGraceMs: number;
  /** How to stop each command still running, for dispose(). */
  running: Set<() => void>;
}

function runInPty(options: CommandOptions, settings: RunSettings): Promise<CommandResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  if (options.signal.aborted) {
    return Promise.resolve({ output: '', exitCode: null, signal: null, timedOut: false, aborted: true, durationMs: 0 });
  }
  assertDirectory(options.cwd, options.command);

  const nonce = randomBytes(8).toString('hex');
  let child: IPty;
  try {
    // The command is passed as an argument and run by eval, so no text in it can break the wrapper.
    child = spawn(bashPath(), ['-c', wrapperScript(nonce, settings.limits), 'bash', options.command], {
      name: TERM,
      cols: COLS,
      rows: ROWS,
      cwd: options.cwd,
      env: commandEnv(options.env, settings.environment),
    });
  } catch (error) {
    throw new Error(
      `Could not start bash for "${options.command}" in ${options.cwd}: ${(error as Error).message}. Check that bash is installed and on the PATH.`,
    );
  }
  sendEndOfFile(child);
  const holder = holdTerminalOpen(child);

  const pgid = child.pid;
  const output = new CappedText(settings.keepChars);
  const scanner = new EndMarkerScanner(nonce);

  return new Promise<CommandResult>((resolve) => {
    let markerCode: number | null = null;
    let exit: { exitCode: number; signal: number } | null = null;
    let killing: Promise<void> | null = null;
    let groupGone = false;
    let lastSignal: NodeJS.Signals | null = null;
    let timedOut = false;
    let aborted = false;
    let finished = false;
    let waitTimer: NodeJS.Timeout | undefined;

    const emit = (text: string): void => {
      if (!text) return;
      output.push(text);
      try {
        options.onData?.(text);
      } catch {
        // A failing listener (the UI) must not stop the command or lose its result.
      }
    };

    const dataListener = child.onData((chunk) => {
      if (markerCode !== null) return; // background jobs writing after the command ended
      const { text, code } = scanner.feed(chunk);
      emit(text);
      if (code !== null) {
        markerCode = code;
        // Everything before the marker has been read: the PTY may close now, which lets node-pty
        // report the exit at once.
        holder.release();
        settle();
      }
    });
    const exitListener = child.onExit((event) => {
      exit = { exitCode: event.exitCode, signal: event.signal ?? 0 };
      settle();
    });

    const kill = (reason: 'timeout' | 'abort'): void => {
      if (finished || killing) return;
      if (reason === 'timeout') timedOut = true;
      else aborted = true;
      killing = killProcessGroup(pgid, settings.killGraceMs, (sent) => (lastSignal = sent)).then(() => {
        groupGone = true;
        holder.release();
        settle();
      });
    };
    const onAbort = (): void => kill('abort');
    const stopForDispose = (): void => kill('abort');
    options.signal.addEventListener('abort', onAbort, { once: true });
    settings.running.add(stopForDispose);
    // Stands still while the command waits for a person (options.hold): that time is not the command's.
    const cancelTimeout = pausableTimeout(options.timeoutMs, () => kill('timeout'), options.hold);

    function settle(): void {
      if (finished) return;
      clearTimeout(waitTimer);
      if (killing) {
        // Report only once nothing of the group is left, so a caller never races a dying process.
        if (exit && groupGone) finish();
        else if (groupGone) waitTimer = setTimeout(finish, KILLED_EXIT_WAIT_MS);
        return;
      }
      if (exit && markerCode !== null) finish();
      else if (exit) waitTimer = setTimeout(finish, EXIT_GRACE_MS);
      else if (markerCode !== null) waitTimer = setTimeout(finish, MARKER_EXIT_WAIT_MS);
    }

    function finish(): void {
      if (finished) return;
      finished = true;
      cancelTimeout();
      clearTimeout(waitTimer);
      holder.release();
      options.signal.removeEventListener('abort', onAbort);
      settings.running.delete(stopForDispose);
      dataListener.dispose();
      exitListener.dispose();
      if (markerCode === null) emit(scanner.flush());
      // The marker says how the command ended, the exit event whether the shell itself was killed
      // (the EXIT trap runs on SIGTERM too, with a misleading status). A SIGHUP after the marker is
      // node-pty closing the PTY while the shell was already on its way out.
      const shellSignal =
        exit && exit.signal !== 0 && !(markerCode !== null && exit.signal === osConstants.signals.SIGHUP) ? exit.signal : 0;
      const killedBy = shellSignal ? signalName(shellSignal) : null;
      const exitCode = killedBy ? null : killing ? (exit?.exitCode ?? null) : (markerCode ?? exit?.exitCode ?? null);
      const text = normalizeOutput(output.toString());
      const limit = timedOut || aborted ? undefined : limitHit(text, exitCode, settings.limits);
      resolve({
        output: text,
        exitCode,
        signal: killedBy ?? (exitCode === null ? lastSignal : null),
        timedOut,
        aborted,
        durationMs: elapsed(),
        ...(limit ? { limit } : {}),
      });
    }
  });
}

/**
 * The shell around the command: stdin from /dev/null for the whole compound command, and an EXIT
 * trap that prints a marker with the status, so the end of the output is known even when the PTY
 * would drop what a quickly exiting shell wrote last. The command runs in a subshell so that an
 * `exec` in it replaces the subshell, not the wrapper that prints the marker. Positional
 * parameters are cleared so the command does not see itself as $1.
 */
function wrapperScript(nonce: string, limits: EffectiveLimits): string {
  return `${limitsPrefix(limits)} trap 'printf "\\n__TETHER_END_${nonce}_%d__\\n" "$?"' EXIT; exec </dev/null; __tether_command=$1; set --; (eval "$__tether_command")`;
}

/**
 * End-of-file for anything that reads the terminal itself (ssh, sudo, read </dev/tty) instead of
 * stdin. Written at once and synchronously: node-pty's own write is queued, and a command that has
 * already exited by then has closed the descriptor.
 */
function sendEndOfFile(child: IPty): void {
  const fd = (child as IPty & { fd?: unknown }).fd;
  if (typeof fd !== 'number') {
    child.write('\x04');
    return;
  }
  try {
    writeSync(fd, '\x04');
  } catch {
    // The terminal is already gone: there is nothing left to read it.
  }
}

/**
 * Keeps our own descriptor of the PTY's terminal side open until the output has been read. Linux
 * answers a read of the PTY with EIO as soon as the last process holding the terminal exits, even
 * when its final output is still in flight, and node-pty then closes the PTY: without this, the
 * end of the output (or the end marker) is lost now and then.
 */
function holdTerminalOpen(child: IPty): { release(): void } {
  const name = (child as IPty & { ptsName?: unknown }).ptsName;
  let fd: number | null = null;
  if (typeof name === 'string' && name.startsWith('/dev/')) {
    try {
      // O_NOCTTY: the terminal must not become this process's controlling terminal.
      fd = openSync(name, fsConstants.O_RDWR | fsConstants.O_NOCTTY);
    } catch {
      // Already gone: the output is as complete as it will get.
    }
  }
  return {
    release(): void {
      if (fd === null) return;
      try {
        closeSync(fd);
      } catch {
        // Nothing to do: it is closed either way.
      }
      fd = null;
    },
  };
}

function bashPath(): string {
  return existsSync('/bin/bash') ? '/bin/bash' : 'bash';
}

function commandEnv(extra: Record<string, string> | undefined, policy: ShellEnvironment | undefined): Record<string, string> {
  const { env } = commandEnvironment(withCommandSearchPath(process.env), policy);
  for (const key of DROPPED_ENV) delete env[key];
  // Without a UTF-8 locale, tools print non-ASCII names as escapes or question marks.
  if (!env.LANG && !env.LC_ALL && !env.LC_CTYPE) env.LANG = 'C.UTF-8';
  Object.assign(env, NON_INTERACTIVE_ENV, extra);
  return env;
}

function assertDirectory(cwd: string, command: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    throw new Error(`Cannot run "${command}" in ${cwd}: that folder does not exist. Pass an existing folder as the working directory.`);
  }
  if (!isDirectory)
    throw new Error(`Cannot run "${command}" in ${cwd}: that is a file, not a folder. Pass a folder as the working directory.`);
}

function signalName(signal: number): string {
  for (const [name, value] of Object.entries(osConstants.signals)) if (value === signal) return name;
  return `signal ${signal}`;
}

/**
 * SIGTERM to the whole group (the shell is a session leader, so its group holds every child and
 * grandchild that did not leave it on purpose), SIGKILL to what is left after the grace.
 */
async function killProcessGroup(pgid: number, graceMs: number, onSignal: (signal: NodeJS.Signals) => void): Promise<void> {
  onSignal('SIGTERM');
  signalGroup(pgid, 'SIGTERM');
  // A stopped process acts on SIGTERM only once continued.
  signalGroup(pgid, 'SIGCONT');
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    await sleep(POLL_MS);
    if (!groupAlive(pgid)) return;
  }
  onSignal('SIGKILL');
  signalGroup(pgid, 'SIGKILL');
  for (let i = 0; i < 20 && groupAlive(pgid); i++) await sleep(POLL_MS);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  // Dead children of a dead shell stay zombies until init reaps them, and in a container init may
  // never do so; they still count for kill(0), so look for a member that is really running.
  return hasLiveMember(pgid);
}

function hasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Finds the end marker in the raw stream and holds back any tail that could be its beginning, so
 * the UI never sees a piece of it.
 */
class EndMarkerScanner {
  private pending = '';
  private readonly start: string;
  private readonly pattern: RegExp;

  constructor(nonce: string) {
    this.start = `__TETHER_END_${nonce}_`;
    this.pattern = new RegExp(`\\r?\\n${this.start}(\\d+)__`);
  }

  feed(chunk: string): { text: string; code: number | null } {
    this.pending += chunk;
    const match = this.pattern.exec(this.pending);
    if (match) {
      const text = this.pending.slice(0, match.index);
      this.pending = '';
      return { text, code: Number(match[1]) };
    }
    const keep = this.heldBack();
    const text = this.pending.slice(0, this.pending.length - keep);
    this.pending = this.pending.slice(this.pending.length - keep);
    return { text, code: null };
  }

  /** What was held back, once it is clear no marker will come. */
  flush(): string {
    const text = this.pending;
    this.pending = '';
    return text;
  }

  private heldBack(): number {
    const text = this.pending;
    const newline = text.lastIndexOf('\n');
    if (newline >= 0 && this.couldStartMarker(text.slice(newline + 1))) {
      return text.length - (text[newline - 1] === '\r' ? newline - 1 : newline);
    }
    return text.endsWith('\r') ? 1 : 0;
  }

  private couldStartMarker(rest: string): boolean {
    if (rest.length <= this.start.length) return this.start.startsWith(rest);
    return rest.startsWith(this.start) && /^\d*_?$/.test(rest.slice(this.start.length));
  }
}

// CSI, OSC (ended by BEL or ST), DCS/SOS/PM/APC strings, and the two- and three-byte escapes.
const ANSI_PATTERN = new RegExp(
  [
    '\\x1b\\[[0-?]*[ -/]*[@-~]',
    '\\x9b[0-?]*[ -/]*[@-~]',
    '\\x1b\\][^\\x07\\x1b\\n]*(?:\\x07|\\x1b\\\\)?',
    '\\x1b[PX^_][^\\x1b]*(?:\\x1b\\\\)?',
    '\\x1b[ -/]+[0-~]',
    '\\x1b[0-~]',
  ].join('|'),
  'g',
);

/**
 * What the model reads: the text a terminal would finally show, roughly. Escapes go, line ends are
 * plain \n, a line redrawn with \r (progress bars) keeps its last state, backspaces erase.
 */
function normalizeOutput(raw: string): string {
  let text = raw.replace(ANSI_PATTERN, '').replace(/\r+\n/g, '\n');
  if (text.includes('\r')) {
    text = text
      .split('\n')
      .map((line) => {
        const states = line.split('\r').filter((state) => state !== '');
        return states[states.length - 1] ?? '';
      })
      .join('\n');
  }
  if (text.includes('\b')) {
    let previous: string;
    do {
      previous = text;
      text = text.replace(/[^\n\b]\x08/g, '');
    } while (text !== previous);
  }
  // Other control characters (bell, shift-in/out, a stray EOF) mean nothing on paper.
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

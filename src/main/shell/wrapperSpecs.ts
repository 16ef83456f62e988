import path from 'node:path';
import type { OptionSpec } from './scanOptions';

/**
 * What each program that runs another program is, in one place: the analysis unwraps the ones it
 * can read (their options are below), the engine decides which wrappers a rule must name, and Allow
 * always never offers a prefix for any of them.
 */
export interface WrapperTraits {
  /**
   * Only limits, times or detaches the program (timeout, nice, nohup): a rule for that program covers
   * it through this wrapper, and the wrapper needs no rule of its own. Any other wrapper must be
   * allowed by a rule that names it, and the program inside by a rule of its own.
   */
  transparent?: boolean;
  /** Runs the program as another user: never read-only. */
  privileged?: boolean;
  /**
   * Runs a program taken from its arguments that the analysis does not take apart (strace, flock,
   * chroot): deny and ask rules are matched against every tail of its arguments too, so `rm *` denies
   * `flock /tmp/l rm -rf x`.
   */
  opaque?: boolean;
  /**
   * Its first operand is the program it runs, by name (`npx vitest`, `uvx ruff`): the options that
   * make that program run another (exec-options) count as if it ran alone.
   */
  namesProgram?: boolean;
}

export const WRAPPERS: Readonly<Record<string, WrapperTraits>> = {
  timeout: { transparent: true },
  time: { transparent: true },
  nice: { transparent: true },
  nohup: { transparent: true },
  stdbuf: { transparent: true },
  ionice: { transparent: true },
  setsid: { transparent: true },
  command: { transparent: true },
  exec: { transparent: true },
  builtin: {},
  env: {},
  xargs: {},
  watch: {},
  find: {},
  trap: {},
  eval: {},
  sudo: { privileged: true },
  doas: { privileged: true },
  su: { privileged: true },
  runuser: { privileged: true },
  pkexec: { privileged: true },
  chroot: { privileged: true, opaque: true },
  unshare: { opaque: true },
  nsenter: { privileged: true, opaque: true },
  setpriv: { opaque: true },
  flock: { opaque: true },
  taskset: { opaque: true },
  chrt: { opaque: true },
  strace: { opaque: true },
  ltrace: { opaque: true },
  valgrind: { opaque: true },
  catchsegv: { opaque: true },
  'systemd-run': { opaque: true },
  firejail: { opaque: true },
  parallel: { opaque: true },
  busybox: { opaque: true },
  script: { opaque: true },
  fakeroot: { opaque: true },
  numactl: { opaque: true },
  toybox: { opaque: true },
  coreutils: { opaque: true },
  sg: { opaque: true },
  newgrp: { opaque: true },
  'dbus-run-session': { opaque: true },
  'xvfb-run': { opaque: true },
  tmux: { opaque: true },
  screen: { opaque: true },
  at: { opaque: true },
  batch: { opaque: true },
  cpulimit: { opaque: true },
  prlimit: { opaque: true },
  faketime: { opaque: true },
  unbuffer: { opaque: true },
  expect: { opaque: true },
  sshpass: { opaque: true },
  gosu: { privileged: true, opaque: true },
  'su-exec': { privileged: true, opaque: true },
  setuidgid: { privileged: true, opaque: true },
  chpst: { opaque: true },
  'systemd-inhibit': { opaque: true },
  caffeinate: { opaque: true },
  proot: { opaque: true },
  bwrap: { opaque: true },
  torsocks: { opaque: true },
  proxychains: { opaque: true },
  proxychains4: { opaque: true },
  tini: { opaque: true },
  'dumb-init': { opaque: true },
  entr: { opaque: true },
  watchexec: { opaque: true },
  gdb: { opaque: true },
  npx: { opaque: true, namesProgram: true },
  pnpx: { opaque: true, namesProgram: true },
  bunx: { opaque: true, namesProgram: true },
  uvx: { opaque: true, namesProgram: true },
};

/**
 * What a runner's subcommand runs: a program named by the next word after the subcommand's options
 * (`uv run pytest`, `bundle exec rake`), whose exec-options then count as if it ran alone; or code
 * that word does not name as a program: a package it builds or fetches (`go run ./cmd`, `nix run
 * .#app`), a script (`deno run x.ts`), or a program further on (`direnv exec DIR cmd`, `uv tool run cmd`).
 */
type RunnerRuns = 'program' | 'code';

/** A program whose subcommands run whatever they are given (`npm exec rm …`, `uv run …`). */
interface RunnerTraits {
  subcommands: Readonly<Record<string, RunnerRuns>>;
  /**
   * Any other first word may be a package's own program, which it runs (`yarn jest`, `pnpm vitest`,
   * `bun vitest`): a program named by its package, so not a hidden one, but its exec-options count.
   */
  packagePrograms?: boolean;
}

/**
 * The runners, one table: the analysis of hidden programs (a deny rule cannot see what they run),
 * the exec-option lookup (the options of the program they run) and Allow always (never a prefix on
 * one) all read it. `bun run` also runs a file, a package's program or any program on PATH (`bun run
 * ls`), as its documentation says, so it is a runner like `bun x`, not only a script runner like `npm run`.
 */
const RUNNERS: Readonly<Record<string, RunnerTraits>> = {
  npm: { subcommands: { exec: 'program', x: 'program' } },
  pnpm: { subcommands: { exec: 'program', dlx: 'program' }, packagePrograms: true },
  yarn: { subcommands: { exec: 'program', dlx: 'program' }, packagePrograms: true },
  bun: { subcommands: { x: 'program', run: 'program' }, packagePrograms: true },
  uv: { subcommands: { run: 'program', tool: 'code' } },
  pipx: { subcommands: { run: 'program' } },
  poetry: { subcommands: { run: 'program' } },
  pdm: { subcommands: { run: 'program' } },
  hatch: { subcommands: { run: 'program' } },
  rye: { subcommands: { run: 'program' } },
  bundle: { subcommands: { exec: 'program' } },
  conda: { subcommands: { run: 'program' } },
  mamba: { subcommands: { run: 'program' } },
  mise: { subcommands: { exec: 'program' } },
  asdf: { subcommands: { exec: 'program' } },
  direnv: { subcommands: { exec: 'code' } },
  go: { subcommands: { run: 'code' } },
  cargo: { subcommands: { script: 'code' } },
  dotnet: { subcommands: { exec: 'code' } },
  gh: { subcommands: { extension: 'code' } },
  deno: { subcommands: { run: 'code' } },
  nix: { subcommands: { run: 'code' } },
};

/** Whether some subcommand of `program` (a base name) runs whatever it is given. */
export function isRunner(program: string): boolean {
  return Object.hasOwn(RUNNERS, program);
}

/** A runner subcommand on a command line: the subcommand's place in argv, as written, and what it runs. */
export interface RunnerSubcommand {
  index: number;
  words: string;
  runs: RunnerRuns;
}

/**
 * The runner subcommand `argv` starts with (`npm exec`, `uv run`, `go run`): the first word after the
 * program that is not an option. `argv[0]` is the program as it runs (a path counts by its base name).
 */
export function runnerSubcommand(argv: readonly string[]): RunnerSubcommand | undefined {
  const program = path.posix.basename(argv[0] ?? '');
  const runner = Object.hasOwn(RUNNERS, program) ? RUNNERS[program]! : undefined;
  if (!runner) return undefined;
  const index = argv.findIndex((word, i) => i > 0 && !word.startsWith('-'));
  const word = argv[index] ?? '';
  if (index < 0 || !Object.hasOwn(runner.subcommands, word)) return undefined;
  return { index, words: `${program} ${word}`, runs: runner.subcommands[word]! };
}

/**
 * Where the program a runner runs by name starts in argv (`npx vitest`, `uv run pytest`, `yarn jest`),
 * or undefined when argv runs no program by name through a runner. `isProgram` says which words are
 * programs worth reaching (a package's program right after the runner is only taken for one of those).
 */
export function runnerProgramAt(argv: readonly string[], isProgram: (word: string) => boolean): number | undefined {
  const program = path.posix.basename(argv[0] ?? '');
  let i = 1;
  if (!WRAPPERS[program]?.namesProgram) {
    const runner = Object.hasOwn(RUNNERS, program) ? RUNNERS[program]! : undefined;
    if (!runner) return undefined;
    const subcommand = runnerSubcommand(argv);
    if (subcommand?.runs === 'program') i = subcommand.index + 1;
    else {
      while (i < argv.length && argv[i]!.startsWith('-')) i++;
      if (subcommand || !runner.packagePrograms || !isProgram(argv[i] ?? '')) return undefined;
    }
  }
  while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '--') i++;
  if (argv[i] === '--') i++;
  return i < argv.length ? i : undefined;
}

export function isTransparentWrapper(name: string): boolean {
  return WRAPPERS[name]?.transparent === true;
}

export function isPrivilegedWrapper(name: string): boolean {
  return WRAPPERS[name]?.privileged === true;
}

export function isOpaqueRunner(name: string): boolean {
  return WRAPPERS[name]?.opaque === true;
}

/**
 * How the programs that run another program read their own options, so the analysis knows where the
 * wrapped command starts. All of them stop at their first operand (getopt's "+" mode), as the real
 * tools do; an option not listed here makes the line unpinnable rather than guessed at.
 */
export const wrapperSpecs: Readonly<Record<string, OptionSpec>> = {
  timeout: {
    shortWithValue: 'sk',
    shortFlags: 'v',
    longWithValue: ['signal', 'kill-after'],
    longFlags: ['preserve-status', 'foreground', 'verbose'],
    stopAtFirstOperand: true,
  },
  nice: { shortWithValue: 'n', longWithValue: ['adjustment'], numericOption: true, stopAtFirstOperand: true },
  nohup: { stopAtFirstOperand: true },
  stdbuf: { shortWithValue: 'ioe', longWithValue: ['input', 'output', 'error'], stopAtFirstOperand: true },
  ionice: {
    shortWithValue: 'cnpPu',
    shortFlags: 't',
    longWithValue: ['class', 'classdata', 'pid', 'pgid', 'uid'],
    longFlags: ['ignore'],
    stopAtFirstOperand: true,
  },
  setsid: { shortFlags: 'cfw', longFlags: ['ctty', 'fork', 'wait'], stopAtFirstOperand: true },
  env: {
    shortWithValue: 'uCS',
    shortFlags: 'i0v',
    longWithValue: ['unset', 'chdir', 'split-string'],
    longOptionalValue: ['block-signal', 'default-signal', 'ignore-signal'],
    longFlags: ['ignore-environment', 'null', 'debug', 'list-signal-handling'],
    stopAtFirstOperand: true,
  },
  xargs: {
    shortWithValue: 'aEIdLnPs',
    shortOptionalValue: 'eil',
    shortFlags: '0prtxo',
    longWithValue: ['arg-file', 'delimiter', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
    longOptionalValue: ['eof', 'replace'],
    longFlags: ['null', 'interactive', 'no-run-if-empty', 'verbose', 'exit', 'show-limits', 'open-tty'],
    stopAtFirstOperand: true,
  },
  sudo: {
    shortWithValue: 'CDghpRrtTUu',
    shortFlags: 'AbEeHiKklnPSsVv',
    longWithValue: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'type', 'command-timeout', 'other-user', 'user'],
    longOptionalValue: ['preserve-env'],
    longFlags: [
      'askpass',
      'background',
      'bell',
      'edit',
      'set-home',
      'login',
      'remove-timestamp',
      'reset-timestamp',
      'list',
      'non-interactive',
      'preserve-groups',
      'stdin',
      'shell',
      'validate',
    ],
    stopAtFirstOperand: true,
  },
  doas: { shortWithValue: 'aCu', shortFlags: 'Lns', stopAtFirstOperand: true },
  pkexec: { longWithValue: ['user'], longFlags: ['disable-internal-agent', 'keep-cwd'], stopAtFirstOperand: true },
  su: {
    shortWithValue: 'cgGsw',
    shortFlags: 'lmpfP',
    longWithValue: ['command', 'session-command', 'group', 'supp-group', 'shell', 'whitelist-environment'],
    longFlags: ['login', 'preserve-environment', 'fast', 'pty'],
    stopAtFirstOperand: true,
  },
  runuser: {
    shortWithValue: 'ugGcsw',
    shortFlags: 'lmpfPT',
    longWithValue: ['user', 'group', 'supp-group', 'command', 'session-command', 'shell', 'whitelist-environment'],
    longFlags: ['login', 'preserve-environment', 'pty', 'fast'],
    stopAtFirstOperand: true,
  },
  watch: {
    shortWithValue: 'nq',
    shortOptionalValue: 'd',
    shortFlags: 'bceghptwrx',
    longWithValue: ['interval', 'equexit'],
    longOptionalValue: ['differences'],
    longFlags: ['beep', 'color', 'no-color', 'errexit', 'chgexit', 'precise', 'no-title', 'no-wrap', 'no-rerun', 'exec', 'no-linewrap'],
    stopAtFirstOperand: true,
  },
  command: { shortFlags: 'pvV', stopAtFirstOperand: true },
  exec: { shortWithValue: 'a', shortFlags: 'cl', stopAtFirstOperand: true },
};

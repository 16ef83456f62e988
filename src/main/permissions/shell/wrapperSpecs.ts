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
  npx: { opaque: true },
  pnpx: { opaque: true },
  bunx: { opaque: true },
  uvx: { opaque: true },
};

/** `<program> <word>` pairs that run whatever they are given (`npm exec rm …`, `uv run …`). */
export const RUNNER_SUBCOMMANDS: ReadonlySet<string> = new Set([
  'npm exec',
  'npm x',
  'pnpm dlx',
  'pnpm exec',
  'yarn dlx',
  'yarn exec',
  'uv run',
  'uv tool',
  'pipx run',
  'poetry run',
  'pdm run',
  'hatch run',
  'go run',
  'cargo script',
  'bundle exec',
  'conda run',
  'mamba run',
  'dotnet exec',
  'gh extension',
  'deno run',
  'bun x',
  'rye run',
  'nix run',
  'mise exec',
  'asdf exec',
  'direnv exec',
]);

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

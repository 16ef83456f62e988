import type { OptionSpec } from './scanOptions';

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

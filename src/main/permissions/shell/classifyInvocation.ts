import { classifyGit } from './classifyGit';
import { globMatches } from './globMatches';
import type { Word } from './readWord';
import { couldBeLongOption, scanOptions } from './scanOptions';
import { sedScriptEffect } from './sedScriptEffect';

/**
 * What one program does with its arguments, judged from the program's name and arguments alone
 * (where it resolves, wrappers and redirections are the analysis's business):
 *   readOnly: on the built-in read-only list, with arguments that keep it reading only;
 *   local: known not to reach the network, nor to start other programs that could.
 *
 * Unknown programs are neither: anything the engine does not know may reach the network. So are
 * interpreters (node, python, bash ... run scripts that may do anything), package managers, build
 * tools and test runners (make, cargo, npm test, jest, vitest, pytest, eslint and prettier load
 * project code or configuration written in code). tsc counts as local: its configuration is JSON
 * and it runs no project code.
 */
export interface InvocationClass {
  readOnly: boolean;
  local: boolean;
}

export interface InvocationContext {
  /** Where the command runs is known to be inside the workspace (no `cd` elsewhere earlier in the line). */
  cwdInWorkspace: boolean;
  /** Whether a directory argument (cd, git -C) stays inside the workspace. */
  directoryInWorkspace(dir: string): boolean;
}

type Rule = (args: readonly Word[], context: InvocationContext) => InvocationClass;

const READS: InvocationClass = { readOnly: true, local: true };
const LOCAL: InvocationClass = { readOnly: false, local: true };
const UNKNOWN: InvocationClass = { readOnly: false, local: false };

/** Read-only whatever their arguments, even ones that expand at run time: no option of theirs writes or runs anything. */
const ANY_ARGUMENTS = [
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'ls',
  'pwd',
  'echo',
  'true',
  'false',
  ':',
  'which',
  'type',
  'stat',
  'du',
  'df',
  'nl',
  'tac',
  'cut',
  'tr',
  'diff',
  'cmp',
  'comm',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'uname',
  'whoami',
  'id',
  'seq',
  'jq',
  'paste',
  'rev',
  'expr',
  'numfmt',
  'printenv',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'cksum',
  'nproc',
  'arch',
  'sleep',
  'test',
  '[',
];

/**
 * Builtins that only change the shell's own state (variables, options, flow). What could make them
 * dangerous (a variable that changes what runs, set -k, mapfile -C, a trap's action) is judged by the
 * analysis before it gets here.
 */
export const SHELL_STATE: readonly string[] = [
  'read',
  'getopts',
  'shift',
  'set',
  'shopt',
  'wait',
  'exit',
  'return',
  'break',
  'continue',
  'times',
  'jobs',
  'dirs',
  'let',
  'mapfile',
  'readarray',
  'trap',
  'unalias',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
];

/** Change files or processes on this machine, and start nothing else. */
const LOCAL_ONLY = [
  'mkdir',
  'rmdir',
  'rm',
  'cp',
  'mv',
  'touch',
  'chmod',
  'chown',
  'chgrp',
  'ln',
  'tee',
  'install',
  'truncate',
  'mktemp',
  'split',
  'csplit',
  'patch',
  'gzip',
  'gunzip',
  'zcat',
  'bzip2',
  'bunzip2',
  'xz',
  'unxz',
  'zstd',
  'unzstd',
  'unzip',
  'kill',
  'ps',
  'clear',
  'tsc',
  'pushd',
  'popd',
  'umask',
  'ulimit',
  'hash',
  'exec',
  'alias',
  'builtin',
  'disown',
  'bg',
  'fg',
];

const RULES = new Map<string, Rule>();
for (const name of [...ANY_ARGUMENTS, ...SHELL_STATE]) RULES.set(name, () => READS);
for (const name of LOCAL_ONLY) RULES.set(name, () => LOCAL);

/** The arguments as plain strings, or null when one of them is only known at run time. */
function literal(args: readonly Word[]): string[] | null {
  const values: string[] = [];
  for (const arg of args) {
    if (arg.kind !== 'literal') return null;
    values.push(arg.text);
  }
  return values;
}

interface OptionTest {
  /** Short letters that must not appear. */
  short?: string;
  /** Long options that must not appear, nor any abbreviation of them. */
  long?: readonly string[];
  /** Short letters that take a value: in `-ko` the o is the key, not an option. */
  shortWithValue?: string;
}

/**
 * True when any argument is (or could be, by abbreviation) one of the options. Values are not
 * skipped, so a value that looks like the option counts too: a needless question, never a miss.
 */
function usesOption(args: readonly string[], test: OptionTest): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg.startsWith('--')) {
      if ((test.long ?? []).some((name) => couldBeLongOption(arg, name))) return true;
      continue;
    }
    if (!arg.startsWith('-') || arg.length < 2) continue;
    for (const letter of arg.slice(1)) {
      if ((test.short ?? '').includes(letter)) return true;
      if ((test.shortWithValue ?? '').includes(letter)) break;
    }
  }
  return false;
}

/** Read-only unless a forbidden option appears; an argument known only at run time could be one. */
function readsUnless(test: OptionTest, whenForbidden: InvocationClass = LOCAL): Rule {
  return (args) => {
    const values = literal(args);
    if (!values) return { readOnly: false, local: whenForbidden.local };
    return usesOption(values, test) ? whenForbidden : READS;
  };
}

RULES.set('sort', (args) => {
  const values = literal(args);
  if (!values) return UNKNOWN;
  // --compress-program runs a program of the caller's choosing; -o only writes.
  if (usesOption(values, { long: ['compress-program'] })) return UNKNOWN;
  return usesOption(values, { short: 'o', long: ['output'], shortWithValue: 'ktST' }) ? LOCAL : READS;
});
RULES.set('base64', readsUnless({ short: 'o', long: ['output'], shortWithValue: 'bwi' }));
RULES.set('file', readsUnless({ short: 'C', long: ['compile'], shortWithValue: 'mefFP' }));
// -o writes the listing to a file; -R with -H writes 00Tree.html into every directory.
RULES.set('tree', readsUnless({ short: 'oR', long: ['output'], shortWithValue: 'LPIHTX' }));
// --pre and --hostname-bin run a program of the caller's choosing; -z runs decompressors.
RULES.set(
  'rg',
  readsUnless({ short: 'z', long: ['pre', 'pre-glob', 'hostname-bin', 'search-zip'], shortWithValue: 'ABCEefgjMmrtTd' }, UNKNOWN),
);

RULES.set('printf', (args) => {
  // printf -v NAME assigns a shell variable instead of printing.
  const first = args[0];
  if (!first) return READS;
  if (first.kind !== 'literal') return LOCAL;
  return first.text.startsWith('-v') ? LOCAL : READS;
});

RULES.set('uniq', (args) => {
  const values = literal(args);
  if (!values) return LOCAL;
  const scan = scanOptions(values, {
    shortWithValue: 'fsw',
    shortFlags: 'cdDiuz',
    longWithValue: ['skip-fields', 'skip-chars', 'check-chars'],
    longOptionalValue: ['all-repeated', 'group'],
    longFlags: ['count', 'repeated', 'ignore-case', 'unique', 'zero-terminated', 'help', 'version'],
    numericOption: true,
  });
  // A second operand is the output file.
  return scan.ok && scan.operands.length <= 1 ? READS : LOCAL;
});

RULES.set('date', (args) => {
  const values = literal(args);
  if (!values) return LOCAL;
  const scan = scanOptions(values, {
    shortWithValue: 'dfrs',
    shortOptionalValue: 'I',
    shortFlags: 'Ru',
    longWithValue: ['date', 'file', 'reference', 'set', 'rfc-3339', 'resolution'],
    longOptionalValue: ['iso-8601'],
    longFlags: ['rfc-email', 'rfc-2822', 'utc', 'universal', 'debug', 'help', 'version'],
  });
  if (!scan.ok) return LOCAL;
  // -s, and an operand that is not a +FORMAT, set the clock.
  const sets =
    scan.options.some((option) => option.name === 's' || option.name === 'set') ||
    scan.operands.some((operand) => !operand.value.startsWith('+'));
  return sets ? LOCAL : READS;
});

const FIND_UNSAFE = ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf'];

RULES.set('find', (args) => {
  // Every -exec command is a command of its own in the analysis; here find itself is judged.
  for (const arg of args) {
    if (arg.kind === 'dynamic') return LOCAL;
    if (arg.kind === 'pattern' && FIND_UNSAFE.some((unsafe) => globMatches(arg.text, unsafe))) return LOCAL;
    if (arg.kind === 'literal' && FIND_UNSAFE.includes(arg.text)) return LOCAL;
  }
  return READS;
});

RULES.set('sed', (args) => {
  const values = literal(args);
  if (!values) return UNKNOWN;
  const scan = scanOptions(values, {
    shortWithValue: 'efl',
    shortOptionalValue: 'iI',
    shortFlags: 'nrEsuz',
    longWithValue: ['expression', 'file', 'line-length'],
    longOptionalValue: ['in-place'],
    longFlags: [
      'quiet',
      'silent',
      'regexp-extended',
      'separate',
      'unbuffered',
      'null-data',
      'posix',
      'debug',
      'sandbox',
      'follow-symlinks',
      'binary',
      'help',
      'version',
    ],
  });
  if (!scan.ok) return UNKNOWN;
  // A script read from a file cannot be judged from here.
  if (scan.options.some((option) => option.name === 'f' || option.name === 'file')) return UNKNOWN;
  const inPlace = scan.options.some((option) => option.name === 'i' || option.name === 'I' || option.name === 'in-place');
  const scripts = scan.options.filter((option) => option.name === 'e' || option.name === 'expression').map((option) => option.value ?? '');
  if (scripts.length === 0) {
    const first = scan.operands[0];
    if (!first) return UNKNOWN;
    scripts.push(first.value);
  }
  const effect = sedScriptEffect(scripts.join('\n'));
  if (effect === 'reads') return inPlace ? LOCAL : READS;
  return effect === 'writes' ? LOCAL : UNKNOWN;
});

RULES.set('git', (args, context) => {
  const values = literal(args);
  if (!values) return UNKNOWN;
  const { readOnly, local } = classifyGit(values, context);
  return { readOnly, local };
});

RULES.set('cd', (args, context) => {
  const values = literal(args);
  if (!values) return LOCAL;
  const operands = values.filter((value) => !/^-[LPe@]+$/.test(value));
  // No operand is $HOME; `cd -` is wherever the shell was before: both outside what we know.
  if (operands.length !== 1 || operands[0] === '-') return LOCAL;
  return context.directoryInWorkspace(operands[0]!) ? READS : LOCAL;
});

RULES.set('env', (args) => {
  // Only reached when env runs no command: it prints the environment.
  return literal(args) ? READS : LOCAL;
});

RULES.set('command', (args) => {
  // `command -v name` and `command -V name` only describe; a wrapped command is analysed on its own.
  const first = args[0];
  return first?.kind === 'literal' && /^-p?[vV]/.test(first.text) ? READS : LOCAL;
});

RULES.set('tar', (args) => {
  const values = literal(args);
  if (!values) return UNKNOWN;
  // These start other programs; an archive named host:path is fetched over rsh/ssh.
  const runs = usesOption(values, {
    short: 'IF',
    long: ['to-command', 'use-compress-program', 'rsh-command', 'checkpoint-action', 'info-script', 'new-volume-script', 'rmt-command'],
    shortWithValue: 'fCbHgKLNTVX',
  });
  return runs || values.some((value) => /^[^/.-][^/]*:/.test(value)) ? UNKNOWN : LOCAL;
});

/** Classifies `name args...`, where name is the program's base name (`/usr/bin/rg` is rg). */
export function classifyInvocation(name: string, args: readonly Word[], context: InvocationContext): InvocationClass {
  const rule = RULES.get(name);
  return rule ? rule(args, context) : UNKNOWN;
}

/** True for programs whose arguments the read-only list judges (for tests and documentation). */
export function isOnReadOnlyList(name: string): boolean {
  const rule = RULES.get(name);
  return rule !== undefined && !LOCAL_ONLY.includes(name) && !SHELL_STATE.includes(name) && name !== 'tar';
}

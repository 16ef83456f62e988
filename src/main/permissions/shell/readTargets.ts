import path from 'node:path';
import type { ReadTarget } from '../commandAnalysis';
import type { Word } from './readWord';

/**
 * The files and folders a read-only command's line names, so that the engine can tell a read inside
 * the workspace (`cat src/a.ts`) from one outside it (`cat /etc/passwd`, `wc -l < ~/.netrc`,
 * `grep -f /etc/shadow x`, `cd .. && cat x`), as read_file does.
 *
 * Any operand may be a path, and so may an option's value that looks like one. A word only known
 * when it runs, or one the shell may turn into `..` (a brace, `.*`), has no place: it asks.
 */

/**
 * Where relative paths start from: the folder, and whether the shell is surely there. After a cd that
 * may have failed or been skipped (`cd a; x`, `cd a || x`), it may still be in one of the folders before.
 */
export interface Cwd {
  dir: string;
  certain: boolean;
  /** The folders the shell may still be in when not certain. */
  alternatives?: readonly string[];
}

/** Read-only programs whose arguments name no file they read. */
const NAMES_NO_FILE = new Set([
  'echo', 'printf', 'true', 'false', ':', 'pwd', 'which', 'type', 'command', 'basename', 'dirname', 'uname', 'whoami', 'id',
  'seq', 'expr', 'numfmt', 'printenv', 'nproc', 'arch', 'sleep', 'test', '[', 'tr', 'date', 'hostname', 'tty', 'locale',
  'getconf', 'groups', 'yes', 'env', 'read', 'getopts', 'shift', 'set', 'shopt', 'wait', 'exit', 'return', 'break',
  'continue', 'times', 'jobs', 'dirs', 'let', 'mapfile', 'readarray', 'trap', 'unalias', 'declare', 'typeset', 'local',
  'export', 'readonly', 'unset', 'hash', 'help', 'popd',
]);

/** Programs whose first operand is a pattern or a program, not a file, unless one is given by option. */
const FIRST_OPERAND_IS_PROGRAM: Record<string, { unless: RegExp }> = {
  grep: { unless: /^(-[^-]*[ef]|--(regexp|file)(=|$))/ },
  egrep: { unless: /^(-[^-]*[ef]|--(regexp|file)(=|$))/ },
  fgrep: { unless: /^(-[^-]*[ef]|--(regexp|file)(=|$))/ },
  rg: { unless: /^(-[^-]*[ef]|--(regexp|file|files|type-list)(=|$))/ },
  sed: { unless: /^(-[^-]*[ef]|--(expression|file)(=|$))/ },
  awk: { unless: /^(-[^-]*f|--file(=|$))/ },
  gawk: { unless: /^(-[^-]*f|--file(=|$))/ },
  jq: { unless: /^(-[^-]*f|--from-file(=|$))/ },
};

/** Device files that are no file anybody keeps. */
const NOT_FILES = new Set(['-', '/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/stdin', '/dev/fd/0', '/dev/stdout', '/dev/stderr']);

/** What a read-only command named `program` reads of its arguments. */
export function argumentReads(program: string, args: readonly Word[], cwd: Cwd | null): ReadTarget[] {
  if (NAMES_NO_FILE.has(program)) return [];
  if (program === 'cd' || program === 'pushd') return directoryRead(args, cwd);
  const skipFirst = FIRST_OPERAND_IS_PROGRAM[program];
  let skipping = skipFirst !== undefined && !args.some((word) => word.kind === 'literal' && skipFirst.unless.test(word.text));
  const reads: ReadTarget[] = [];
  let options = true;
  for (const word of args) {
    if (options && word.kind === 'literal' && word.text === '--') {
      options = false;
      continue;
    }
    if (options && word.kind === 'literal' && word.text.startsWith('-') && word.text !== '-') {
      // git's option values are revisions, patterns and formats; its files are operands.
      if (program === 'git') continue;
      const value = optionValue(word.text);
      if (value !== undefined) pushTarget(reads, { ...word, text: value, source: value }, cwd);
      continue;
    }
    if (skipping) {
      skipping = false;
      continue;
    }
    pushTarget(reads, word, cwd);
  }
  return reads;
}

/** What an input redirection (`< file`) reads. */
export function redirectRead(word: Word, cwd: Cwd | null): ReadTarget[] {
  const reads: ReadTarget[] = [];
  pushTarget(reads, word, cwd);
  return reads;
}

function directoryRead(args: readonly Word[], cwd: Cwd | null): ReadTarget[] {
  const operand = args.find((word) => !(word.kind === 'literal' && word.text.startsWith('-') && word.text !== '-'));
  // `cd` alone goes home; `cd -` goes back to $OLDPWD, which may be anywhere.
  if (!operand) return [{ shown: '~ (cd with no folder)', path: '~' }];
  if (operand.kind === 'literal' && operand.text === '-') return [{ shown: 'cd - ($OLDPWD)' }];
  const reads: ReadTarget[] = [];
  pushTarget(reads, operand, cwd);
  return reads;
}

/** `--file=x` and `-f/x`: the value when it could be a path; plain flags have none. */
function optionValue(text: string): string | undefined {
  const equals = text.indexOf('=');
  if (text.startsWith('--')) return equals > 0 ? text.slice(equals + 1) : undefined;
  const attached = /^-[A-Za-z0-9]+((?:\/|~\/|\.\.?\/)\S+)$/.exec(text);
  return attached?.[1];
}

function pushTarget(reads: ReadTarget[], word: Word, cwd: Cwd | null): void {
  const target = locate(word, cwd);
  if (Array.isArray(target)) reads.push(...target);
  else if (target) reads.push(target);
}

function locate(word: Word, cwd: Cwd | null): ReadTarget | ReadTarget[] | null {
  const shown = word.source;
  if (word.kind === 'dynamic') {
    // A tilde with nothing else to expand is the home folder: the engine knows where that is.
    if (/^~(\/[A-Za-z0-9._@+,:/-]*)?$/.test(word.source)) return { shown, path: path.posix.normalize(word.source) };
    return { shown };
  }
  const text = word.text;
  if (text === '' || NOT_FILES.has(text)) return null;
  if (word.kind === 'pattern' && (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(text) || /(^|\/)\.[^/]*[*?[]/.test(text) || text.startsWith('~'))) {
    // A brace or a dot-glob may expand to `..`, which climbs out.
    return { shown };
  }
  if (path.isAbsolute(text)) return { shown, path: path.normalize(text) };
  if (cwd === null) return { shown };
  const here = path.resolve(cwd.dir, text);
  if (cwd.certain || !text.split('/').includes('..')) return { shown, path: here };
  // The shell may be in any of the folders it was in, and `..` from each leads somewhere else: each is a place it may read.
  const places = new Set([here, ...(cwd.alternatives ?? []).map((dir) => path.resolve(dir, text))]);
  return [...places].map((place) => ({ shown, path: place }));
}

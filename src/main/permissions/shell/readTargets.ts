import path from 'node:path';
import type { ReadTarget } from '../commandAnalysis';
import type { Word } from './readWord';
import { SHELL_STATE } from './classifyInvocation';
import { couldBeLongOption } from './scanOptions';

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

/** Read-only programs whose arguments name no file they read, and the builtins that only change the shell's state. */
const NAMES_NO_FILE = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'pwd',
  'which',
  'type',
  'command',
  'basename',
  'dirname',
  'uname',
  'whoami',
  'id',
  'seq',
  'expr',
  'numfmt',
  'printenv',
  'nproc',
  'arch',
  'sleep',
  'test',
  '[',
  'tr',
  'date',
  'hostname',
  'tty',
  'locale',
  'getconf',
  'groups',
  'yes',
  'env',
  ...SHELL_STATE,
  'hash',
  'help',
  'popd',
]);

/**
 * Programs whose first operand is a pattern or a program, not a file, unless one is given by an
 * option (a long one may be abbreviated: `grep --rege=x file`).
 */
const FIRST_OPERAND_IS_PROGRAM: Record<string, { short: string; long: readonly string[] }> = {
  grep: { short: 'ef', long: ['regexp', 'file'] },
  egrep: { short: 'ef', long: ['regexp', 'file'] },
  fgrep: { short: 'ef', long: ['regexp', 'file'] },
  rg: { short: 'ef', long: ['regexp', 'file', 'files', 'type-list'] },
  sed: { short: 'ef', long: ['expression', 'file'] },
  awk: { short: 'f', long: ['file'] },
  gawk: { short: 'f', long: ['file'] },
  jq: { short: 'f', long: ['from-file'] },
};

/** Options that make a reading program follow symlinks as it walks folders, out of the workspace too. */
const FOLLOWS_LINKS: Record<string, { short: string; long: readonly string[] }> = {
  grep: { short: 'R', long: ['dereference-recursive'] },
  egrep: { short: 'R', long: ['dereference-recursive'] },
  fgrep: { short: 'R', long: ['dereference-recursive'] },
  rg: { short: 'L', long: ['follow'] },
  find: { short: 'LH', long: [] },
  ls: { short: 'L', long: ['dereference'] },
  du: { short: 'LD', long: ['dereference', 'dereference-args'] },
  tree: { short: 'l', long: [] },
  wc: { short: '', long: ['files0-from'] },
};

function usesAny(args: readonly Word[], options: { short: string; long: readonly string[] }, wordOptions: readonly string[] = []): boolean {
  for (const word of args) {
    if (word.kind !== 'literal') continue;
    const text = word.text;
    if (text === '--') return false;
    if (text.startsWith('--')) {
      if (options.long.some((name) => couldBeLongOption(text, name))) return true;
    } else if (text.startsWith('-') && text.length > 1) {
      if (wordOptions.includes(text.slice(1))) return true;
      if ([...text.slice(1)].some((letter) => options.short.includes(letter))) return true;
    }
  }
  return false;
}

/** Device files that are no file anybody keeps. */
const NOT_FILES = new Set([
  '-',
  '/dev/null',
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/stdin',
  '/dev/fd/0',
  '/dev/stdout',
  '/dev/stderr',
]);

/** What a read-only command named `program` reads of its arguments. */
/**
 * What a command named `program` reads of its arguments. For a read-only command every operand and
 * option value may be a path, and one only known when it runs could be any. For any other command
 * (`git commit -F ~/.netrc`, `cp /etc/hosts .`) the words spelled out count: a read the person can
 * see on the line is still a read, while what an allowed program does with `$X` is its own business.
 */
export function argumentReads(program: string, args: readonly Word[], cwd: Cwd | null, readOnly = true): ReadTarget[] {
  if (NAMES_NO_FILE.has(program)) return [];
  if (program === 'cd' || program === 'pushd') return directoryRead(args, cwd);
  const skipFirst = FIRST_OPERAND_IS_PROGRAM[program];
  let skipping = skipFirst !== undefined && !usesAny(args, skipFirst);
  const reads: ReadTarget[] = [];
  const follows = FOLLOWS_LINKS[program];
  if (follows && usesAny(args, follows, program === 'find' ? ['follow'] : [])) reads.push({ shown: `the symlinks ${program} follows` });
  let options = true;
  for (const word of args) {
    if (options && word.kind === 'literal' && word.text === '--') {
      options = false;
      continue;
    }
    if (options && word.kind === 'literal' && word.text.startsWith('-') && word.text !== '-') {
      const value = optionValue(word.text);
      // git's option values are revisions, patterns and formats unless the option names a file (--file=, --template=).
      const fileOption = /file|path|dir|template|config|from|input/.test(word.text.split('=', 1)[0]!);
      const counts =
        program === 'git' || !readOnly ? fileOption || (program !== 'git' && value !== undefined && PATH_LIKE.test(value)) : true;
      if (value !== undefined && counts) pushTarget(reads, { ...word, text: value, source: value }, cwd, readOnly);
      continue;
    }
    if (skipping) {
      skipping = false;
      continue;
    }
    pushTarget(reads, word, cwd, readOnly);
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

/** A value spelled like a path that leaves where it starts: absolute, home, or climbing. */
const PATH_LIKE = /^(\/|~(\/|$)|\.\.(\/|$))/;

/** `--file=x` and `-f/x`: the value when it could be a path; plain flags have none. */
function optionValue(text: string): string | undefined {
  const equals = text.indexOf('=');
  if (text.startsWith('--')) return equals > 0 ? text.slice(equals + 1) : undefined;
  const attached = /^-[A-Za-z0-9]+((?:\/|~\/|\.\.?\/)\S+)$/.exec(text);
  return attached?.[1];
}

/** Adds where a word leads; `unknownToo` false leaves out a word whose place is only known when it runs. */
function pushTarget(reads: ReadTarget[], word: Word, cwd: Cwd | null, unknownToo = true): void {
  const target = locate(word, cwd);
  for (const one of Array.isArray(target) ? target : target ? [target] : []) {
    if (unknownToo) reads.push(one);
    else if (one.path !== undefined) reads.push({ ...one, named: true });
  }
}

function locate(word: Word, cwd: Cwd | null): ReadTarget | ReadTarget[] | null {
  const shown = word.source;
  if (word.kind === 'dynamic') {
    // A tilde with nothing else to expand is the home folder: the engine knows where that is.
    if (/^~(\/[A-Za-z0-9._@+,:/-]*)?$/.test(word.source)) return { shown, path: word.source };
    return { shown };
  }
  const text = word.text;
  if (text === '' || NOT_FILES.has(text)) return null;
  if (word.kind === 'pattern' && (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(text) || /(^|\/)\.[^/]*[*?[]/.test(text) || text.startsWith('~'))) {
    // A brace or a dot-glob may expand to `..`, which climbs out.
    return { shown };
  }
  const pattern = word.kind === 'pattern' ? { pattern: true } : {};
  if (path.isAbsolute(text)) return { shown, path: text, ...pattern };
  if (cwd === null) return { shown };
  const here = `${cwd.dir}/${text}`;
  if (cwd.certain || !text.split('/').includes('..')) return { shown, path: here, ...pattern };
  // The shell may be in any of the folders it was in, and `..` from each leads somewhere else: each is a place it may read.
  const places = new Set([here, ...(cwd.alternatives ?? []).map((dir) => `${dir}/${text}`)]);
  return [...places].map((place) => ({ shown, path: place, ...pattern }));
}

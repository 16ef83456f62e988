import path from 'node:path';
import type { ReadTarget } from './commandAnalysis';
import { SHELL_STATE, type Classified } from './classifyInvocation';
import type { Word } from './readWord';

/**
 * The files and folders a read-only command's line names, so that the engine can tell a read inside
 * the workspace (`cat src/a.ts`) from one outside it (`cat /etc/passwd`, `wc -l < ~/.netrc`,
 * `grep -f /etc/shadow x`, `date -f ~/.netrc`, `cd .. && cat x`), as read_file does.
 *
 * Which words are files a program reads is its entry's business in the table of read-only programs
 * (readOnlyPrograms.ts). A word only known when it runs, or one the shell may turn into `..` (a brace,
 * `.*`), has no place: it asks.
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

/**
 * What a command named `program` reads of its arguments. For a program on the read-only list, the
 * words its entry in the table says it reads (classifyInvocation read them); a read-only command's
 * word only known when it runs could be any file. For any other command (`git commit -F ~/.netrc`,
 * `cp /etc/hosts .`) the words spelled out count: a read the person can see on the line is still a
 * read, while what an allowed program does with `$X` is its own business.
 */
export function argumentReads(program: string, args: readonly Word[], cwd: Cwd | null, classified: Classified): ReadTarget[] {
  if (program === 'cd' || program === 'pushd') return directoryRead(args, cwd);
  const reads: ReadTarget[] = [];
  if (classified.reads) {
    for (const read of classified.reads) {
      if ('target' in read) {
        if (classified.readOnly) reads.push(read.target);
        continue;
      }
      const before = reads.length;
      pushTarget(reads, read.word, cwd, classified.readOnly);
      if (read.mayBeOption) for (const target of reads.slice(before)) if (target.pattern) target.mayBeOption = true;
    }
    return reads;
  }
  if (SHELL_STATE.includes(program)) return [];
  let options = true;
  for (const word of args) {
    if (options && word.kind === 'literal' && word.text === '--') {
      options = false;
      continue;
    }
    if (options && word.kind === 'literal' && word.text.startsWith('-') && word.text !== '-') {
      const value = optionValue(word.text);
      const fileOption = /file|path|dir|template|config|from|input/.test(word.text.split('=', 1)[0]!);
      if (value !== undefined && (fileOption || PATH_LIKE.test(value)))
        pushTarget(reads, { ...word, text: value, source: value }, cwd, false);
      continue;
    }
    pushTarget(reads, word, cwd, false);
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

import { globMatches } from './globMatches';
import { LOCAL, READS, UNKNOWN } from './invocationClass';
import type { ArgumentRead, Reading } from './readOnlyPrograms';
import type { Word } from './readWord';

/**
 * find's words as find reads them (GNU findutils 4.9, find(1); the BSD primaries macOS adds): global
 * options, the starting points (folders it walks, read), then the expression, every primary known by
 * how many words it takes and what it does with them. -newer FILE and its kin read a file; -files0-from
 * reads the starting points from a file (which then cannot be pinned down); -delete and -fprint write;
 * -exec and its kin run a command, which the analysis judges as a command of its own.
 */

type Primary =
  | { takes: number; role?: 'text' }
  | { takes: 1; role: 'file' | 'names' }
  | { takes: number; role: 'writes' }
  | { takes: 0; role: 'runs' | 'follows' };

const PRIMARIES = new Map<string, Primary>();
const define = (names: string, primary: Primary): void => {
  for (const name of names.split(' ')) PRIMARIES.set(name, primary);
};
define(
  '-depth -mount -xdev -noleaf -ignore_readdir_race -noignore_readdir_race -daystart -nowarn -warn -empty -executable -readable -writable -nouser -nogroup -true -false -print -print0 -ls -prune -quit -not -and -or -a -o ( ) ! , -help --help -version --version -acl -xattr',
  { takes: 0 },
);
define(
  '-maxdepth -mindepth -regextype -amin -atime -cmin -ctime -mmin -mtime -used -gid -uid -group -user -inum -links -size -perm -type -xtype -fstype -name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -context -printf -Bmin -Btime -flags -xattrname',
  { takes: 1 },
);
define('-newer -anewer -cnewer -samefile -Bnewer', { takes: 1, role: 'file' });
define('-files0-from', { takes: 1, role: 'names' });
define('-delete', { takes: 0, role: 'writes' });
define('-fls -fprint -fprint0', { takes: 1, role: 'writes' });
define('-fprintf', { takes: 2, role: 'writes' });
define('-exec -execdir -ok -okdir', { takes: 0, role: 'runs' });
define('-follow', { takes: 0, role: 'follows' });

/** The primaries a glob must not be able to become: they write, or run what follows them. */
const UNSAFE = [...PRIMARIES].filter(([, primary]) => primary.role === 'writes' || primary.role === 'runs').map(([name]) => name);

/** -newerXY: the reference is a file unless Y is t (a time written out). */
const NEWER_XY = /^-newer[aBcm][aBcmt]$/;

export function findReading(args: readonly Word[]): Reading {
  const reads: ArgumentRead[] = [];
  let i = 0;
  // Global options before the starting points: -H, -L and -P (and BSD's -E, -X, -s, -x), -D and -O.
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind !== 'literal') break;
    if (/^-[HL]+$/.test(word.text)) reads.push(follows());
    else if (word.text === '-D' || word.text === '-f') {
      i++;
      if (word.text === '-f' && args[i]) reads.push({ word: args[i]! });
    } else if (!/^-([PEXsx]+|O\d*)$/.test(word.text)) break;
  }
  // The starting points: every word before the first that begins the expression.
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'literal' && startsExpression(word.text)) break;
    if (word.kind === 'dynamic') return { class: LOCAL, reads: [...reads, { word }] };
    // A glob may match a file named like a primary (-delete), which find reads as one.
    if (word.kind === 'pattern' && UNSAFE.some((unsafe) => globMatches(word.text, unsafe))) return { class: LOCAL, reads };
    reads.push({ word, mayBeOption: word.kind === 'pattern' });
  }
  let verdict = READS;
  // How many of the words ahead are the value of the primary before them.
  let values = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    // A glob may match a file named like a primary that writes or runs, and a word split when it runs may be one.
    if (word.kind === 'pattern' && UNSAFE.some((unsafe) => globMatches(word.text, unsafe))) return { class: LOCAL, reads };
    if (word.kind === 'dynamic' && (word.splits || values === 0)) return { class: LOCAL, reads };
    if (values > 0) {
      values--;
      continue;
    }
    if (word.kind === 'pattern') return { class: LOCAL, reads };
    const primary = PRIMARIES.get(word.text) ?? (NEWER_XY.test(word.text) ? newerXY(word.text) : undefined);
    if (!primary) {
      return { class: UNKNOWN, reads, why: `find's ${word.text} is not an expression the table of read-only programs knows` };
    }
    if (primary.role === 'runs') return { class: LOCAL, reads };
    if (primary.role === 'writes') verdict = LOCAL;
    if (primary.role === 'follows') reads.push(follows());
    const value = args[i + 1];
    if ((primary.role === 'file' || primary.role === 'names') && value) reads.push({ word: value });
    if (primary.role === 'names') verdict = LOCAL;
    values = primary.takes;
  }
  return { class: verdict, reads };
}

function startsExpression(text: string): boolean {
  return (text.startsWith('-') && text.length > 1) || text === '(' || text === '!' || text === ')' || text === ',';
}

function newerXY(text: string): Primary {
  return text.endsWith('t') ? { takes: 1 } : { takes: 1, role: 'file' };
}

function follows(): ArgumentRead {
  return { target: { shown: 'the symlinks find follows' } };
}

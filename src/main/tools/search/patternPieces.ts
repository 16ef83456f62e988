/**
 * A search pattern (PCRE2 syntax) cut into its pieces, knowing which are inside a character class:
 * the one reading of the syntax that the built-in engine's translation to JavaScript
 * (compileLinePattern.ts) and the rewrite every backend gets (portablePattern.ts) both work from, so
 * they never disagree on where a class, a quoted run or a comment begins and ends. Each piece keeps
 * its text as written (`raw`); joining them gives the pattern back.
 */
export type PatternPiece =
  /** One character, literal or an operator (`(`, `|`, `*`, …); `-` and `^` inside a class too. */
  | { kind: 'char'; raw: string; inClass: boolean }
  /**
   * `\` and one letter (`letter` empty at the end of the pattern); `\x{hh}` and `\g{n}` or `\gn` with
   * their `argument` (an unclosed `\x{` runs to the end, its raw text without the `}`).
   */
  | { kind: 'escape'; raw: string; letter: string; argument?: string; inClass: boolean }
  /** `\Q…\E`: `text` is taken literally (to the end of the pattern when `\E` is missing). */
  | { kind: 'quoted'; raw: string; text: string; inClass: boolean }
  /** `(?#…)`, which matches nothing. */
  | { kind: 'comment'; raw: string }
  /** A group opener beginning `(?` that is not a lookaround: `(?:`, `(?i)`, `(?i:`, `(?P<name>`, `(?P=name)`. */
  | { kind: 'group'; raw: string }
  /** `[` or `[^`. */
  | { kind: 'classOpen'; raw: string }
  | { kind: 'classClose'; raw: ']' }
  /** `[:name:]` or `[:^name:]` inside a class. */
  | { kind: 'posixClass'; raw: string; name: string; negated: boolean };

/** The pattern's pieces, and whether a character class was left open at its end. */
export function patternPieces(pattern: string): { pieces: PatternPiece[]; unclosedClass: boolean } {
  const pieces: PatternPiece[] = [];
  let inClass = false;
  // A ']' first in a class (after `[` or `[^`) is literal in PCRE.
  let classStart = false;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    const rest = pattern.slice(i);
    const wasClassStart = classStart;
    classStart = false;
    if (c === '\\') {
      const letter = pattern[i + 1] ?? '';
      if (letter === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end === -1 ? pattern.length : end + 2;
        pieces.push({ kind: 'quoted', raw: pattern.slice(i, stop), text: pattern.slice(i + 2, end === -1 ? stop : end), inClass });
        i = stop;
        continue;
      }
      const argument = letter === 'x' ? /^\\x\{([^}]*)\}?/.exec(rest) : letter === 'g' ? /^\\g(?:\{(\d+)\}|(\d+))/.exec(rest) : null;
      const raw = argument?.[0] ?? pattern.slice(i, i + 2);
      const value = argument?.[1] ?? argument?.[2];
      pieces.push({ kind: 'escape', raw, letter, ...(value !== undefined ? { argument: value } : {}), inClass });
      i += raw.length;
      continue;
    }
    if (inClass) {
      const posix = c === '[' ? /^\[:(\^?)([a-z]+):\]/.exec(rest) : null;
      if (posix) {
        pieces.push({ kind: 'posixClass', raw: posix[0], name: posix[2] ?? '', negated: posix[1] === '^' });
        i += posix[0].length;
      } else if (c === ']' && !wasClassStart) {
        pieces.push({ kind: 'classClose', raw: ']' });
        inClass = false;
        i += 1;
      } else {
        pieces.push({ kind: 'char', raw: c, inClass });
        i += 1;
      }
      continue;
    }
    if (c === '[') {
      const raw = rest.startsWith('[^') ? '[^' : '[';
      pieces.push({ kind: 'classOpen', raw });
      inClass = true;
      classStart = true;
      i += raw.length;
      continue;
    }
    if (rest.startsWith('(?#')) {
      const end = pattern.indexOf(')', i);
      const raw = end === -1 ? rest : pattern.slice(i, end + 1);
      pieces.push({ kind: 'comment', raw });
      i += raw.length;
      continue;
    }
    const group = /^\(\?(?:P<[A-Za-z_]\w*>|P=[A-Za-z_]\w*\)|[a-zA-Z-]*[:)])/.exec(rest);
    if (group) {
      pieces.push({ kind: 'group', raw: group[0] });
      i += group[0].length;
      continue;
    }
    pieces.push({ kind: 'char', raw: c, inClass: false });
    i += 1;
  }
  return { pieces, unclosedClass: inClass };
}

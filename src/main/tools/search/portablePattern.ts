/**
 * Rewrites the few PCRE constructs whose meaning depends on how an engine hands it a line:
 * `\A`, `\z` and `\Z` (ripgrep includes the line's '\n' in the subject, git grep does not, so
 * `\z` matches in one and not the other). Outside character classes they become `^` and `$`,
 * which every backend applies to the line alone. Everything else is passed on untouched.
 */
export function portablePattern(pattern: string): string {
  let out = '';
  let inClass = false;
  let classStart = false;
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end === -1 ? pattern.length : end + 2;
        out += pattern.slice(i, stop);
        i = stop;
      } else {
        out += !inClass && next === 'A' ? '^' : !inClass && (next === 'z' || next === 'Z') ? '$' : c + next;
        i += 2;
      }
      classStart = false;
      continue;
    }
    if (inClass) {
      const posix = c === '[' ? /^\[:\^?[a-z]+:\]/.exec(pattern.slice(i)) : null;
      if (posix) {
        out += posix[0];
        i += posix[0].length;
      } else {
        if (c === ']' && !classStart) inClass = false;
        out += c;
        i += 1;
      }
      classStart = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      classStart = true;
      out += c;
      i += 1;
      if (pattern[i] === '^') {
        out += '^';
        i += 1;
      }
      continue;
    }
    out += c;
    i += 1;
  }
  return out;
}

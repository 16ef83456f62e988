/**
 * Whether a shell pattern (glob with * ? [...] and brace expansion) could produce `candidate`.
 * Deliberately generous: any brace group matches anything, and quoted glob characters count as
 * globs, so "could it become -delete?" errs on yes.
 */
export function globMatches(pattern: string, candidate: string): boolean {
  let regex = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*') regex += '.*';
    else if (char === '?') regex += '.';
    else if (char === '{') {
      // The whole brace group, alternatives and all, may become anything.
      let depth = 1;
      let end = i + 1;
      for (; end < pattern.length && depth > 0; end++) {
        if (pattern[end] === '{') depth++;
        else if (pattern[end] === '}') depth--;
      }
      regex += '.*';
      i = end - 1;
    } else if (char === '}' || char === ',') regex += '.*';
    else if (char === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) {
        regex += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      // Character classes ([:alpha:]) and ranges are left to match anything: generous by design.
      regex += negated || body.includes('[:') ? '.' : `[${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else regex += char.replace(/[.+^$()|\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${regex}$`, 's').test(candidate);
  } catch {
    return true;
  }
}

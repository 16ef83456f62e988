/**
 * The built-in search engine's matcher. The search dialect is PCRE2 run byte-wise (ripgrep's
 * `-P --no-unicode`, git grep's `-P` under LC_ALL=C), so this matcher runs JavaScript regular
 * expressions over "byte strings" (a file's bytes decoded as latin1, one char per byte) and first
 * rewrites the PCRE-only syntax a model is likely to write into its JavaScript equivalent. What
 * cannot be rewritten is refused rather than silently matching something else.
 */

/** Matches one line, given as a byte string (latin1-decoded bytes, without the '\n'). */
export interface LinePattern {
  test(line: string): boolean;
  /**
   * A cheap test over a whole file (as a byte string): false only when no line can match.
   * Null when the pattern has lookarounds, which can see across line breaks in a whole file.
   */
  mayMatchFile: ((content: string) => boolean) | null;
}

export class PatternSyntaxError extends Error {
  override readonly name = 'PatternSyntaxError';
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7f',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: 'a-zA-Z0-9_',
  xdigit: '0-9a-fA-F',
};

/** PCRE2 without Unicode: \s is the C locale's white space, which JavaScript's \s is wider than. */
const SPACE = '\\t\\n\\v\\f\\r ';

export function compileLinePattern(pattern: string, options: { literal: boolean; caseSensitive: boolean }): LinePattern {
  const bytes = Buffer.from(pattern, 'utf8').toString('latin1');
  let flags = 's';
  let source: string;
  if (options.literal) {
    source = escapeRegExp(bytes);
  } else {
    const translated = translate(bytes);
    source = translated.source;
    if (translated.caseInsensitive) flags += 'i';
  }
  if (!options.caseSensitive && !flags.includes('i')) flags += 'i';
  let line: RegExp;
  try {
    line = new RegExp(source, flags);
  } catch (error) {
    throw new PatternSyntaxError(
      `JavaScript RegExp: ${(error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')}`,
    );
  }
  if (options.literal && options.caseSensitive) {
    return { test: (text) => text.includes(bytes), mayMatchFile: (content) => content.includes(bytes) };
  }
  const hasLookaround = /\(\?<?[=!]/.test(source);
  const file = new RegExp(source, `${flags}m`);
  return { test: (text) => line.test(text), mayMatchFile: hasLookaround ? null : (content) => file.test(content) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function translate(pattern: string): { source: string; caseInsensitive: boolean } {
  let caseInsensitive = false;
  let i = 0;
  const leadingFlags = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (leadingFlags?.[1]) {
    for (const flag of leadingFlags[1]) {
      if (flag === 'i') caseInsensitive = true;
      else if (flag !== 'm' && flag !== 's')
        throw new PatternSyntaxError(`the inline flag (?${flag}) is not supported by the built-in search engine`);
    }
    i = leadingFlags[0].length;
  }
  let out = '';
  let inClass = false;
  let classStart = false;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) throw new PatternSyntaxError('\\ at end of pattern');
      i += 2;
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i);
        const quoted = end === -1 ? pattern.slice(i) : pattern.slice(i, end);
        out += inClass ? quoted.replace(/[\]\\^-]/g, '\\$&') : escapeRegExp(quoted);
        i = end === -1 ? pattern.length : end + 2;
      } else if (next === 'E') {
        // A stray \E ends nothing, as in PCRE.
      } else if (next === 's') {
        out += inClass ? SPACE : `[${SPACE}]`;
      } else if (next === 'S' && !inClass) {
        out += `[^${SPACE}]`;
      } else if (next === 'h') {
        out += inClass ? ' \\t\\xa0' : '[ \\t\\xa0]';
      } else if (next === 'e') {
        out += '\\x1b';
      } else if (!inClass && next === 'A') {
        out += '^';
      } else if (!inClass && (next === 'z' || next === 'Z')) {
        out += '$';
      } else if (next === 'x' && pattern[i] === '{') {
        const end = pattern.indexOf('}', i);
        const code = end === -1 ? NaN : parseInt(pattern.slice(i + 1, end), 16);
        if (!(code >= 0 && code <= 0xff))
          throw new PatternSyntaxError('\\x{...} above \\x{ff} needs Unicode mode, which search_code does not use');
        out += `\\x${code.toString(16).padStart(2, '0')}`;
        i = end + 1;
      } else if (next === 'g' && !inClass) {
        const reference = /^(?:\{(\d+)\}|(\d+))/.exec(pattern.slice(i));
        if (!reference) throw new PatternSyntaxError('only numbered \\g back references are supported by the built-in search engine');
        out += `\\${reference[1] ?? reference[2]}`;
        i += reference[0].length;
      } else if ('KRXCGpPNo'.includes(next) || (next === 'S' && inClass)) {
        throw new PatternSyntaxError(`\\${next} is not supported by the built-in search engine`);
      } else {
        out += `\\${next}`;
      }
      classStart = false;
      continue;
    }
    if (inClass) {
      if (c === '[' && pattern[i + 1] === ':') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
        if (posix) {
          const ranges = POSIX_CLASSES[posix[2] ?? ''];
          if (!ranges || posix[1]) throw new PatternSyntaxError(`the POSIX class [:${posix[1]}${posix[2]}:] is not supported`);
          out += ranges;
          i += posix[0].length;
          classStart = false;
          continue;
        }
      }
      // A ']' first in a class is literal in PCRE, while JavaScript would read '[]' as an empty class.
      if (c === ']' && classStart) out += '\\]';
      else {
        if (c === ']') inClass = false;
        out += c === '[' ? '\\[' : c;
      }
      classStart = false;
      i += 1;
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
    if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2);
      if (rest.startsWith('#')) {
        const end = pattern.indexOf(')', i);
        i = end === -1 ? pattern.length : end + 1;
        continue;
      }
      const named = /^P<([A-Za-z_]\w*)>/.exec(rest);
      if (named) {
        out += `(?<${named[1]}>`;
        i += 2 + named[0].length;
        continue;
      }
      const backReference = /^P=([A-Za-z_]\w*)\)/.exec(rest);
      if (backReference) {
        out += `\\k<${backReference[1]}>`;
        i += 2 + backReference[0].length;
        continue;
      }
      if (/^[a-zA-Z-]*[:)]/.test(rest) && !rest.startsWith(':')) {
        throw new PatternSyntaxError(
          'of the (?...) groups the built-in search engine supports (?:, (?=, (?!, (?<=, (?<!, (?<name> and (?P<name>; inline flags only at the very start, as (?i)',
        );
      }
    }
    out += c;
    i += 1;
  }
  if (inClass) throw new PatternSyntaxError('missing terminating ] for character class');
  return { source: out, caseInsensitive };
}

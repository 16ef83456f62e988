import { patternPieces, type PatternPiece } from './patternPieces';

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
  const { pieces, unclosedClass } = patternPieces(pattern);
  if (unclosedClass) throw new PatternSyntaxError('missing terminating ] for character class');
  let caseInsensitive = false;
  const leadingFlags = pieces[0]?.kind === 'group' ? /^\(\?([a-zA-Z]+)\)$/.exec(pieces[0].raw) : null;
  if (leadingFlags?.[1]) {
    for (const flag of leadingFlags[1]) {
      if (flag === 'i') caseInsensitive = true;
      else if (flag !== 'm' && flag !== 's')
        throw new PatternSyntaxError(`the inline flag (?${flag}) is not supported by the built-in search engine`);
    }
    pieces.shift();
  }
  return { source: pieces.map(javaScriptFor).join(''), caseInsensitive };
}

/** A piece of the pattern as a JavaScript regular expression (flag v off, over byte strings) writes it. */
function javaScriptFor(piece: PatternPiece): string {
  switch (piece.kind) {
    case 'escape':
      return escapeFor(piece);
    case 'quoted':
      return piece.inClass ? piece.text.replace(/[\]\\^-]/g, '\\$&') : escapeRegExp(piece.text);
    case 'comment':
      return '';
    case 'group': {
      if (piece.raw === '(?:') return piece.raw;
      const named = /^\(\?P<(\w+)>$/.exec(piece.raw);
      if (named) return `(?<${named[1]}>`;
      const backReference = /^\(\?P=(\w+)\)$/.exec(piece.raw);
      if (backReference) return `\\k<${backReference[1]}>`;
      throw new PatternSyntaxError(
        'of the (?...) groups the built-in search engine supports (?:, (?=, (?!, (?<=, (?<!, (?<name> and (?P<name>; inline flags only at the very start, as (?i)',
      );
    }
    case 'posixClass': {
      const ranges = POSIX_CLASSES[piece.name];
      if (!ranges || piece.negated)
        throw new PatternSyntaxError(`the POSIX class [:${piece.negated ? '^' : ''}${piece.name}:] is not supported`);
      return ranges;
    }
    case 'char':
      // In a class, a literal ']' (first in it) or '[' needs escaping in JavaScript.
      return piece.inClass && (piece.raw === ']' || piece.raw === '[') ? `\\${piece.raw}` : piece.raw;
    case 'classOpen':
    case 'classClose':
      return piece.raw;
  }
}

function escapeFor({ letter, argument, raw, inClass }: Extract<PatternPiece, { kind: 'escape' }>): string {
  if (letter === '') throw new PatternSyntaxError('\\ at end of pattern');
  if (letter === 'E') return ''; // A stray \E ends nothing, as in PCRE.
  if (letter === 's') return inClass ? SPACE : `[${SPACE}]`;
  if (letter === 'S' && !inClass) return `[^${SPACE}]`;
  if (letter === 'h') return inClass ? ' \\t\\xa0' : '[ \\t\\xa0]';
  if (letter === 'e') return '\\x1b';
  if (!inClass && letter === 'A') return '^';
  if (!inClass && (letter === 'z' || letter === 'Z')) return '$';
  if (letter === 'x' && raw.startsWith('\\x{')) {
    const code = argument !== undefined && raw.endsWith('}') ? parseInt(argument, 16) : NaN;
    if (!(code >= 0 && code <= 0xff))
      throw new PatternSyntaxError('\\x{...} above \\x{ff} needs Unicode mode, which search_code does not use');
    return `\\x${code.toString(16).padStart(2, '0')}`;
  }
  if (letter === 'g' && !inClass) {
    if (argument === undefined)
      throw new PatternSyntaxError('only numbered \\g back references are supported by the built-in search engine');
    return `\\${argument}`;
  }
  if ('KRXCGpPNo'.includes(letter) || (letter === 'S' && inClass))
    throw new PatternSyntaxError(`\\${letter} is not supported by the built-in search engine`);
  return raw;
}

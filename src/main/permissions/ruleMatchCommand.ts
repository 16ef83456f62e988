/**
 * The specifier of a run_command rule, read the way a person reads a command line: words separated
 * by blanks, quotes and backslashes as in the shell. A lone unquoted `*` stands for any run of words
 * (none included), so `npm test *` matches `npm test` and `npm test --watch` but not `npm testify`;
 * a `*` inside a word globs within that one word (`build:*`). A specifier that holds shell operators
 * (`&&`, `|`, `;`, `>`, `$(`...) is a whole command line and matches only that exact text.
 */

export type PatternToken = { kind: 'any' } | { kind: 'literal'; text: string } | { kind: 'glob'; text: string; regex: RegExp };

export interface CommandPattern {
  /** The specifier as written, trimmed. */
  text: string;
  /** The words, for matching one simple command's argv; empty when `wholeLine`. */
  tokens: PatternToken[];
  /** The specifier is a compound command line: it matches only a command whose text is exactly `text`. */
  wholeLine: boolean;
  /** No `*` anywhere: the rule names one exact command. */
  exact: boolean;
}

/** Thrown by parseCommandPattern; the message names the problem, not the rule (the caller adds that). */
export class CommandPatternError extends Error {
  override readonly name = 'CommandPatternError';
}

const OPERATOR_START = new Set(['&', '|', ';', '<', '>', '(', ')', '`', '\n']);

export function parseCommandPattern(specifier: string): CommandPattern {
  const text = specifier.trim();
  const tokens: PatternToken[] = [];
  let wholeLine = false;
  let exact = true;

  // Each word is built from pieces; a piece knows whether it was quoted, so `"*"` stays a literal star.
  let pieces: Array<{ text: string; quoted: boolean }> = [];
  let inWord = false;
  const endWord = () => {
    if (!inWord) return;
    inWord = false;
    tokens.push(tokenFrom(pieces));
    pieces = [];
  };

  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === ' ' || ch === '\t') {
      endWord();
      continue;
    }
    if (OPERATOR_START.has(ch) || (ch === '$' && text[i + 1] === '(')) {
      wholeLine = true;
      endWord();
      continue;
    }
    inWord = true;
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === undefined) throw new CommandPatternError('it ends with a lone backslash');
      pieces.push({ text: next, quoted: true });
      i++;
    } else if (ch === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) throw new CommandPatternError('a single quote is never closed');
      pieces.push({ text: text.slice(i + 1, close), quoted: true });
      i = close;
    } else if (ch === '"') {
      let j = i + 1;
      let value = '';
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length && '"\\$`'.includes(text[j + 1] as string)) j++;
        value += text[j];
      }
      if (j >= text.length) throw new CommandPatternError('a double quote is never closed');
      pieces.push({ text: value, quoted: true });
      i = j;
    } else {
      if (ch === '*') exact = false;
      pieces.push({ text: ch, quoted: false });
    }
  }
  endWord();
  if (wholeLine) return { text, tokens: [], wholeLine: true, exact: true };
  if (tokens.length === 0) throw new CommandPatternError('it names no command');
  return { text, tokens, wholeLine: false, exact };
}

function tokenFrom(pieces: Array<{ text: string; quoted: boolean }>): PatternToken {
  const star = pieces.some((p) => !p.quoted && p.text === '*');
  if (!star) return { kind: 'literal', text: pieces.map((p) => p.text).join('') };
  if (pieces.length === 1) return { kind: 'any' };
  const source = pieces.map((p) => (!p.quoted && p.text === '*' ? '.*' : escapeRegex(p.text))).join('');
  return { kind: 'glob', text: pieces.map((p) => p.text).join(''), regex: new RegExp(`^${source}$`, 's') };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Does the pattern match this argv, word for word (a lone `*` taking any run of words)? */
export function matchTokens(tokens: readonly PatternToken[], argv: readonly string[]): boolean {
  return matchFrom(tokens, 0, argv, 0);
}

function matchFrom(tokens: readonly PatternToken[], t: number, argv: readonly string[], a: number): boolean {
  for (; t < tokens.length; t++, a++) {
    const token = tokens[t] as PatternToken;
    if (token.kind === 'any') {
      if (t === tokens.length - 1) return true;
      for (let skip = a; skip <= argv.length; skip++) {
        if (matchFrom(tokens, t + 1, argv, skip)) return true;
      }
      return false;
    }
    const word = argv[a];
    if (word === undefined) return false;
    if (token.kind === 'literal' ? token.text !== word : !token.regex.test(word)) return false;
  }
  return a === argv.length;
}

/** Quotes one word so the shell (and parseCommandPattern) reads it back unchanged, stars included. */
export function quoteWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An argv as a person would type it, for reasons and dialogs. */
export function showArgv(argv: readonly string[]): string {
  return argv.map(quoteWord).join(' ');
}

import type { Node } from 'web-tree-sitter';
import { decodeAnsiC } from './decodeAnsiC';

/**
 * One shell word as the analysis sees it: its value after quote removal when the shell's value can
 * be known from the text alone, and how much the shell will still change it at run time.
 */
export interface Word {
  /** The value after quote removal for literal and pattern words; the source text for dynamic ones. */
  text: string;
  /**
   * literal: exactly `text`, one word. pattern: static text with unquoted glob or brace characters
   * (the shell turns it into file names, maybe several or ones starting with '-'). dynamic: holds an
   * expansion ($x, $(...), ~, ...), so its value is known only when it runs.
   */
  kind: 'literal' | 'pattern' | 'dynamic';
  /** The shell may turn it into several words, or none (an unquoted expansion, a glob, a brace). */
  splits: boolean;
  /** The word exactly as written. */
  source: string;
}

interface Piece {
  text: string;
  quoted: boolean;
  dynamic: boolean;
}

/**
 * Reads a word-like node (word, string, raw_string, concatenation, expansion, ...) into a Word; or
 * several nodes that touch (no space between them), which bash reads as one word even where
 * tree-sitter splits them (`$'r'\m` is rm to bash, two words to the parser).
 */
export function readWord(nodes: Node | readonly Node[]): Word {
  const list = Array.isArray(nodes) ? (nodes as readonly Node[]) : [nodes as Node];
  const pieces: Piece[] = [];
  for (const node of list) collect(node, false, pieces);
  return fromPieces(pieces, list.map((node) => node.text).join(''));
}

/** Groups nodes in order so that nodes with no space between them (one word to bash) are together. */
export function touchingGroups(nodes: readonly Node[]): Node[][] {
  const sorted = [...nodes].sort((a, b) => a.startIndex - b.startIndex);
  const groups: Node[][] = [];
  for (const node of sorted) {
    const last = groups[groups.length - 1];
    if (last && last[last.length - 1]!.endIndex === node.startIndex) last.push(node);
    else groups.push([node]);
  }
  return groups;
}

/** The same word, marked as only known at run time (a placeholder xargs or find fills in). */
export function asDynamic(word: Word): Word {
  return { text: word.text, kind: 'dynamic', splits: false, source: word.source };
}

/** A Word for text that is already a value (a wrapper's argument taken apart, a test's input). */
export function literalWord(text: string): Word {
  return { text, kind: 'literal', splits: false, source: text };
}

function fromPieces(pieces: Piece[], source: string): Word {
  if (pieces.some((piece) => piece.dynamic)) {
    const splits = pieces.some((piece) => piece.dynamic && !piece.quoted) || hasPatternCharacters(pieces);
    return { text: source, kind: 'dynamic', splits, source };
  }
  const text = pieces.map((piece) => piece.text).join('');
  const first = pieces[0];
  // A leading unquoted tilde is the home directory of someone: known only when it runs.
  if (first && !first.quoted && first.text.startsWith('~')) return { text: source, kind: 'dynamic', splits: false, source };
  if (hasPatternCharacters(pieces)) return { text, kind: 'pattern', splits: true, source };
  return { text, kind: 'literal', splits: false, source };
}

/** Unquoted *, ? or [ (globs), or an unquoted {..,..} / {a..b} (brace expansion). */
function hasPatternCharacters(pieces: Piece[]): boolean {
  let braceDepth = 0;
  let braceHasSeparator = false;
  let previous = '';
  for (const piece of pieces) {
    if (piece.quoted || piece.dynamic) {
      previous = '';
      continue;
    }
    for (const char of piece.text) {
      if (char === '*' || char === '?' || char === '[') return true;
      if (char === '{') braceDepth++;
      else if (char === '}' && braceDepth > 0) {
        if (braceHasSeparator) return true;
        braceDepth--;
      } else if (braceDepth > 0 && (char === ',' || (char === '.' && previous === '.'))) braceHasSeparator = true;
      previous = char;
    }
  }
  return false;
}

const DYNAMIC_NODES = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'translated_string',
]);

function collect(node: Node, quoted: boolean, out: Piece[]): void {
  switch (node.type) {
    case 'word':
    case 'variable_name':
    case 'number':
    case 'extglob_pattern':
    case 'special_variable_name':
    case 'file_descriptor':
      if (quoted) out.push({ text: node.text, quoted: true, dynamic: false });
      else collectUnquoted(node.text, out);
      return;
    case 'raw_string':
      out.push({ text: node.text.slice(1, -1), quoted: true, dynamic: false });
      return;
    case 'ansi_c_string': {
      const value = decodeAnsiC(node.text.slice(2, -1));
      out.push(value === null ? { text: node.text, quoted: true, dynamic: true } : { text: value, quoted: true, dynamic: false });
      return;
    }
    case 'string':
      collectDoubleQuoted(node, out);
      return;
    case 'string_content':
      out.push({ text: unescapeDoubleQuoted(node.text), quoted: true, dynamic: false });
      return;
    case 'concatenation':
    case 'variable_assignment':
      collectChildrenWithGaps(node, quoted, out);
      return;
    case 'brace_expression':
      // Static, but expanded by the shell into several words.
      out.push({ text: node.text, quoted: false, dynamic: false });
      return;
    default:
      if (!node.isNamed && (node.type === '=' || node.type === '+=')) {
        out.push({ text: node.type, quoted: false, dynamic: false });
        return;
      }
      if (DYNAMIC_NODES.has(node.type)) {
        out.push({ text: node.text, quoted, dynamic: true });
        return;
      }
      // A node this reader does not know: never pretend to know its value.
      out.push({ text: node.text, quoted, dynamic: true });
  }
}

/** Children in order, and any source text between them that no child covers (tree-sitter leaves some out). */
function collectChildrenWithGaps(node: Node, quoted: boolean, out: Piece[]): void {
  const base = node.startIndex;
  const text = node.text;
  let position = base;
  for (const child of node.children) {
    if (!child) continue;
    if (child.startIndex > position) collectGap(text.slice(position - base, child.startIndex - base), quoted, out);
    collect(child, quoted, out);
    position = child.endIndex;
  }
  if (node.endIndex > position) collectGap(text.slice(position - base), quoted, out);
}

function collectGap(gap: string, quoted: boolean, out: Piece[]): void {
  if (quoted) out.push({ text: unescapeDoubleQuoted(gap), quoted: true, dynamic: /[$`]/.test(gap) });
  else collectUnquoted(gap, out);
}

function collectDoubleQuoted(node: Node, out: Piece[]): void {
  const base = node.startIndex;
  const text = node.text;
  // Between the opening and the closing quote.
  let position = base + 1;
  const end = node.endIndex - 1;
  for (const child of node.children) {
    if (!child || child.startIndex < base + 1 || child.endIndex > end) continue;
    if (child.startIndex > position) collectGap(text.slice(position - base, child.startIndex - base), true, out);
    collect(child, true, out);
    position = child.endIndex;
  }
  if (end > position) collectGap(text.slice(position - base, end - base), true, out);
}

/**
 * Unquoted text: a backslash quotes the next character, backslash-newline vanishes. A `$` or a
 * backtick that tree-sitter left inside a plain word would be expanded by bash, so the word is dynamic.
 */
function collectUnquoted(text: string, out: Piece[]): void {
  let plain = '';
  const flush = (): void => {
    if (plain) out.push({ text: plain, quoted: false, dynamic: false });
    plain = '';
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      const next = text[i + 1];
      i++;
      if (next === undefined || next === '\n') continue;
      flush();
      out.push({ text: next, quoted: true, dynamic: false });
      continue;
    }
    if (char === '`' || (char === '$' && i + 1 < text.length && /[A-Za-z_0-9{(@*#?$!\-'"[]/.test(text[i + 1]!))) {
      flush();
      out.push({ text: text.slice(i), quoted: false, dynamic: true });
      return;
    }
    plain += char;
  }
  flush();
}

/** Inside double quotes a backslash only escapes $ ` " \ and newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_match, char: string) => (char === '\n' ? '' : char));
}

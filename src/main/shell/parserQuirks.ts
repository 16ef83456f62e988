import type { Node } from 'web-tree-sitter';

/**
 * Where tree-sitter-bash reads a line differently from bash itself. Each of these was found by
 * running lines under real bash (bashDifferential.test.ts); the analysis either corrects the
 * difference or refuses the line, never trusts the parser's reading.
 */

/**
 * True when the text between a node's children holds a backslash: tree-sitter skips `\ ` (an
 * escaped space) before a word as if it were blank, where bash keeps the space in the word.
 */
export function dropsEscape(node: Node): boolean {
  const text = node.text;
  let position = node.startIndex;
  for (const child of node.children) {
    if (!child) continue;
    if (child.startIndex > position && text.slice(position - node.startIndex, child.startIndex - node.startIndex).includes('\\'))
      return true;
    position = Math.max(position, child.endIndex);
  }
  return false;
}

/** Where bash ends a $'...' string that starts the text: a backslash escapes any character, a quote ends it. */
export function ansiCStringEnd(text: string): number {
  for (let i = 2; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i + 1;
  }
  return -1;
}

/** `$(`, `${`, `$[` or a backtick that no backslash quotes: bash would expand it. */
export function hidesSubstitution(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      i++;
      continue;
    }
    if (char === '`') return true;
    if (char === '$' && /[({[]/.test(text[i + 1] ?? '')) return true;
  }
  return false;
}

/** \r, \v or \f where bash reads them as part of a word and tree-sitter as blank (outside any quotes). */
export function hasBlankOnlyToParser(source: string, root: Node): boolean {
  for (let index = source.search(/[\r\v\f]/); index >= 0;) {
    let quoted = false;
    for (let node = root.descendantForIndex(index, index + 1); node; node = node.parent) {
      if (['raw_string', 'ansi_c_string', 'string', 'comment', 'heredoc_body', 'translated_string'].includes(node.type)) {
        quoted = true;
        break;
      }
    }
    if (!quoted) return true;
    const next = source.slice(index + 1).search(/[\r\v\f]/);
    index = next < 0 ? -1 : index + 1 + next;
  }
  return false;
}

/**
 * The source with every line continuation (an unescaped backslash before a newline) removed, where
 * bash removes it: everywhere but in single quotes, $'...', comments and quoted here-documents.
 * null when there is none to remove.
 */
export function joinContinuedLines(source: string, root: Node): string | null {
  const removals: number[] = [];
  for (let index = source.indexOf('\\\n'); index >= 0; index = source.indexOf('\\\n', index + 2)) {
    let backslashes = 0;
    while (index - 1 - backslashes >= 0 && source[index - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 1) continue;
    if (!isLiteralContext(root.descendantForIndex(index, index + 1))) removals.push(index);
  }
  if (removals.length === 0) return null;
  let out = '';
  let position = 0;
  for (const index of removals) {
    out += source.slice(position, index);
    position = index + 2;
  }
  return out + source.slice(position);
}

function isLiteralContext(node: Node | null): boolean {
  for (let current = node; current; current = current.parent) {
    if (current.type === 'raw_string' || current.type === 'ansi_c_string' || current.type === 'comment') return true;
    if (current.type === 'heredoc_body') {
      const start = current.parent?.children.find((child) => child?.type === 'heredoc_start');
      return start !== undefined && start !== null && /['"\\]/.test(start.text);
    }
  }
  return false;
}

export function describeError(root: Node): string {
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) {
      const where = `line ${node.startPosition.row + 1}, column ${node.startPosition.column + 1}`;
      return node.isMissing ? `missing ${node.type} at ${where}` : `at ${where}: ${JSON.stringify(node.text.slice(0, 30))}`;
    }
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child && (child.hasError || child.isMissing)) stack.push(child);
    }
  }
  return 'an error node';
}

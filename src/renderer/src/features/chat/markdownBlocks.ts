/** An opening or closing code fence: up to three spaces, then three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Where a new block may start after a blank line: in the first column, and not a block quote or a
 * list item (a list whose items are apart is one loose list, drawn differently from several lists).
 */
const BLOCK_START = /^(?![>\s]|[-*+](\s|$)|\d{1,9}[.)](\s|$))/;

/**
 * Cuts markdown into top-level blocks that parse the same on their own: at a blank line outside a
 * code fence followed by a whole line that starts a new block (see BLOCK_START), so list items, their
 * continued paragraphs, indented code and block quotes stay with what they continue. Streamed text
 * only grows, so every block but the last keeps its exact text from one frame to the next, and a
 * renderer that memoises blocks by text parses only the last one again.
 *
 * While the text streams, a link or footnote defined in one block does not resolve in another; the
 * stored message is drawn whole, so the difference lasts only until the response is stored.
 */
export function markdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let blockStart = 0;
  let fence: { char: string; length: number } | null = null;
  // Where the run of blank lines before the current line began, or -1.
  let blankFrom = -1;
  let lineStart = 0;
  for (;;) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (fence) {
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && close[2]!.trim() === '') fence = null;
    } else if (line.trim() === '') {
      if (blankFrom === -1) blankFrom = lineStart;
    } else {
      // A line still being written (no newline yet) may turn out to be a list item: it waits.
      if (blankFrom > blockStart && newline !== -1 && BLOCK_START.test(line)) {
        blocks.push(text.slice(blockStart, blankFrom));
        blockStart = lineStart;
      }
      blankFrom = -1;
      const open = FENCE.exec(line);
      // A backtick fence's info string cannot hold a backtick; such a line is inline code, not a fence.
      if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) fence = { char: open[1]![0]!, length: open[1]!.length };
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  blocks.push(text.slice(blockStart));
  return blocks;
}

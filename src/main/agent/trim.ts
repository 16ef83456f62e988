/**
 * Cuts a long text to its head and tail so a huge tool output cannot flood the model's context. The
 * cut is marked with what was left out; the log keeps the whole text.
 */
export interface TrimOptions {
  /** The most characters kept, marker excluded. */
  maxChars: number;
  /** The share of `maxChars` kept from the start; the rest comes from the end, where errors tend to be. */
  headShare?: number;
}

export function trimMiddle(text: string, { maxChars, headShare = 0.4 }: TrimOptions): string {
  if (text.length <= maxChars) return text;
  const headEnd = lineBoundaryBefore(text, Math.floor(maxChars * headShare));
  const tailStart = lineBoundaryAfter(text, text.length - (maxChars - headEnd));
  const cut = text.slice(headEnd, tailStart);
  // A cut made earlier (the terminal keeps only the head and tail of a flood) lies inside this one:
  // the model is told how much was left out in all, not just the length of what this cut removed.
  let earlier = 0;
  for (const match of cut.matchAll(EARLIER_CUT)) earlier += Number(match[1]!.replace(/,/g, '')) - match[0].length;
  const lines = earlier > 0 ? 0 : countLines(cut);
  const marker = `\n[… ${(cut.length + earlier).toLocaleString('en-US')} characters${lines > 0 ? ` (${lines.toLocaleString('en-US')} lines)` : ''} cut from the middle of this output …]\n`;
  return text.slice(0, headEnd) + marker + text.slice(tailStart);
}

/** The marks of earlier cuts: the terminal's (CappedText) and this function's own. */
const EARLIER_CUT = /\[… ([\d,]+) characters(?: \([\d,]+ lines\))? (?:of output cut|cut from the middle of this output) …\]/g;

// Cut at line ends where one is near, so no line is shown half; a single huge line is cut where it must be.
const LINE_SEARCH = 200;

function lineBoundaryBefore(text: string, index: number): number {
  const newline = text.lastIndexOf('\n', index);
  return newline >= 0 && index - newline <= LINE_SEARCH ? newline + 1 : index;
}

function lineBoundaryAfter(text: string, index: number): number {
  const newline = text.indexOf('\n', index);
  return newline >= 0 && newline - index <= LINE_SEARCH ? newline + 1 : index;
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

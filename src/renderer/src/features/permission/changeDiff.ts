import { parsePatch, structuredPatch, type StructuredPatchHunk } from 'diff';
import { changeTexts, type FileChange } from '../../../../shared/fileChange';

/**
 * Changes as a person reads them: unified-diff hunks with three lines of context and the line
 * numbers of both sides, made by jsdiff. For a request, from the file as it is now (FileChange) and
 * the new text (the model's, or the person's edit of it); for a tool card, from the patch the tool
 * printed. Pure: the components only draw the rows.
 */

export type DiffRowKind = 'added' | 'removed' | 'context' | 'note';

export interface DiffRow {
  kind: DiffRowKind;
  text: string;
  /** The line's number in the file before (removed and context rows). */
  oldLine?: number;
  /** The line's number in the file after (added and context rows). */
  newLine?: number;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  rows: DiffRow[];
}

export interface ChangeDiff {
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
  /** Where in the file as it is now the change lands, for "src/a.ts, lines 40–52"; undefined when nothing changes. */
  lines?: { from: number; to: number };
}

const CONTEXT_LINES = 3;

/** The change a call would make to the region a FileChange holds, as hunks numbered as in the file. Undefined without text to diff. */
export function diffChange(change: FileChange, newText: string): ChangeDiff | undefined {
  const texts = changeTexts(change, newText);
  if (!texts) return undefined;
  const patch = structuredPatch(change.path, change.path, texts.before, texts.after, '', '', { context: CONTEXT_LINES });
  const offset = change.firstLine - 1;
  return summarise(patch.hunks.map((hunk) => toHunk(hunk, offset)));
}

/** The hunks of a unified diff a tool printed (`--- a`, `+++ b`, `@@ …`); empty when the text holds none. */
export function diffFromPatch(patch: string): ChangeDiff {
  let parsed;
  try {
    parsed = parsePatch(patch);
  } catch {
    return { hunks: [], additions: 0, deletions: 0 };
  }
  return summarise(parsed.flatMap((file) => file.hunks.map((hunk) => toHunk(hunk, 0))));
}

/** A whole new file: every line added, numbered from 1. */
export function diffNewFile(content: string): ChangeDiff {
  return diffChange({ path: '', file: 'new', segments: ['', '', ''], firstLine: 1, bytes: 0, lines: 0, hash: 'absent' }, content)!;
}

/** "lines 40–52", "line 7": where the change lands. */
export function linesLabel(lines: { from: number; to: number }): string {
  return lines.from === lines.to ? `line ${lines.from}` : `lines ${lines.from}–${lines.to}`;
}

function toHunk(hunk: StructuredPatchHunk, offset: number): DiffHunk {
  // jsdiff numbers an empty side from 0; its first line would be line 1.
  let oldLine = Math.max(hunk.oldStart, 1) + offset;
  let newLine = Math.max(hunk.newStart, 1) + offset;
  const rows: DiffRow[] = [];
  for (const line of hunk.lines) {
    const sign = line[0];
    const text = line.slice(1);
    if (sign === '+') rows.push({ kind: 'added', text, newLine: newLine++ });
    else if (sign === '-') rows.push({ kind: 'removed', text, oldLine: oldLine++ });
    else if (sign === '\\') rows.push({ kind: 'note', text: text.trim() });
    else rows.push({ kind: 'context', text, oldLine: oldLine++, newLine: newLine++ });
  }
  return { oldStart: hunk.oldStart + offset, oldLines: hunk.oldLines, newStart: hunk.newStart + offset, newLines: hunk.newLines, rows };
}

function summarise(hunks: DiffHunk[]): ChangeDiff {
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    for (const row of hunk.rows) {
      if (row.kind === 'added') additions++;
      else if (row.kind === 'removed') deletions++;
    }
  }
  const first = hunks[0];
  const last = hunks.at(-1);
  if (!first || !last) return { hunks, additions, deletions };
  // The span of the hunks in the file as it is now (a new file: in the file as it will be).
  const side = (hunk: DiffHunk) =>
    hunk.oldLines > 0
      ? { start: hunk.oldStart, count: hunk.oldLines }
      : { start: Math.max(hunk.newStart, 1), count: Math.max(hunk.newLines, 1) };
  const from = Math.max(side(first).start, 1);
  const to = Math.max(side(last).start + side(last).count - 1, from);
  return { hunks, additions, deletions, lines: { from, to } };
}

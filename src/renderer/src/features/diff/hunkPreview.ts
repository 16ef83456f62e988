import type { HunkRange } from '../../../../shared/events';

/** One line of a hunk, as the preview shows it: its number on its side of the diff, and its text. */
export interface PreviewLine {
  kind: 'removed' | 'added';
  line: number;
  text: string;
}

/** A file's two sides cut into lines once, so each hunk's preview is a slice (a big file has many hunks). */
export interface DiffLines {
  before: string[];
  after: string[];
}

export function diffLines(before: string, after: string): DiffLines {
  return { before: splitLines(before), after: splitLines(after) };
}

/** The hunk's removed lines, then its added ones, numbered as the file's old and new sides number them. */
export function hunkPreview(lines: DiffLines, hunk: HunkRange): PreviewLine[] {
  const removed = lines.before.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines);
  const added = lines.after.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines);
  return [
    ...(hunk.oldLines > 0 ? removed.map((text, at) => ({ kind: 'removed' as const, line: hunk.oldStart + at, text })) : []),
    ...(hunk.newLines > 0 ? added.map((text, at) => ({ kind: 'added' as const, line: hunk.newStart + at, text })) : []),
  ];
}

/** The few lines a closed preview shows: the first removed and the first added, so a change reads as before → after. */
export function compactPreview(lines: PreviewLine[], max = 2): PreviewLine[] {
  const firstRemoved = lines.find((line) => line.kind === 'removed');
  const firstAdded = lines.find((line) => line.kind === 'added');
  const picked = firstRemoved && firstAdded ? [firstRemoved, firstAdded] : lines.slice(0, max);
  return picked.slice(0, max);
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

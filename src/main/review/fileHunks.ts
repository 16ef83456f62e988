import { createHash } from 'node:crypto';
import { diffLines, type ChangeObject } from 'diff';
import type { DiffHunk } from '../../shared/contract';

/**
 * A text file's changes cut into hunks that can be undone one at a time. A hunk is a run of removed
 * and added lines between unchanged ones (no context lines), so two edits a line apart stay two
 * hunks. Lines keep their endings, so undoing a hunk splices bytes back exactly: the rest of the
 * file, line endings and a missing final newline included, is left as it is.
 */
export interface FileHunks {
  hunks: DiffHunk[];
  /** `after` with hunk `index` undone (its lines as `before` had them), everything else untouched. */
  revert(index: number): string;
}

/** Past this, a diff is too costly to cut into hunks; the file can still be reverted whole. */
const DIFF_TIMEOUT_MS = 1500;

/** Cuts `before` → `after` into hunks, or returns null when the diff gave up (the texts are too large and too different). */
export function fileHunks(before: string, after: string): FileHunks | null {
  const changes = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return null;
  const runs = hunkRuns(changes);
  return {
    hunks: runs.map((run) => run.hunk),
    revert(index) {
      const target = runs[index];
      if (!target) throw new RangeError(`There is no hunk ${index}; the file has ${runs.length}.`);
      let text = '';
      changes.forEach((change, position) => {
        const inTarget = position >= target.first && position <= target.last;
        if (!change.added && !change.removed) text += change.value;
        else if (change.removed && inTarget) text += change.value;
        else if (change.added && !inTarget) text += change.value;
      });
      return text;
    },
  };
}

interface Run {
  /** Indexes into the change list: the run's first and last change. */
  first: number;
  last: number;
  hunk: DiffHunk;
}

function hunkRuns(changes: ChangeObject<string>[]): Run[] {
  const runs: Run[] = [];
  let oldLine = 0;
  let newLine = 0;
  let open: { first: number; last: number; oldAt: number; newAt: number; removed: string; added: string } | null = null;
  const close = () => {
    if (!open) return;
    const oldLines = lineCount(open.removed);
    const newLines = lineCount(open.added);
    const range = {
      // Unified-diff numbering: an empty side names the line before it.
      oldStart: oldLines > 0 ? open.oldAt + 1 : open.oldAt,
      oldLines,
      newStart: newLines > 0 ? open.newAt + 1 : open.newAt,
      newLines,
    };
    runs.push({ first: open.first, last: open.last, hunk: { ...range, fingerprint: fingerprint(range, open.removed, open.added) } });
    open = null;
  };
  changes.forEach((change, position) => {
    const lines = lineCount(change.value);
    if (!change.added && !change.removed) {
      close();
      oldLine += lines;
      newLine += lines;
      return;
    }
    open ??= { first: position, last: position, oldAt: oldLine, newAt: newLine, removed: '', added: '' };
    open.last = position;
    if (change.removed) {
      open.removed += change.value;
      oldLine += lines;
    } else {
      open.added += change.value;
      newLine += lines;
    }
  });
  close();
  return runs;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

function fingerprint(
  range: { oldStart: number; oldLines: number; newStart: number; newLines: number },
  removed: string,
  added: string,
): string {
  return createHash('sha256')
    .update(`${range.oldStart},${range.oldLines},${range.newStart},${range.newLines}\0${removed}\0${added}`)
    .digest('hex')
    .slice(0, 20);
}

import { useMemo } from 'react';
import { diffLines } from 'diff';
import type { FileChange } from '../../../../shared/fileChange';
import { toolTraits } from '../../../../shared/toolCatalog';
import { diffChange, diffNewFile, linesLabel } from './changeDiff';
import { DiffHunks } from './DiffHunks';

interface Line {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/**
 * What an edit or a write will do to the file, as a unified diff against the file as it is now,
 * with line numbers, three lines of context and where in the file it lands ("src/a.ts, lines
 * 40–52"). `after` is the new text (the model's, or the person's edit). A request logged before
 * requests carried the file (`change` absent) shows the old and new text alone.
 */
export function EditPreview({
  change,
  tool,
  before,
  after,
}: {
  change?: FileChange | undefined;
  tool: string;
  before: string;
  after: string;
}) {
  if (!change) return <PlainEditPreview before={before} after={after} />;
  return <FileChangePreview change={change} tool={tool} after={after} />;
}

function FileChangePreview({ change, tool, after }: { change: FileChange; tool: string; after: string }) {
  const diff = useMemo(
    () => (change.file === 'text' || change.file === 'new' ? diffChange(change, after) : diffNewFile(after)),
    [change, after],
  );
  const notes = lineEndingNotes(change, tool, after);
  if (!diff) return null;
  let position: string;
  if (change.file === 'new') position = `${change.path}, a new file of ${count(diff.additions, 'line')}`;
  else if (change.file !== 'text') position = `${change.path}, replaced whole`;
  else if (diff.lines) position = `${change.path}, ${linesLabel(diff.lines)} (+${diff.additions} −${diff.deletions})`;
  else position = `${change.path}: no change`;
  return (
    <div className="file-change" data-testid="permission-file-change" data-file={change.file}>
      <p className="diff-position mono" data-testid="permission-diff-position">
        {position}
      </p>
      {change.file === 'binary' && (
        <p className="diff-notice" data-testid="permission-diff-notice">
          {change.path} is a binary file of {count(change.bytes, 'byte')} now, so no diff can be shown: allowing replaces it with the text
          below.
        </p>
      )}
      {change.file === 'too-large' && (
        <p className="diff-notice" data-testid="permission-diff-notice">
          {change.path} is {formatBytes(change.bytes)} ({count(change.lines, 'line')}) now, too large to diff here: allowing replaces{' '}
          {toolTraits(tool)?.writes === 'matched text' ? 'the matched text' : 'all of it'} as below.
        </p>
      )}
      {notes.map((note) => (
        <p key={note} className="diff-notice" data-testid="permission-diff-notice">
          {note}
        </p>
      ))}
      {diff.hunks.length > 0 ? (
        <DiffHunks hunks={diff.hunks} testId="permission-edit-diff" label="Proposed change" />
      ) : (
        <p className="faint" data-testid="permission-edit-diff">
          The file already has exactly this text: nothing would change.
        </p>
      )}
    </div>
  );
}

/** What the diff, compared as LF lines, does not show: which line endings the file will have. */
function lineEndingNotes(change: FileChange, tool: string, after: string): string[] {
  if (change.file === 'new' || change.file === 'binary') return [];
  const crlfText = after.includes('\r\n');
  // A matched-text edit writes new text with the file's endings; a whole-file write keeps CRLF only when the content has none of its own.
  const writes = toolTraits(tool)?.writes;
  if (change.crlf && (writes === 'matched text' || !crlfText)) return ['The file’s CRLF line endings are kept.'];
  if (!change.crlf && crlfText && writes === 'whole file')
    return ['The new content has CRLF line endings; the file has LF now, so every line’s ending changes.'];
  return [];
}

function count(value: number, unit: string): string {
  return `${value.toLocaleString('en-US')} ${unit}${value === 1 ? '' : 's'}`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The old and new text of an edit alone, for a request logged before requests carried the file. */
function PlainEditPreview({ before, after }: { before: string; after: string }) {
  const lines = useMemo(() => toLines(before, after), [before, after]);
  return (
    <div className="edit-preview code-block" data-testid="permission-edit-diff" role="group" aria-label="Proposed change">
      {lines.map((line, index) => (
        <div key={index} className={`diff-line diff-${line.kind}`}>
          <span className="diff-sign" aria-hidden="true">
            {line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}
          </span>
          <span className="visually-hidden">{line.kind === 'added' ? 'added: ' : line.kind === 'removed' ? 'removed: ' : ''}</span>
          <span className="diff-text">{line.text || ' '}</span>
        </div>
      ))}
    </div>
  );
}

function toLines(before: string, after: string): Line[] {
  const lines: Line[] = [];
  for (const change of diffLines(before, after)) {
    const kind = change.added ? 'added' : change.removed ? 'removed' : 'same';
    const text = change.value.endsWith('\n') ? change.value.slice(0, -1) : change.value;
    for (const line of text.split('\n')) lines.push({ kind, text: line });
  }
  return lines;
}

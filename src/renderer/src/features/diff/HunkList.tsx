import { useMemo, useState } from 'react';
import type { DiffHunk, FileDiff } from '../../../../shared/contract';
import { plural } from '../../lib/format';
import { useApp } from '../../stores/useApp';
import { compactPreview, diffLines, hunkPreview, type DiffLines, type PreviewLine } from './hunkPreview';

/** Where a hunk is, in the agent's version of the file (the right-hand side of the diff); a new or deleted file is one whole hunk. */
function hunkLabel(hunk: DiffHunk, status: FileDiff['status']): string {
  if (status === 'added') return `new file, ${plural(hunk.newLines, 'line')}`;
  if (status === 'deleted') return `deleted file, ${plural(hunk.oldLines, 'line')}`;
  if (hunk.newLines === 0) return hunk.newStart === 0 ? 'at the start' : `after line ${hunk.newStart}`;
  if (hunk.newLines === 1) return `line ${hunk.newStart}`;
  return `lines ${hunk.newStart}–${hunk.newStart + hunk.newLines - 1}`;
}

/** An opened preview shows this many lines at most; the editor shows the rest. */
const OPEN_PREVIEW_LINES = 200;

/**
 * The open file's review actions: accept or revert the whole file, or revert one hunk at a time (the
 * server's hunks, which are what a revert undoes), each with a preview of its lines; clicking a
 * hunk's place shows it in the editor.
 */
export function HunkList({
  sessionId,
  diff,
  busy,
  onReveal,
}: {
  sessionId: string;
  diff: FileDiff;
  busy: string | null;
  onReveal(line: number): void;
}) {
  const pending = useApp((state) => state.reviewPending[sessionId] ?? null);
  const revertFile = useApp((state) => state.revertFile);
  const acceptFile = useApp((state) => state.acceptFile);
  const disabled = busy !== null || pending !== null;
  const hunks = diff.hunks ?? [];
  // Cut once per file, not per hunk: a big file can have hundreds of hunks.
  const lines = useMemo(() => (diff.binary ? null : diffLines(diff.before, diff.after)), [diff]);

  return (
    <div className="hunk-bar" data-testid="hunk-bar" aria-label={`Review ${diff.path}`} role="group">
      <div className="hunk-bar-head">
        <span className="hunk-file mono" title={diff.path}>
          {diff.path}
        </span>
        <span className="spacer" />
        <button
          type="button"
          data-testid="accept-file"
          disabled={pending !== null}
          title={`Accept the changes to ${diff.path}: it leaves this list (the file is not touched)`}
          onClick={() => void acceptFile(sessionId, diff.path)}
        >
          Accept file
        </button>
        <button
          type="button"
          data-testid="revert-file"
          disabled={disabled}
          title={busy ?? `Put ${diff.path} back as it was`}
          onClick={() => void revertFile(sessionId, diff.path)}
        >
          Revert file
        </button>
        {diff.binary && <span className="faint">binary: whole-file revert only</span>}
      </div>
      {lines && hunks.length > 0 && (
        <ol className="hunk-list" aria-label="Hunks">
          {hunks.map((hunk, index) => (
            <HunkItem
              key={hunk.fingerprint}
              sessionId={sessionId}
              path={diff.path}
              status={diff.status}
              hunk={hunk}
              index={index}
              lines={lines}
              disabled={disabled}
              busy={busy}
              onReveal={onReveal}
            />
          ))}
        </ol>
      )}
    </div>
  );
}

function HunkItem({
  sessionId,
  path,
  status,
  hunk,
  index,
  lines,
  disabled,
  busy,
  onReveal,
}: {
  sessionId: string;
  path: string;
  status: FileDiff['status'];
  hunk: DiffHunk;
  index: number;
  lines: DiffLines;
  disabled: boolean;
  busy: string | null;
  onReveal(line: number): void;
}) {
  const revertHunk = useApp((state) => state.revertHunk);
  const [open, setOpen] = useState(false);
  const preview = useMemo(() => hunkPreview(lines, hunk), [lines, hunk]);
  const shown = open ? preview.slice(0, OPEN_PREVIEW_LINES) : compactPreview(preview);
  const hidden = preview.length - shown.length;
  const previewId = `hunk-preview-${index}`;

  return (
    <li className="hunk" data-testid="hunk" data-new-start={hunk.newStart}>
      <div className="hunk-head">
        <button
          type="button"
          className="ghost hunk-place"
          title="Show this hunk in the editor"
          onClick={() => onReveal(Math.max(1, hunk.newStart))}
        >
          {hunkLabel(hunk, status)}
          <span className="mono">
            {' '}
            <span className="removed">−{hunk.oldLines}</span> <span className="added">+{hunk.newLines}</span>
          </span>
        </button>
        {preview.length > 2 && (
          <button
            type="button"
            className="ghost hunk-more"
            data-testid="hunk-expand"
            aria-expanded={open}
            aria-controls={previewId}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Fewer lines' : `All ${preview.length} lines`}
          </button>
        )}
        <button
          type="button"
          className="hunk-revert"
          data-testid="revert-hunk"
          disabled={disabled}
          aria-label={`Revert hunk ${index + 1} (${hunkLabel(hunk, status)})`}
          title={busy ?? 'Undo this hunk only'}
          onClick={() => void revertHunk(sessionId, path, index, hunk)}
        >
          Revert
        </button>
      </div>
      <div className="hunk-preview mono" id={previewId} data-testid="hunk-preview" aria-label={`Lines of hunk ${index + 1}`}>
        {shown.map((line) => (
          <PreviewRow key={`${line.kind}${line.line}`} line={line} />
        ))}
        {hidden > 0 && open && <div className="hunk-preview-rest faint">…{hidden} more lines: see the editor</div>}
      </div>
    </li>
  );
}

function PreviewRow({ line }: { line: PreviewLine }) {
  return (
    <div className={`hunk-line hunk-line-${line.kind}`} data-kind={line.kind}>
      <span className="hunk-line-number" aria-hidden="true">
        {line.line}
      </span>
      <span className="hunk-line-sign" aria-hidden="true">
        {line.kind === 'removed' ? '−' : '+'}
      </span>
      <span className="hunk-line-text">{line.text === '' ? ' ' : line.text}</span>
      <span className="visually-hidden">
        {line.kind === 'removed' ? ` (removed, old line ${line.line})` : ` (added, line ${line.line})`}
      </span>
    </div>
  );
}

import type { DiffHunk, FileDiff } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';

/** Where a hunk is, in the agent's version of the file (the right-hand side of the diff). */
function hunkLabel(hunk: DiffHunk): string {
  if (hunk.newLines === 0) return `after line ${hunk.newStart}`;
  if (hunk.newLines === 1) return `line ${hunk.newStart}`;
  return `lines ${hunk.newStart}–${hunk.newStart + hunk.newLines - 1}`;
}

/**
 * The open file's review actions: revert the whole file, or one hunk at a time (the server's hunks,
 * which are what a revert undoes); clicking a hunk's place shows it in the editor.
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
  const revertHunk = useApp((state) => state.revertHunk);
  const revertFile = useApp((state) => state.revertFile);
  const disabled = busy !== null || pending !== null;
  const hunks = diff.hunks ?? [];

  return (
    <div className="hunk-bar" data-testid="hunk-bar" aria-label={`Review ${diff.path}`} role="toolbar">
      <span className="hunk-file mono" title={diff.path}>
        {diff.path}
      </span>
      <button
        type="button"
        data-testid="revert-file"
        disabled={disabled}
        title={busy ?? `Put ${diff.path} back as it was`}
        onClick={() => void revertFile(sessionId, diff.path)}
      >
        Revert file
      </button>
      {diff.binary ? (
        <span className="faint">binary: whole-file revert only</span>
      ) : hunks.length === 0 ? null : (
        <ol className="hunk-list" aria-label="Hunks">
          {hunks.map((hunk, index) => (
            <li key={hunk.fingerprint} className="hunk" data-testid="hunk" data-new-start={hunk.newStart}>
              <button
                type="button"
                className="ghost hunk-place"
                title="Show this hunk"
                onClick={() => onReveal(Math.max(1, hunk.newStart))}
              >
                {hunkLabel(hunk)}
                <span className="mono">
                  {' '}
                  <span className="removed">−{hunk.oldLines}</span> <span className="added">+{hunk.newLines}</span>
                </span>
              </button>
              <button
                type="button"
                className="hunk-revert"
                data-testid="revert-hunk"
                disabled={disabled}
                aria-label={`Revert hunk ${index + 1} (${hunkLabel(hunk)})`}
                title={busy ?? 'Undo this hunk only'}
                onClick={() => void revertHunk(sessionId, diff.path, index, hunk)}
              >
                Revert
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

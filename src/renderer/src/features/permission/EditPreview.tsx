import { useMemo } from 'react';
import { diffLines } from 'diff';

interface Line {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** An edit as a person reads it: the lines it removes and the lines it puts in their place. */
export function EditPreview({ before, after }: { before: string; after: string }) {
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

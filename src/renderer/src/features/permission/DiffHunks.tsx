import { useState } from 'react';
import type { DiffHunk, DiffRow } from './changeDiff';
import './diffHunks.css';

/** Rows drawn before "Show all": a 10,000-line rewrite must not stall the request or the card. */
const MAX_ROWS = 400;

const signs: Record<DiffRow['kind'], string> = { added: '+', removed: '−', context: ' ', note: '\\' };
const spoken: Record<DiffRow['kind'], string> = { added: 'added: ', removed: 'removed: ', context: '', note: '' };

/**
 * Unified-diff hunks with the line numbers of both sides in a gutter, added and removed lines in
 * their colours, and a separator naming where each hunk starts. Text only: nothing here is HTML.
 */
export function DiffHunks({ hunks, testId, label }: { hunks: readonly DiffHunk[]; testId: string; label: string }) {
  const [all, setAll] = useState(false);
  const total = hunks.reduce((sum, hunk) => sum + hunk.rows.length, 0);
  let budget = all ? Infinity : MAX_ROWS;
  return (
    <div className="diff-hunks code-block" data-testid={testId} role="group" aria-label={label}>
      {hunks.map((hunk, index) => {
        if (budget <= 0) return null;
        const rows = hunk.rows.slice(0, budget);
        budget -= rows.length;
        return (
          <div key={index} className="diff-hunk" data-testid="diff-hunk">
            <div className="diff-hunk-header">
              @@ −{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
            </div>
            {rows.map((row, rowIndex) => (
              <div key={rowIndex} className={`diff-row diff-${row.kind}`} data-kind={row.kind}>
                <span className="diff-gutter" aria-hidden="true" data-testid="diff-old-line">
                  {row.oldLine ?? ''}
                </span>
                <span className="diff-gutter" aria-hidden="true" data-testid="diff-new-line">
                  {row.newLine ?? ''}
                </span>
                <span className="diff-sign" aria-hidden="true">
                  {signs[row.kind]}
                </span>
                <span className="visually-hidden">{spoken[row.kind]}</span>
                <span className="diff-text">{row.text || ' '}</span>
              </div>
            ))}
          </div>
        );
      })}
      {total > MAX_ROWS && (
        <button type="button" className="ghost show-all" data-testid="diff-show-all" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all ${total.toLocaleString()} lines of the diff (${(total - MAX_ROWS).toLocaleString()} more)`}
        </button>
      )}
    </div>
  );
}

import type { CompactionView } from '../../../../shared/conversationState';
import { formatTokens } from '../../lib/format';
import './context.css';

/**
 * Where the conversation was compacted. Everything above stays on screen; from here on the model
 * gets the task, this summary and the recent turns instead of the older ones.
 */
export function CompactionMarker({ compaction }: { compaction: CompactionView }) {
  return (
    <details className="compaction-marker" data-testid="compaction-marker">
      <summary>
        <span className="compaction-rule" aria-hidden="true" />
        <span className="compaction-label">
          Compacted here: older turns summarised for the model · {formatTokens(compaction.tokensBefore)} →{' '}
          {formatTokens(compaction.tokensAfter)} tokens
        </span>
        <span className="compaction-rule" aria-hidden="true" />
      </summary>
      <div className="compaction-summary" data-testid="compaction-summary">
        <pre>{compaction.summary}</pre>
        {compaction.files.length > 0 && (
          <p className="faint">Files: {compaction.files.map((file) => `${file.path}${file.edited ? ' (changed)' : ''}`).join(', ')}</p>
        )}
      </div>
    </details>
  );
}

import { formatTokens } from '../../lib/format';
import './context.css';

/** Past this share of the window the meter turns to the warning colour: compaction is near. */
const NEAR_FULL = 0.75;

/**
 * How full the model's context is: the size of the next request (as last estimated or reported)
 * against the model's window. While a compaction runs it says so; after one fails, it shows why.
 */
export function ContextMeter({
  tokens,
  window,
  compacting,
  warning,
}: {
  tokens: number;
  window?: number;
  compacting: boolean;
  warning?: string;
}) {
  const share = window ? Math.min(1, tokens / window) : undefined;
  const percent = share === undefined ? undefined : Math.round(share * 100);
  const level = compacting ? 'compacting' : share !== undefined && share >= NEAR_FULL ? 'high' : 'normal';
  const title = [
    window
      ? `Context: about ${tokens.toLocaleString('en-US')} of ${window.toLocaleString('en-US')} tokens (${percent}%). Older turns are summarised automatically before the window is full.`
      : `Context: about ${tokens.toLocaleString('en-US')} tokens. The model's window is not known yet.`,
    warning ? `Last compaction: ${warning}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <span className={`context-meter meta-item level-${level}`} data-testid="context-meter" data-level={level} title={title}>
      {share !== undefined && (
        <span
          className="context-bar"
          role="meter"
          aria-label="Context used"
          aria-valuemin={0}
          aria-valuemax={window}
          aria-valuenow={Math.min(tokens, window ?? tokens)}
        >
          <span className="context-fill" style={{ width: `${Math.max(2, percent ?? 0)}%` }} />
        </span>
      )}
      <span className="context-text">
        {compacting ? (
          <span data-testid="context-compacting">
            <span className="spinner" aria-hidden="true" /> compacting…
          </span>
        ) : (
          <>
            {formatTokens(tokens)}
            {window ? ` / ${formatTokens(window)} · ${percent}%` : ' tokens'}
          </>
        )}
      </span>
      {warning && !compacting && (
        <span className="context-warning" data-testid="context-warning" aria-label={`Not compacted: ${warning}`}>
          ⚠
        </span>
      )}
    </span>
  );
}

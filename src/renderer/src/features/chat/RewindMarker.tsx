import { useState } from 'react';
import { undoableRewind, type RewindView } from '../../../../shared/rewinds';
import { plural } from '../../lib/format';
import { itemCount } from '../../../../shared/conversationState';
import { isActive } from '../../stores/selectors';
import { useApp } from '../../stores/useApp';
import { ConversationEntry } from './ConversationEntry';
import { stepLabel } from './rewindSteps';

const restoreLabels = { both: 'files and conversation', files: 'files only', conversation: 'conversation only' } as const;

/**
 * Where the person rewound (or undid a rewind): what it restored, what it could not undo, the
 * entries it took out of what the model sees (greyed, on request), and "Undo rewind" on the latest.
 */
export function RewindMarker({ sessionId, rewind }: { sessionId: string; rewind: RewindView }) {
  const label = useApp((state) => {
    const log = state.logs[sessionId]?.state;
    return log
      ? stepLabel(log, rewind.kind === 'undo' ? (log.rewinds.find((r) => r.seq === rewind.toSeq)?.toSeq ?? rewind.toSeq) : rewind.toSeq)
      : '';
  });
  const undoable = useApp((state) => {
    const log = state.logs[sessionId]?.state;
    return log ? undoableRewind(log)?.seq === rewind.seq : false;
  });
  const working = useApp((state) => {
    const status = state.logs[sessionId]?.state.status;
    return status !== undefined && isActive(status);
  });
  const undoing = useApp((state) => state.undoingRewind[sessionId] ?? false);
  // The session went on after the rewind: undoing it takes that out too (it shows greyed under the undo).
  const continued = useApp((state) => {
    const log = state.logs[sessionId]?.state;
    return log !== undefined && itemCount(log) > rewind.atItem;
  });
  const undoRewind = useApp((state) => state.undoRewind);
  const [showDropped, setShowDropped] = useState(false);
  // Tool results are drawn inside their calls' cards: count what the person sees.
  const entries = rewind.dropped.filter((item) => item.type !== 'tool_result').length;
  const droppedId = `rewound-${rewind.seq}`;

  return (
    <section
      className={`rewind-marker rewind-${rewind.kind}`}
      data-testid="rewind-marker"
      data-kind={rewind.kind}
      aria-label={rewind.kind === 'undo' ? 'Rewind undone' : 'Rewind'}
    >
      <div className="rewind-marker-line">
        <span className="rewind-marker-icon" aria-hidden="true">
          {rewind.kind === 'undo' ? '⟳' : '⟲'}
        </span>
        <span className="rewind-marker-text" data-testid="rewind-marker-text">
          {rewind.kind === 'undo' ? (
            <>
              Rewind undone ({restoreLabels[rewind.restore]}): back to how things were before the rewind to {label}.
            </>
          ) : (
            <>
              Rewound to {label} ({restoreLabels[rewind.restore]}).
            </>
          )}
          {rewind.files.length > 0 && (
            <span className="faint">
              {' '}
              {plural(rewind.files.length, 'file')}{' '}
              {rewind.restore === 'conversation' ? 'left as they are, though they differ from that step.' : 'restored.'}
            </span>
          )}
        </span>
        {entries > 0 && (
          <button
            type="button"
            className="ghost"
            aria-expanded={showDropped}
            aria-controls={droppedId}
            data-testid="rewind-show-dropped"
            onClick={() => setShowDropped(!showDropped)}
          >
            {showDropped ? 'Hide' : 'Show'} {plural(entries, 'rewound entry', 'rewound entries')}
            {rewind.droppedMore ? ` (and ${plural(rewind.droppedMore, 'later item')}, kept in the log)` : ''}
          </button>
        )}
        {undoable && (
          <button
            type="button"
            data-testid="rewind-undo"
            disabled={undoing || working}
            title={
              working
                ? 'Stop the agent first'
                : `Put the files and the conversation back as they were before this rewind${continued && rewind.restore !== 'files' ? '; what came after the rewind is taken out of the conversation' : ''}`
            }
            onClick={() => void undoRewind(sessionId)}
          >
            {undoing ? 'Undoing…' : 'Undo rewind'}
          </button>
        )}
      </div>
      {rewind.warnings.length > 0 && (
        <div className="rewind-warnings" role="note">
          <div className="rewind-warnings-title">Not undone (it reached beyond the workspace):</div>
          <ul>
            {rewind.warnings.map((warning) => (
              <li key={warning.callId}>
                <code className="mono">{warning.summary}</code> <span className="faint">— {warning.why}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {showDropped && (
        <div className="rewind-dropped" id={droppedId} data-testid="rewind-dropped" aria-label="Rewound entries (not sent to the model)">
          {rewind.dropped.map((item, index) => (
            <ConversationEntry key={index} sessionId={sessionId} item={item} />
          ))}
        </div>
      )}
    </section>
  );
}

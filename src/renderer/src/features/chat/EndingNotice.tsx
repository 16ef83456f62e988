import type { EndingView } from '../../../../shared/session';
import { useApp } from '../../stores/useApp';
import { endingHeadline } from './failureText';
import './failure.css';

/**
 * A stop that was not an answer, kept at its place in the conversation. The latest one, while the
 * session is still stopped there, offers Retry (Continue at the step limit) and, for a model
 * failure, Open settings.
 */
export function EndingNotice({ sessionId, ending, latest }: { sessionId: string; ending: EndingView; latest: boolean }) {
  const status = useApp((state) => state.logs[sessionId]?.state.status);
  const running = useApp((state) => state.sessions[sessionId]?.status === 'working' || state.sessions[sessionId]?.status === 'waiting');
  const retrySession = useApp((state) => state.retrySession);
  const showSettings = useApp((state) => state.showSettings);
  const current = latest && status === ending.status && !running;
  const offerRetry = current && ending.status !== 'aborted';
  return (
    <div
      className={`end-notice ending status-${ending.status}${current ? ' current' : ''}`}
      data-testid="ending-notice"
      data-status={ending.status}
      data-failure={ending.modelFailure?.kind}
      role={current ? 'alert' : undefined}
    >
      <div className="ending-text">
        <strong className="status-text">{endingHeadline(ending)}</strong>
        <span className="ending-reason">{ending.reason}</span>
      </div>
      {current && (offerRetry || ending.modelFailure) && (
        <div className="ending-actions">
          {offerRetry && (
            <button type="button" className="primary" data-testid="ending-retry" onClick={() => void retrySession(sessionId)}>
              {ending.status === 'max_steps' ? 'Continue' : 'Retry'}
            </button>
          )}
          {ending.modelFailure && (
            <button type="button" data-testid="ending-open-settings" onClick={showSettings}>
              Open settings
            </button>
          )}
        </div>
      )}
    </div>
  );
}

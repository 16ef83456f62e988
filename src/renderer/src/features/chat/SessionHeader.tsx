import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../stores/useApp';
import { statusLabel } from '../../stores/selectors';
import { formatTokens } from '../../lib/format';
import { ModeControl } from './ModeControl';
import { TaintIndicator } from './TaintIndicator';

/** Status, model, permission mode, tokens and taint of the selected session, in one line. */
export function SessionHeader({ sessionId }: { sessionId: string }) {
  const summary = useApp((state) => state.sessions[sessionId]);
  const view = useApp(
    useShallow((state) => {
      const log = state.logs[sessionId]?.state;
      return {
        status: log && log.lastSeq > 0 ? log.status : summary?.status ?? 'new',
        model: log?.model || summary?.model || '',
        usage: log?.usage,
        steps: log?.steps ?? 0,
        maxSteps: log?.maxSteps ?? 0,
        taints: log?.taints,
      };
    }),
  );
  const title = summary?.title || 'Untitled session';
  const mode = summary?.mode ?? 'ask';
  const usage = view.usage;

  return (
    <header className="session-header" data-testid="session-header">
      <div className="session-heading">
        <h1 className="session-name" title={summary?.workspace}>
          {title}
        </h1>
        <span className={`status-pill status-${view.status}`} data-testid="session-header-status" data-status={view.status}>
          <span className={`status-dot status-${view.status}`} aria-hidden="true" />
          <span className="status-text">{statusLabel(view.status)}</span>
        </span>
      </div>
      <div className="session-meta">
        {view.model && (
          <span className="mono meta-item" data-testid="session-model" title="The model is pinned for the session's life">
            {view.model}
          </span>
        )}
        <ModeControl sessionId={sessionId} mode={mode} />
        {mode === 'unleashed' && (
          <span className="badge unleashed" data-testid="unleashed-badge" title="Unleashed: actions that would ask run without asking. Deny rules still hold.">
            UNLEASHED
          </span>
        )}
        {usage && (
          <span
            className="meta-item faint"
            data-testid="session-tokens"
            title={`Input ${usage.inputTokens} (cached ${usage.cachedInputTokens}), output ${usage.outputTokens} (reasoning ${usage.reasoningTokens})`}
          >
            {formatTokens(usage.inputTokens)} in · {formatTokens(usage.outputTokens)} out
          </span>
        )}
        {view.maxSteps > 0 && (
          <span className="meta-item faint" data-testid="session-steps" title="Model requests so far, and the limit">
            step {view.steps}/{view.maxSteps}
          </span>
        )}
        {view.taints && view.taints.length > 0 && <TaintIndicator taints={view.taints} />}
      </div>
    </header>
  );
}

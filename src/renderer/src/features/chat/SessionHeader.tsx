import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../stores/useApp';
import { statusLabel } from '../../stores/selectors';
import { formatDollars, formatUsage, plural } from '../../lib/format';
import { ModeControl } from './ModeControl';
import { TaintIndicator } from './TaintIndicator';
import { ContextMeter } from './ContextMeter';
import { InstructionsChip } from './InstructionsChip';
import { SandboxTempChip } from './SandboxTempChip';
import { selectReviewShown } from '../../stores/paneDefaults';
import { IconButton } from '../../ui/IconButton';
import './autonomy.css';

/** Status, model, permission mode, tokens and taint of the selected session, in one line. */
export function SessionHeader({ sessionId }: { sessionId: string }) {
  const summary = useApp((state) => state.sessions[sessionId]);
  const view = useApp(
    useShallow((state) => {
      const log = state.logs[sessionId]?.state;
      return {
        status: log && log.lastSeq > 0 ? log.status : (summary?.status ?? 'new'),
        model: log?.model || summary?.model || '',
        usage: log?.usage,
        steps: log?.steps ?? 0,
        maxSteps: log?.maxSteps ?? 0,
        taints: log?.taints,
        unsandboxedRuns: log?.unsandboxedRuns.length ?? 0,
        ranUnasked: log?.ranUnasked.length ?? 0,
        context: log?.context,
        costUsd: log?.costUsd ?? 0,
        unpricedResponses: log?.unpricedResponses ?? 0,
        instructions: log?.instructions,
        hasItems: (log?.items.length ?? 0) > 1,
      };
    }),
  );
  const title = summary?.title || 'Untitled session';
  const mode = summary?.mode ?? 'ask';
  // A remote run's mode and context are its runner's: nothing to change from here.
  const remote = summary?.remote !== undefined;
  const usage = view.usage;
  const compactSession = useApp((state) => state.compactSession);
  const reviewShown = useApp((state) => selectReviewShown(state, sessionId));
  const toggleReview = useApp((state) => state.toggleReview);
  const showHistory = useApp((state) => state.showHistory);

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
        <span className="spacer" />
        <IconButton
          icon="history"
          label="Permission history of this session"
          title="Permission history of this session: every decision, who made it, and exports"
          data-testid="session-history"
          onClick={() => showHistory(sessionId)}
        />
        <IconButton
          icon="panelRight"
          className="pane-toggle"
          label={reviewShown ? 'Fold the plan and changes' : 'Show the plan and changes'}
          pressed={reviewShown}
          title={`${reviewShown ? 'Fold' : 'Show'} the plan and changes (Ctrl+Alt+B)`}
          data-testid="review-toggle"
          onClick={() => toggleReview(reviewShown)}
        />
      </div>
      <div className="session-meta">
        {view.model && (
          <span className="mono meta-item" data-testid="session-model" title="The model is pinned for the session's life">
            {view.model}
          </span>
        )}
        {!remote && <ModeControl sessionId={sessionId} mode={mode} />}
        {mode === 'unleashed' && (
          <span
            className="badge unleashed"
            data-testid="unleashed-badge"
            title="Unleashed: actions that would ask run without asking. Deny rules still hold."
          >
            UNLEASHED
          </span>
        )}
        {mode === 'auto' && <AutoBadge worksAsAsk={summary?.autoWorksAsAsk} />}
        {view.ranUnasked > 0 && (
          <span
            className="meta-item ran-unasked"
            data-testid="ran-unasked-count"
            data-count={view.ranUnasked}
            title="Commands, edits, fetches and MCP calls of this session that ran with no question asked (allowed by the mode or a rule); each card says so. Reads are not counted."
          >
            {plural(view.ranUnasked, 'call')} ran unasked
          </span>
        )}
        {view.unsandboxedRuns > 0 && (
          <span
            className="badge no-sandbox"
            data-testid="no-sandbox-badge"
            title="A run of this session had the sandbox turned off (tether run --no-sandbox): its commands ran with full access to your files, secrets and network."
          >
            NO SANDBOX
          </span>
        )}
        {usage && (
          <span
            className="meta-item faint"
            data-testid="session-tokens"
            title={`Input ${usage.inputTokens} (cached ${usage.cachedInputTokens}), output ${usage.outputTokens} (reasoning ${usage.reasoningTokens})`}
          >
            {formatUsage(usage)}
          </span>
        )}
        {usage && usage.inputTokens + usage.outputTokens > 0 && (
          <span
            className="meta-item faint"
            data-testid="session-cost"
            title={
              view.unpricedResponses > 0
                ? 'This model has no known price: set inputPrice and outputPrice for it under "models" in settings.json.'
                : 'The cost so far, at the list prices in settings or the built-in defaults'
            }
          >
            {costLabel(view.costUsd, view.unpricedResponses)}
          </span>
        )}
        {view.context && (view.context.tokens > 0 || view.context.compacting) && (
          <ContextMeter
            tokens={view.context.tokens}
            compacting={view.context.compacting}
            {...(view.context.window !== undefined ? { window: view.context.window } : {})}
            {...(view.context.warning !== undefined ? { warning: view.context.warning } : {})}
          />
        )}
        {view.hasItems && !remote && (
          <button
            type="button"
            className="compact-now"
            data-testid="compact-now"
            disabled={view.context?.compacting === true}
            title="Summarise the older turns so the conversation takes less of the model's context (now, or at the agent's next turn if it is working)"
            onClick={() => void compactSession(sessionId)}
          >
            Compact now
          </button>
        )}
        {view.instructions && <InstructionsChip instructions={view.instructions} />}
        {view.unsandboxedRuns === 0 && <SandboxTempChip sessionId={sessionId} />}
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

/** Auto mode, visible: what runs on its own, or that it works as ask for lack of a sandbox. */
function AutoBadge({ worksAsAsk }: { worksAsAsk: string | undefined }) {
  if (worksAsAsk) {
    return (
      <span
        className="badge auto as-ask"
        data-testid="auto-badge"
        data-works-as-ask="true"
        title={`No sandbox is available here, so auto works as ask: every command asks first, and each question says why. ${worksAsAsk}`}
      >
        AUTO works as ask: no sandbox
      </span>
    );
  }
  return (
    <span
      className="badge auto"
      data-testid="auto-badge"
      data-works-as-ask="false"
      title="Auto: edits in the workspace and commands the sandbox holds run without asking. Writes outside the workspace, fetches, MCP tools and running a command outside the sandbox still ask."
    >
      AUTO
    </span>
  );
}

/** Dollars, or "unknown" where a response had no price: never a figure that leaves part out unsaid. */
function costLabel(costUsd: number, unpriced: number): string {
  const dollars = formatDollars(costUsd);
  if (unpriced === 0) return dollars;
  return costUsd > 0 ? `${dollars} + unknown` : 'cost unknown';
}

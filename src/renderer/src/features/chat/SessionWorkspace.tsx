import { useEffect, useRef, type CSSProperties, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../stores/useApp';
import { Splitter } from '../../ui/Splitter';
import { clampReview, clampTerminal, paneBounds } from '../../ui/paneSizes';
import { SessionHeader } from './SessionHeader';
import { Conversation } from './Conversation';
import { SessionTaskBox } from './SessionTaskBox';
import { RemoteRunNotice } from './RemoteRunNotice';
import { ReviewRail } from './ReviewRail';
import { selectReviewShown, selectTerminalShown } from '../../stores/paneDefaults';
import { SessionRequest } from '../permission/SessionRequest';
import { PlanPanel } from '../plan/PlanPanel';
import { DiffPanel } from '../diff/DiffPanel';
import { preloadDiffViewer } from '../diff/monacoViews';
import { selectSessionApproval } from '../../stores/selectors';
import { TerminalPanel } from '../terminal/TerminalPanel';

/**
 * The selected session: the conversation (with any permission request docked above the task box),
 * the plan and live diff beside it, the terminal below. The bars between them resize them; the
 * review column folds to a rail, or takes the conversation's place (full width) until the person
 * goes back (its button, or Esc).
 */
export function SessionWorkspace({ sessionId }: { sessionId: string }) {
  const layout = useApp((state) => state.layout);
  const setLayout = useApp((state) => state.setLayout);
  const fullWidth = useApp((state) => state.reviewFullWidth);
  const setReviewFullWidth = useApp((state) => state.setReviewFullWidth);
  const reviewShown = useApp((state) => selectReviewShown(state, sessionId));
  const terminalOpen = useApp((state) => selectTerminalShown(state, sessionId));
  const remote = useApp((state) => state.sessions[sessionId]?.remote);
  // A session that has run may have changes to show: the diff editor and its worker start loading
  // with the click that opened it (before its log arrives), while the list of changes is worked out.
  const mayHaveChanges = useApp(
    (state) => (state.logs[sessionId]?.state.checkpoints.length ?? 0) > 0 || (state.sessions[sessionId]?.status ?? 'new') !== 'new',
  );
  useEffect(() => {
    if (mayHaveChanges) preloadDiffViewer();
  }, [mayHaveChanges]);
  const workspace = useRef<HTMLElement>(null);
  const review = useRef<HTMLElement>(null);
  const terminal = useRef<HTMLElement>(null);

  const style = {
    ...(layout.reviewWidth ? { '--review-width': `${layout.reviewWidth}px` } : {}),
    ...(layout.terminalHeight ? { '--terminal-height': `${layout.terminalHeight}px` } : {}),
  } as CSSProperties;
  const size = () => workspace.current?.getBoundingClientRect() ?? { width: 0, height: 0 };

  function handleReviewKeyDown(event: KeyboardEvent<HTMLElement>) {
    // What handles Esc inside the review (a file's pane, Monaco's find box) has taken it first.
    if (!fullWidth || event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    setReviewFullWidth(false);
  }

  return (
    <main
      ref={workspace}
      className={`workspace${fullWidth ? ' review-full' : reviewShown ? '' : ' review-folded'}${terminalOpen ? '' : ' terminal-closed'}`}
      style={style}
      data-testid="session-view"
      data-session-id={sessionId}
    >
      {!fullWidth && (
        <section className="centre" aria-label="Conversation">
          <SessionHeader sessionId={sessionId} />
          <Conversation sessionId={sessionId} />
          <SessionRequest sessionId={sessionId} />
          {remote ? <RemoteRunNotice sessionId={sessionId} remote={remote} /> : <SessionTaskBox sessionId={sessionId} />}
        </section>
      )}
      {reviewShown && !fullWidth && (
        <Splitter
          orientation="vertical"
          label="Resize the plan and changes"
          direction={-1}
          testId="review-splitter"
          measure={() => review.current?.getBoundingClientRect().width ?? 0}
          bounds={() => ({ min: paneBounds.review.min, max: clampReview(Number.POSITIVE_INFINITY, size().width) })}
          onResize={(width) => setLayout({ reviewWidth: width })}
          onReset={() => setLayout({ reviewWidth: undefined })}
        />
      )}
      {/* One element in one place whether full width or not, so the diff editor in it is kept, not made again. */}
      {reviewShown ? (
        <aside
          ref={review}
          className={`right${fullWidth ? ' review-full-width' : ''}`}
          aria-label={fullWidth ? 'Plan and changes, full width' : 'Plan and changes'}
          data-testid="review-column"
          data-full-width={fullWidth}
          onKeyDown={handleReviewKeyDown}
        >
          {fullWidth && <WaitingRequestNote sessionId={sessionId} />}
          <PlanPanel sessionId={sessionId} />
          <DiffPanel sessionId={sessionId} />
        </aside>
      ) : (
        <ReviewRail sessionId={sessionId} />
      )}
      {terminalOpen && (
        <Splitter
          orientation="horizontal"
          label="Resize the terminal"
          direction={-1}
          testId="terminal-splitter"
          measure={() => terminal.current?.getBoundingClientRect().height ?? 0}
          bounds={() => ({ min: paneBounds.terminal.min, max: clampTerminal(Number.POSITIVE_INFINITY, size().height) })}
          onResize={(height) => setLayout({ terminalHeight: height })}
          onReset={() => setLayout({ terminalHeight: undefined })}
        />
      )}
      <TerminalPanel ref={terminal} sessionId={sessionId} />
    </main>
  );
}

/** While the review is full width, the conversation (where a request is docked) is out of view: a waiting request says so here. */
function WaitingRequestNote({ sessionId }: { sessionId: string }) {
  const waiting = useApp(useShallow((state) => selectSessionApproval(state, sessionId)));
  const openApproval = useApp((state) => state.openApproval);
  if (!waiting) return null;
  return (
    <div className="panel-note review-waiting" role="status" data-testid="review-waiting-request">
      <span>
        Permission required: <span className="mono">{waiting.approval.tool}</span> waits for your answer in the conversation.
      </span>
      <button type="button" onClick={() => openApproval(waiting.entry, { reach: true })}>
        Go to the request
      </button>
    </div>
  );
}

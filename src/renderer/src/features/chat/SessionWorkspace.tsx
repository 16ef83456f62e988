import { useEffect, useRef, type CSSProperties } from 'react';
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
import { DiffPanel, preloadDiffViewer } from '../diff/DiffPanel';
import { TerminalPanel } from '../terminal/TerminalPanel';

/**
 * The selected session: the conversation (with any permission request docked above the task box),
 * the plan and live diff beside it, the terminal below. The bars between them resize them; the
 * review column folds to a rail.
 */
export function SessionWorkspace({ sessionId }: { sessionId: string }) {
  const layout = useApp((state) => state.layout);
  const setLayout = useApp((state) => state.setLayout);
  const reviewShown = useApp((state) => selectReviewShown(state, sessionId));
  const terminalOpen = useApp((state) => selectTerminalShown(state, sessionId));
  const remote = useApp((state) => state.sessions[sessionId]?.remote);
  // A session with checkpoints may have changes to show: the diff editor starts loading now, while
  // the list of changes is worked out, not once it has arrived.
  const mayHaveChanges = useApp((state) => (state.logs[sessionId]?.state.checkpoints.length ?? 0) > 0);
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

  return (
    <main
      ref={workspace}
      className={`workspace${reviewShown ? '' : ' review-folded'}${terminalOpen ? '' : ' terminal-closed'}`}
      style={style}
      data-testid="session-view"
      data-session-id={sessionId}
    >
      <section className="centre" aria-label="Conversation">
        <SessionHeader sessionId={sessionId} />
        <Conversation sessionId={sessionId} />
        <SessionRequest sessionId={sessionId} />
        {remote ? <RemoteRunNotice sessionId={sessionId} remote={remote} /> : <SessionTaskBox sessionId={sessionId} />}
      </section>
      {reviewShown ? (
        <>
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
          <aside ref={review} className="right" aria-label="Plan and changes" data-testid="review-column">
            <PlanPanel sessionId={sessionId} />
            <DiffPanel sessionId={sessionId} />
          </aside>
        </>
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

import { lazy, Suspense, useEffect, useState } from 'react';
import { plural } from '../../lib/format';
import { Icon } from '../../ui/Icon';
import { isActive } from '../../stores/selectors';
import { useApp } from '../../stores/useApp';
import { DiffFileList } from './DiffFileList';
import type { RevealLine } from './DiffViewer';
import { HunkList } from './HunkList';
import { ReviewBar } from './ReviewBar';
import { SharedFolderNotice } from './SharedFolderNotice';
import { UndoRevertButton } from './UndoRevertButton';
import { WorktreeBar } from './WorktreeBar';
import './review.css';

// Monaco is large; it loads once a session has a change to show, not with the window.
const loadDiffViewer = () => import('./DiffViewer');
const DiffViewer = lazy(loadDiffViewer);

/** Starts loading the diff editor ahead of need (a session whose steps may have changed files). */
export function preloadDiffViewer(): void {
  void loadDiffViewer();
}

/**
 * The live diff: every file the session's own steps changed (since it started or was last accepted,
 * or since the person's last message), one of them opened, and the person's review of it: revert a
 * hunk or a file, accept all. Another session's changes in the same folder are never listed; while
 * one works there, the panel says so and offers a worktree. A worktree session also shows its branch
 * and how to end it.
 */
export function DiffPanel({ sessionId }: { sessionId: string }) {
  const diff = useApp((state) => state.diffs[sessionId]);
  const layout = useApp((state) => state.diffLayout);
  const setDiffLayout = useApp((state) => state.setDiffLayout);
  const refreshDiff = useApp((state) => state.refreshDiff);
  const status = useApp((state) => state.sessions[sessionId]?.status);
  const notice = useApp((state) => state.reviewNotice[sessionId]);
  const dismissReviewNotice = useApp((state) => state.dismissReviewNotice);
  const worktreeGone = useApp((state) => state.logs[sessionId]?.state.worktree?.finished !== undefined);
  const count = diff?.files.length ?? 0;
  // Monaco starts loading as soon as there is a change to show, while the file's two versions are
  // fetched, instead of after they arrive: a freshly loaded page shows a big diff that much sooner.
  const hasChanges = count > 0;
  useEffect(() => {
    if (hasChanges) void loadDiffViewer();
  }, [hasChanges]);
  // The core refuses a revert while the agent works; the buttons say so before anyone tries.
  const busy = status !== undefined && isActive(status) ? 'The agent is working: stop it or let it finish, then revert.' : null;

  return (
    <section className="diff-panel panel" aria-label="Changes" data-testid="diff-panel">
      <div className="panel-header">
        <span className="panel-title">Changes</span>
        <span className="faint" data-testid="diff-count">
          {diff?.status === 'loading' && count === 0 ? 'loading…' : plural(count, 'file')}
        </span>
        <span className="spacer" />
        <div className="segmented" role="group" aria-label="Diff layout">
          <button type="button" aria-pressed={layout === 'side'} data-testid="diff-layout-side" onClick={() => setDiffLayout('side')}>
            Side by side
          </button>
          <button type="button" aria-pressed={layout === 'inline'} data-testid="diff-layout-inline" onClick={() => setDiffLayout('inline')}>
            Inline
          </button>
        </div>
        <button
          type="button"
          className="ghost icon-button"
          aria-label="Refresh the list of changes"
          data-testid="diff-refresh"
          title="Refresh the list of changes"
          onClick={() => void refreshDiff(sessionId)}
        >
          <Icon name="refresh" />
        </button>
      </div>
      <WorktreeBar sessionId={sessionId} busy={busy} />
      <SharedFolderNotice sessionId={sessionId} busy={busy} />
      {notice && (
        <div
          className={`panel-note review-notice${notice.kind === 'error' ? ' error-text' : ''}`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          data-testid="review-notice"
        >
          <span>{notice.message}</span>
          <UndoRevertButton sessionId={sessionId} busy={busy} />
          <button type="button" className="ghost" aria-label="Dismiss" onClick={() => dismissReviewNotice(sessionId)}>
            ×
          </button>
        </div>
      )}
      {worktreeGone ? (
        <div className="empty-state">This session’s worktree is gone: its changes are in the repository’s history, or were discarded.</div>
      ) : (
        <DiffBody sessionId={sessionId} busy={busy} />
      )}
    </section>
  );
}

function DiffBody({ sessionId, busy }: { sessionId: string; busy: string | null }) {
  const diff = useApp((state) => state.diffs[sessionId]);
  const fileDiff = useApp((state) => (state.fileDiff?.sessionId === sessionId ? state.fileDiff : null));
  const layout = useApp((state) => state.diffLayout);
  const pending = useApp((state) => state.reviewPending[sessionId] ?? null);
  const revertHunk = useApp((state) => state.revertHunk);
  const [reveal, setReveal] = useState<RevealLine | null>(null);
  const count = diff?.files.length ?? 0;
  // While another file loads, the last one stays in the editor (which is kept, not re-created).
  const shown = fileDiff?.diff ?? null;
  const stale = shown !== null && shown.path !== fileDiff?.path;
  const reviewable = shown !== null && !stale && fileDiff?.status !== 'error' && count > 0;
  const canRevert = reviewable && busy === null && pending === null;

  return (
    <>
      <ReviewBar sessionId={sessionId} count={count} />
      {diff?.status === 'error' && (
        <p className="panel-note error-text" role="alert">
          Could not list the changes: {diff.error}
        </p>
      )}
      <DiffFileList sessionId={sessionId} />
      {reviewable && <HunkList sessionId={sessionId} diff={shown} busy={busy} onReveal={(line) => setReveal({ line, key: Date.now() })} />}
      <div className="diff-viewer-host">
        {fileDiff === null ? (
          <div className="empty-state">{count === 0 ? 'No changes yet.' : 'Pick a file to see its changes.'}</div>
        ) : fileDiff.status === 'error' && (!shown || stale) ? (
          <div className="empty-state error-text" role="alert">
            Could not load {fileDiff.path}: {fileDiff.error}
          </div>
        ) : shown?.binary ? (
          <div className="empty-state" data-testid="diff-binary">
            {shown.path} is a binary file; its content is not shown.
          </div>
        ) : shown ? (
          <Suspense fallback={<div className="empty-state">Loading the editor…</div>}>
            <DiffViewer
              diff={shown}
              layout={layout}
              reveal={reveal}
              onRevertHunk={
                canRevert ? (index) => shown.hunks?.[index] && void revertHunk(sessionId, shown.path, index, shown.hunks[index]) : undefined
              }
            />
          </Suspense>
        ) : (
          <div className="empty-state">Loading {fileDiff.path}…</div>
        )}
        {fileDiff?.status === 'loading' && stale && (
          <div className="diff-loading" role="status">
            Loading {fileDiff.path}…
          </div>
        )}
      </div>
    </>
  );
}

import { useEffect, useRef } from 'react';
import { plural } from '../../lib/format';
import { Icon } from '../../ui/Icon';
import { IconButton } from '../../ui/IconButton';
import { isActive } from '../../stores/selectors';
import { useApp } from '../../stores/useApp';
import { DiffFileList } from './DiffFileList';
import { HunkList } from './HunkList';
import { ReviewBar } from './ReviewBar';
import { SharedFolderNotice } from './SharedFolderNotice';
import { UndoReviewButton } from './UndoReviewButton';
import { WorkspaceFilePane } from './WorkspaceFilePane';
import { WorktreeBar } from './WorktreeBar';
import { useElementWidth } from './useElementWidth';
import { useCodeView, useDiffViewer } from './monacoViews';
import { ViewLoading } from './ViewLoading';
import './review.css';

/**
 * Below this width the two sides of a diff would each get less than a readable line (about 60
 * characters beside a gutter), so "auto" draws the diff inline; from it, side by side.
 */
export const SIDE_BY_SIDE_MIN_PX = 760;

/**
 * The live diff: every file the session's own steps changed (since it started or was last accepted,
 * or since the person's last message), one of them opened, and the person's review of it: accept or
 * revert a file, revert a hunk, accept all, each undoable. Another session's changes in the same
 * folder are never listed; while one works there, the panel says so and offers a worktree. A
 * worktree session also shows its branch and how to end it. A workspace file named in the
 * conversation shows here too, read-only, in place of the diff.
 */
export function DiffPanel({ sessionId }: { sessionId: string }) {
  const diff = useApp((state) => state.diffs[sessionId]);
  const preference = useApp((state) => state.layout.diffLayout ?? 'auto');
  const foldUnchanged = useApp((state) => state.layout.foldUnchanged ?? true);
  const fullWidth = useApp((state) => state.reviewFullWidth);
  const setLayout = useApp((state) => state.setLayout);
  const setReviewFullWidth = useApp((state) => state.setReviewFullWidth);
  const refreshDiff = useApp((state) => state.refreshDiff);
  const status = useApp((state) => state.sessions[sessionId]?.status);
  const notice = useApp((state) => state.reviewNotice[sessionId]);
  const dismissReviewNotice = useApp((state) => state.dismissReviewNotice);
  const worktreeGone = useApp((state) => state.logs[sessionId]?.state.worktree?.finished !== undefined);
  const panel = useRef<HTMLElement>(null);
  const fullWidthToggle = useRef<HTMLButtonElement>(null);
  const width = useElementWidth(panel);
  // The button pressed is replaced by its opposite: focus goes there rather than to nowhere.
  useEffect(() => {
    if (document.activeElement === document.body) fullWidthToggle.current?.focus();
  }, [fullWidth]);
  const count = diff?.files.length ?? 0;
  // The core refuses a revert while the agent works; the buttons say so before anyone tries.
  const busy = status !== undefined && isActive(status) ? 'The agent is working: stop it or let it finish, then revert.' : null;
  const autoLayout = width !== null && width < SIDE_BY_SIDE_MIN_PX ? 'inline' : 'side';
  const layout = preference === 'auto' ? autoLayout : preference;

  return (
    <section className="diff-panel panel" aria-label="Changes" data-testid="diff-panel" ref={panel}>
      <div className="panel-header">
        <span className="panel-title">Changes</span>
        <span className="faint" data-testid="diff-count">
          {diff?.status === 'loading' && count === 0 ? 'loading…' : plural(count, 'file')}
        </span>
        <span className="spacer" />
        <select
          className="diff-layout"
          aria-label="Diff layout"
          title="How a diff is drawn: auto is inline in a narrow column and side by side in a wide one"
          data-testid="diff-layout"
          data-shown={layout}
          value={preference}
          onChange={(event) => setLayout({ diffLayout: event.target.value as 'auto' | 'side' | 'inline' })}
        >
          <option value="auto">Auto ({autoLayout === 'side' ? 'side by side' : 'inline'})</option>
          <option value="side">Side by side</option>
          <option value="inline">Inline</option>
        </select>
        <IconButton
          icon="fold"
          pressed={foldUnchanged}
          label="Fold unchanged lines"
          title={foldUnchanged ? 'Unchanged lines are folded: show the whole file' : 'Fold the unchanged lines between changes'}
          data-testid="diff-fold"
          onClick={() => setLayout({ foldUnchanged: !foldUnchanged })}
        />
        <IconButton
          icon="refresh"
          label="Refresh the list of changes"
          data-testid="diff-refresh"
          onClick={() => void refreshDiff(sessionId, { fresh: true })}
        />
        {fullWidth ? (
          <button
            type="button"
            ref={fullWidthToggle}
            className="review-back"
            data-testid="review-full-width-exit"
            title="Back to the conversation (Esc)"
            onClick={() => setReviewFullWidth(false)}
          >
            <Icon name="collapse" /> Back to the conversation
          </button>
        ) : (
          <IconButton
            icon="expand"
            ref={fullWidthToggle}
            label="Review full width"
            data-testid="review-full-width"
            title="Review full width, in the conversation’s place (Ctrl+Alt+F)"
            onClick={() => setReviewFullWidth(true)}
          />
        )}
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
          <UndoReviewButton sessionId={sessionId} busy={busy} />
          <button type="button" className="ghost" aria-label="Dismiss" onClick={() => dismissReviewNotice(sessionId)}>
            ×
          </button>
        </div>
      )}
      {worktreeGone ? (
        <div className="empty-state">This session’s worktree is gone: its changes are in the repository’s history, or were discarded.</div>
      ) : (
        <DiffBody sessionId={sessionId} busy={busy} layout={layout} foldUnchanged={foldUnchanged} />
      )}
    </section>
  );
}

function DiffBody({
  sessionId,
  busy,
  layout,
  foldUnchanged,
}: {
  sessionId: string;
  busy: string | null;
  layout: 'side' | 'inline';
  foldUnchanged: boolean;
}) {
  const diff = useApp((state) => state.diffs[sessionId]);
  const fileDiff = useApp((state) => (state.fileDiff?.sessionId === sessionId ? state.fileDiff : null));
  const viewing = useApp((state) => state.workspaceFile?.sessionId === sessionId);
  const reveal = useApp((state) => (state.diffReveal?.sessionId === sessionId ? state.diffReveal : null));
  const pending = useApp((state) => state.reviewPending[sessionId] ?? null);
  const revertHunk = useApp((state) => state.revertHunk);
  const revealInDiff = useApp((state) => state.revealInDiff);
  const count = diff?.files.length ?? 0;
  const listed = diff?.files.find((file) => file.path === fileDiff?.path);
  // While another file loads, the last one stays in the editor (which is kept, not re-created).
  const shown = fileDiff?.diff ?? null;
  const stale = shown !== null && shown.path !== fileDiff?.path;
  const reviewable = shown !== null && !stale && fileDiff?.status !== 'error' && count > 0;
  const canRevert = reviewable && busy === null && pending === null;
  const place = reveal && shown && reveal.path === shown.path ? { line: reveal.line, column: reveal.column, key: reveal.key } : null;
  // Monaco starts loading as soon as there is a change to show, while the file's two versions are
  // fetched, instead of after they arrive: a freshly loaded page shows a big diff that much sooner.
  const diffViewer = useDiffViewer(count > 0);
  const codeView = useCodeView(shown !== null && !shown.binary && shown.status !== 'modified');

  if (viewing) return <WorkspaceFilePane sessionId={sessionId} />;
  return (
    <>
      <ReviewBar sessionId={sessionId} count={count} />
      {diff?.status === 'error' && (
        <p className="panel-note error-text" role="alert">
          Could not list the changes: {diff.error}
        </p>
      )}
      <DiffFileList sessionId={sessionId} />
      {reviewable && (
        <HunkList sessionId={sessionId} diff={shown} busy={busy} onReveal={(line) => revealInDiff(sessionId, { path: shown.path, line })} />
      )}
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
        ) : shown && shown.status !== 'modified' ? (
          codeView.module ? (
            <codeView.module.default
              path={shown.path}
              text={shown.status === 'added' ? shown.after : shown.before}
              language={shown.language}
              tone={shown.status === 'added' ? 'added' : 'removed'}
              place={place}
              testId="diff-whole-file"
              label={`${shown.path}, ${shown.status === 'added' ? 'a new file: every line is added' : 'deleted: every line is removed'}`}
            />
          ) : (
            <ViewLoading error={codeView.error} />
          )
        ) : shown ? (
          diffViewer.module ? (
            <diffViewer.module.default
              diff={shown}
              layout={layout}
              foldUnchanged={foldUnchanged}
              reveal={place}
              onRevertHunk={
                canRevert ? (index) => shown.hunks?.[index] && void revertHunk(sessionId, shown.path, index, shown.hunks[index]) : undefined
              }
            />
          ) : (
            <ViewLoading error={diffViewer.error} />
          )
        ) : listed?.status === 'modified' && !listed.binary ? (
          // The first file is on its way: the editor is made meanwhile (Monaco takes a while), and shows it on arrival.
          diffViewer.module ? (
            <diffViewer.module.default diff={null} layout={layout} foldUnchanged={foldUnchanged} />
          ) : (
            <ViewLoading error={diffViewer.error} what={fileDiff.path} />
          )
        ) : (
          <div className="empty-state">Loading {fileDiff.path}…</div>
        )}
        {fileDiff?.status === 'loading' && (stale || !shown) && (
          <div className="diff-loading" role="status">
            Loading {fileDiff.path}…
          </div>
        )}
      </div>
    </>
  );
}

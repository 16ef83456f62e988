import { lazy, Suspense } from 'react';
import { useApp } from '../../stores/useApp';
import { DiffFileList } from './DiffFileList';

// Monaco is large; it loads the first time a diff is shown, not with the window.
const DiffViewer = lazy(() => import('./DiffViewer'));

/** The live diff: every file the session changed, against where it started, and one of them opened. */
export function DiffPanel({ sessionId }: { sessionId: string }) {
  const diff = useApp((state) => state.diffs[sessionId]);
  const fileDiff = useApp((state) => (state.fileDiff?.sessionId === sessionId ? state.fileDiff : null));
  const layout = useApp((state) => state.diffLayout);
  const setDiffLayout = useApp((state) => state.setDiffLayout);
  const refreshDiff = useApp((state) => state.refreshDiff);
  const count = diff?.files.length ?? 0;
  // While another file loads, the last one stays in the editor (which is kept, not re-created).
  const shown = fileDiff?.diff ?? null;
  const stale = shown !== null && shown.path !== fileDiff?.path;

  return (
    <section className="diff-panel panel" aria-label="Changes" data-testid="diff-panel">
      <div className="panel-header">
        <span className="panel-title">Changes</span>
        <span className="faint" data-testid="diff-count">
          {diff?.status === 'loading' && count === 0 ? 'loading…' : `${count} file${count === 1 ? '' : 's'}`}
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
        <button type="button" className="ghost" data-testid="diff-refresh" title="Refresh the list of changes" onClick={() => void refreshDiff(sessionId)}>
          Refresh
        </button>
      </div>
      {diff?.status === 'error' && (
        <p className="panel-note error-text" role="alert">
          Could not list the changes: {diff.error}
        </p>
      )}
      <DiffFileList sessionId={sessionId} />
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
            <DiffViewer diff={shown} layout={layout} />
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
    </section>
  );
}

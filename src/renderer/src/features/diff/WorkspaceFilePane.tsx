import { useMemo, type KeyboardEvent } from 'react';
import { useApp } from '../../stores/useApp';
import { useCodeView } from './monacoViews';
import { ViewLoading } from './ViewLoading';

/**
 * A workspace file opened from the conversation, read-only, in place of the diff: as main read it
 * under the path guard and the read rules. A file a rule asks about (`.env`) waits for "Show it"; a
 * refusal says why. "Back to changes" (or Esc) returns to the session's diff.
 */
export function WorkspaceFilePane({ sessionId }: { sessionId: string }) {
  const open = useApp((state) => (state.workspaceFile?.sessionId === sessionId ? state.workspaceFile : null));
  const changed = useApp((state) => state.diffs[sessionId]?.files.length ?? 0);
  const close = useApp((state) => state.closeWorkspaceFile);
  const confirm = useApp((state) => state.confirmWorkspaceFile);
  // A new place each time a link is followed (each opening is a new entry), even to the same line.
  const place = useMemo(() => (open?.line !== undefined ? { line: open.line, column: open.column, key: Date.now() } : null), [open]);
  const view = open?.view?.status === 'shown' ? open.view : null;
  const codeView = useCodeView(view !== null);

  if (!open) return null;

  function handleKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    close(sessionId);
  }

  return (
    <section
      className="workspace-file"
      aria-label={`${open.path}, read-only`}
      data-testid="workspace-file"
      data-status={open.status}
      onKeyDown={handleKeyDown}
    >
      <div className="workspace-file-head">
        <span className="hunk-file mono" title={open.path} data-testid="workspace-file-path">
          {open.path}
        </span>
        <span className="faint">read-only{open.line !== undefined ? `, line ${open.line}` : ''}</span>
        <span className="spacer" />
        <button
          type="button"
          data-testid="workspace-file-back"
          title="Back to this session’s changes (Esc)"
          onClick={() => close(sessionId)}
        >
          {changed > 0 ? 'Back to changes' : 'Close'}
        </button>
      </div>
      <div className="diff-viewer-host">
        {open.status === 'loading' ? (
          <div className="empty-state">Opening {open.path}…</div>
        ) : open.status === 'error' ? (
          <div className="empty-state error-text" role="alert" data-testid="workspace-file-error">
            Could not open {open.path}: {open.error}
          </div>
        ) : open.status === 'asks' ? (
          <div className="empty-state workspace-file-asks" role="alert" data-testid="workspace-file-asks">
            <p>
              {open.path} is not shown until you say so: {open.view?.status === 'asks' ? open.view.reason : ''} Here it is only shown to
              you; nothing goes to the model.
            </p>
            <button type="button" data-testid="workspace-file-confirm" onClick={() => void confirm(sessionId)}>
              Show {open.path}
            </button>
          </div>
        ) : view ? (
          codeView.module ? (
            <codeView.module.default
              path={view.path}
              text={view.text}
              language={view.language}
              place={place}
              testId="workspace-file-view"
              label={`${view.path}, read-only`}
            />
          ) : (
            <ViewLoading error={codeView.error} />
          )
        ) : null}
      </div>
    </section>
  );
}

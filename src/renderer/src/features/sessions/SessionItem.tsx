import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { SessionSummary } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';
import { statusLabel } from '../../stores/selectors';
import { IconButton } from '../../ui/IconButton';

type Mode = 'idle' | 'renaming' | 'confirmingDelete';

/**
 * A session row: status, title and a badge while it waits for approval. F2 renames in place,
 * Delete asks before deleting (the log goes with it).
 */
export function SessionItem({ session }: { session: SessionSummary }) {
  const selected = useApp((state) => state.selectedSessionId === session.id && state.view === 'main');
  const waiting = useApp((state) =>
    state.inboxStatus === 'ready' ? state.inbox.filter((entry) => entry.sessionId === session.id).length : session.pendingApprovals,
  );
  // A followed session's log is ahead of its row (rows change on sessions:changed only).
  const status = useApp((state) => {
    const log = state.logs[session.id];
    return log?.loaded && log.state.lastSeq > 0 ? log.state.status : session.status;
  });
  const selectSession = useApp((state) => state.selectSession);
  const renameSession = useApp((state) => state.renameSession);
  const deleteSession = useApp((state) => state.deleteSession);
  const [mode, setMode] = useState<Mode>('idle');
  const [draft, setDraft] = useState(session.title);
  const renameInput = useRef<HTMLInputElement>(null);
  const selectButton = useRef<HTMLButtonElement>(null);
  // Enter, Escape and leaving the field all end a rename; only the first of them counts.
  const renameSettled = useRef(false);
  const title = session.title || 'Untitled session';

  useEffect(() => {
    if (mode === 'renaming') renameInput.current?.select();
  }, [mode]);

  function handleSelect() {
    selectSession(session.id);
  }
  function handleKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'F2') {
      event.preventDefault();
      handleStartRename();
    } else if (event.key === 'Delete') {
      event.preventDefault();
      setMode('confirmingDelete');
    }
  }
  function handleStartRename() {
    setDraft(session.title);
    renameSettled.current = false;
    setMode('renaming');
  }
  async function handleRename(event: FormEvent) {
    event.preventDefault();
    if (renameSettled.current) return;
    renameSettled.current = true;
    const next = draft.trim();
    if (!next || next === session.title) {
      finish();
      return;
    }
    if (await renameSession(session.id, next)) finish();
    else renameSettled.current = false;
  }
  function handleRenameKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      renameSettled.current = true;
      finish();
    }
  }
  async function handleDelete() {
    if (!(await deleteSession(session.id))) finish();
  }
  function finish() {
    setMode('idle');
    requestAnimationFrame(() => selectButton.current?.focus());
  }

  return (
    <li
      className={`session-item status-${status}${selected ? ' selected' : ''}`}
      data-testid="session-item"
      data-session-id={session.id}
      data-status={status}
    >
      {mode === 'renaming' ? (
        <form className="session-rename" onSubmit={handleRename}>
          <input
            ref={renameInput}
            aria-label="Session title"
            data-testid="session-rename-input"
            value={draft}
            maxLength={200}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={handleRenameKeyDown}
            onBlur={handleRename}
          />
        </form>
      ) : (
        <button
          ref={selectButton}
          type="button"
          className="session-select"
          aria-current={selected ? 'page' : undefined}
          title={`${title} (${statusLabel(status)}). F2 renames, Delete deletes.`}
          onClick={handleSelect}
          onKeyDown={handleKeyDown}
        >
          <span className={`status-dot status-${status}`} aria-hidden="true" />
          <span className="session-title">{title}</span>
          <span className="session-status status-text" data-testid="session-status">
            {statusLabel(status)}
          </span>
          {waiting > 0 && (
            <span className="badge count" data-testid="session-badge" aria-label={`${waiting} waiting for approval`}>
              {waiting}
            </span>
          )}
        </button>
      )}
      {mode === 'idle' && (
        <span className="session-actions">
          <IconButton
            icon="pencil"
            iconSize={12}
            label={`Rename ${title}`}
            title="Rename (F2)"
            data-testid="session-rename-button"
            onClick={handleStartRename}
          />
          <IconButton
            icon="trash"
            iconSize={12}
            label={`Delete ${title}`}
            title="Delete (Del)"
            data-testid="session-delete-button"
            onClick={() => setMode('confirmingDelete')}
          />
        </span>
      )}
      {mode === 'confirmingDelete' && (
        <div className="session-confirm" role="group" aria-label={`Delete ${title}?`}>
          <span>Delete this session and its history?</span>
          <button type="button" className="danger" data-testid="session-delete-confirm" autoFocus onClick={handleDelete}>
            Delete
          </button>
          <button type="button" data-testid="session-delete-cancel" onClick={finish}>
            Cancel
          </button>
        </div>
      )}
    </li>
  );
}

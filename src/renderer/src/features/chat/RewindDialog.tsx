import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { FileChange, RewindPreview } from '../../../../shared/contract';
import type { RewindRestore } from '../../../../shared/events';
import { plural } from '../../lib/format';
import { useApp } from '../../stores/useApp';
import { trapFocus } from '../permission/trapFocus';
import './rewind.css';
import './autonomy.css';
import { KeyHint } from '../../ui/KeyHint';

/** What the rewind does to each file: put back one removed since, remove one made since, or revert it. */
const fileEffect: Record<FileChange['status'], string> = { added: 'restored', deleted: 'removed', modified: 'reverted' };

const choices: { value: RewindRestore; label: string; hint: string; key: string }[] = [
  { value: 'both', label: 'Files and conversation', hint: 'The workspace and what the model sees go back to this step.', key: 'b' },
  { value: 'files', label: 'Files only', hint: 'The conversation stays; the files go back.', key: 'f' },
  { value: 'conversation', label: 'Conversation only', hint: 'The files stay as they are; the model forgets what came after.', key: 'c' },
];

/**
 * "Rewind to here": what to restore (files, conversation, both), what would change, what a rewind
 * cannot undo. Enter rewinds, Esc cancels, B/F/C pick what to restore; focus stays inside.
 */
export function RewindDialog() {
  const dialog = useApp((state) => state.rewindDialog);
  if (!dialog) return null;
  return <RewindDialogBody key={`${dialog.sessionId}:${dialog.toSeq}`} />;
}

function RewindDialogBody() {
  const dialog = useApp((state) => state.rewindDialog)!;
  const closeRewind = useApp((state) => state.closeRewind);
  const confirmRewind = useApp((state) => state.confirmRewind);
  const { preview, busy, error, label } = dialog;
  const log = useApp((state) => state.logs[dialog.sessionId]?.state);
  const ranUnasked = useMemo(() => new Set(log?.ranUnasked ?? []), [log?.ranUnasked]);
  const filesUnavailable = preview?.filesUnavailable;
  const [restore, setRestore] = useState<RewindRestore>('both');
  const chosen: RewindRestore = filesUnavailable ? 'conversation' : restore;
  const container = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const canRewind = preview !== null && !preview.working && busy === null;

  useEffect(() => {
    // Focus goes back where it was (the step's button) when the dialog closes, if that is still there.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    container.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  function rewind() {
    if (canRewind) void confirmRewind(chosen);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Tab') {
      trapFocus(event, container.current);
      return;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      closeRewind();
      return;
    }
    // A key held down (the Enter that opened this dialog, still repeating) does not rewind.
    if (event.repeat) {
      event.preventDefault();
      return;
    }
    const onButton = (event.target as HTMLElement).tagName === 'BUTTON';
    if (event.key === 'Enter' && !onButton && !event.nativeEvent.isComposing) {
      event.preventDefault();
      rewind();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const choice = choices.find((candidate) => candidate.key === event.key.toLowerCase());
    if (choice && (choice.value === 'conversation' || !filesUnavailable)) {
      event.preventDefault();
      setRestore(choice.value);
    }
  }

  return (
    <div className="dialog-scrim" data-testid="rewind-scrim" onMouseDown={(event) => event.target === event.currentTarget && closeRewind()}>
      <div
        className="dialog rewind-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        ref={container}
        data-testid="rewind-dialog"
        onKeyDown={handleKeyDown}
      >
        <div className="dialog-header">
          <h2 id={titleId}>Rewind to {label}</h2>
        </div>
        <div className="dialog-body">
          <fieldset className="rewind-choices" disabled={busy === 'rewind'}>
            <legend>What goes back to right after this step</legend>
            {choices.map((choice) => {
              const disabled = choice.value !== 'conversation' && Boolean(filesUnavailable);
              return (
                <label key={choice.value} className={`rewind-choice${disabled ? ' disabled' : ''}`}>
                  <input
                    type="radio"
                    name="rewind-restore"
                    value={choice.value}
                    checked={chosen === choice.value}
                    disabled={disabled}
                    data-testid={`rewind-choice-${choice.value}`}
                    onChange={() => setRestore(choice.value)}
                  />
                  <span>
                    {choice.label}
                    <KeyHint keys={choice.key.toUpperCase()} />
                    <span className="faint rewind-choice-hint"> {choice.hint}</span>
                  </span>
                </label>
              );
            })}
          </fieldset>
          {busy === 'preview' && <p className="faint">Working out what would change…</p>}
          {preview && <PreviewDetails preview={preview} restore={chosen} ranUnasked={ranUnasked} />}
          {error && (
            <p className="dialog-error" role="alert" data-testid="rewind-error">
              {error}
            </p>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="primary" disabled={!canRewind} data-testid="rewind-confirm" onClick={rewind}>
            {busy === 'rewind' ? 'Rewinding…' : 'Rewind'}
            <KeyHint keys="Enter" />
          </button>
          <button type="button" disabled={busy === 'rewind'} data-testid="rewind-cancel" onClick={closeRewind}>
            Cancel
            <KeyHint keys="Esc" />
          </button>
          <span className="faint rewind-undo-hint">You can undo a rewind.</span>
        </div>
      </div>
    </div>
  );
}

function PreviewDetails({
  preview,
  restore,
  ranUnasked,
}: {
  preview: RewindPreview;
  restore: RewindRestore;
  /** Commands after this step that ran with no question asked. */
  /** The session's calls that acted with nobody asked (the fold's `ranUnasked`). */
  ranUnasked: ReadonlySet<string>;
}) {
  const files = restore !== 'conversation';
  const conversation = restore !== 'files';
  return (
    <>
      {preview.working && (
        <p className="dialog-error" role="alert" data-testid="rewind-working">
          The agent is working on this session. Stop it (or wait until it finishes), then rewind.
        </p>
      )}
      {preview.filesUnavailable && <p className="rewind-note">The files cannot be rewound to this step: {preview.filesUnavailable}.</p>}
      {files && !preview.filesUnavailable && (
        <section className="rewind-section" aria-label="Files that will change">
          <h3>{preview.files.length === 0 ? 'No file differs from this step.' : `Files that will change (${preview.files.length})`}</h3>
          {preview.files.length > 0 && (
            <ul className="rewind-files" data-testid="rewind-files">
              {preview.files.map((file) => (
                <li key={file.path}>
                  <span className={`rewind-effect rewind-effect-${file.status}`}>{fileEffect[file.status]}</span>{' '}
                  <span className="mono">{file.path}</span>
                </li>
              ))}
            </ul>
          )}
          {preview.skipped.length > 0 && (
            <div className="rewind-skipped" data-testid="rewind-skipped">
              Left as they are (checkpoints do not hold them):
              <ul>
                {preview.skipped.map((file) => (
                  <li key={file.path}>
                    <span className="mono">{file.path}</span> <span className="faint">— {skipReason(file)}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p className="faint rewind-note">Files your .gitignore excludes are left as they are.</p>
        </section>
      )}
      {conversation && (
        <p className="rewind-note" data-testid="rewind-conversation">
          {preview.conversationItems === 0
            ? 'Nothing in the conversation comes after this step.'
            : `${plural(preview.conversationItems, 'entry', 'entries')} after this step will no longer be sent to the model (they stay in the log, greyed).`}
        </p>
      )}
      {preview.unasked.length > 0 && (
        <section className="rewind-section rewind-unasked" aria-label="Commands that ran unasked" data-testid="rewind-unasked">
          <h3>
            {plural(preview.unasked.length, 'command')} after this step ran unasked: nobody was asked before{' '}
            {preview.unasked.length === 1 ? 'it' : 'they'} ran.
          </h3>
          <ul>
            {preview.unasked.map((call) => (
              <li key={call.callId} data-call-id={call.callId}>
                <code className="mono">{call.command}</code>
                <span className="badge tool-tag tool-tag-unasked">ran unasked</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {preview.warnings.length > 0 && (
        <section className="rewind-section rewind-warnings" role="note" data-testid="rewind-warnings">
          <h3>A rewind cannot undo these (they reached beyond the workspace):</h3>
          <ul>
            {preview.warnings.map((warning) => (
              <li key={warning.callId}>
                <code className="mono">{warning.summary}</code> <span className="faint">— {warning.why}</span>
                {ranUnasked.has(warning.callId) && (
                  <span className="badge tool-tag tool-tag-unasked" data-testid="rewind-warning-unasked">
                    ran unasked
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function skipReason(file: RewindPreview['skipped'][number]): string {
  switch (file.reason) {
    case 'too_large':
      return `over 2 MB${file.size !== undefined ? ` (${(file.size / 1024 / 1024).toFixed(1)} MB)` : ''}`;
    case 'unreadable':
      return 'could not be read';
    case 'special_file':
      return 'not a regular file';
    case 'nested_repository':
      return 'a nested git repository';
    default:
      return file.reason;
  }
}

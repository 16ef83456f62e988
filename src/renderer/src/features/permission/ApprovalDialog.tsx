import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useApp } from '../../stores/useApp';
import type { CurrentApproval } from '../../stores/selectors';
import { ApprovalDetails } from './ApprovalDetails';
import { SandboxNotice } from './SandboxNotice';
import { AllowAlwaysChoice, type AlwaysScope } from './AllowAlwaysChoice';
import { editableField, editOutcome, type EditOutcome } from './approvalEdit';
import type { ArgEdit } from './ArgEditor';
import { trapFocus } from './trapFocus';
import './permission.css';

/**
 * Keys do nothing for this long after the dialog appears, so an Enter meant for the task box
 * cannot approve a request the person has not seen yet.
 */
const ARM_DELAY_MS = 400;

const riskLabels = { none: 'no risk', read: 'reads files', edit: 'changes files', exec: 'runs a command', egress: 'sends data out' } as const;

/**
 * One permission request. Enter or A allows once, Shift+A allows always (when offered), Esc or D
 * denies, E edits the command (or the new text, or the content); in a text field Enter submits that
 * field's choice instead. In the edit box Enter adds a line, Ctrl/Cmd+Enter allows the person's
 * version once, and Esc only leaves the box, so one key cannot throw an edit away with a denial.
 */
export function ApprovalDialog({ current }: { current: CurrentApproval }) {
  const { entry, approval, behind } = current;
  const answerApproval = useApp((state) => state.answerApproval);
  const error = useApp((state) => state.answerErrors[entry.approvalId]);
  const answering = useApp((state) => state.answering[entry.approvalId] ?? false);
  const session = useApp((state) => state.sessions[entry.sessionId]);
  const hasProject = useApp((state) => Boolean(state.sessions[entry.sessionId]?.projectId));
  const offered = approval.allowAlways && 'rule' in approval.allowAlways ? approval.allowAlways.rule : undefined;
  const refused = approval.allowAlways && 'refused' in approval.allowAlways ? approval.allowAlways.refused : undefined;
  const [rule, setRule] = useState(offered ?? '');
  const [scope, setScope] = useState<AlwaysScope>('session');
  const [message, setMessage] = useState('');
  const [armed, setArmed] = useState(false);
  const field = useMemo(() => editableField(approval), [approval]);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(field?.original ?? '');
  const outcome: EditOutcome = field && editing ? editOutcome(approval, field, draft) : { kind: 'unchanged' };
  const changed = outcome.kind !== 'unchanged';
  const dialog = useRef<HTMLDivElement>(null);
  const editInput = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const summaryId = useId();

  useEffect(() => {
    dialog.current?.focus();
    const timer = setTimeout(() => setArmed(true), ARM_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    const input = editInput.current;
    if (!editing || !input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, [editing]);

  const edit: ArgEdit | undefined = field && {
    field,
    editing,
    draft,
    changed,
    ...(outcome.kind === 'invalid' ? { problem: outcome.problem } : {}),
    inputRef: editInput,
    onStart: () => setEditing(true),
    onChange: setDraft,
    onReset() {
      setDraft(field.original);
      setEditing(false);
      dialog.current?.focus();
    },
  };

  function allowOnce() {
    if (answering || outcome.kind === 'invalid') return;
    void answerApproval({ approvalId: entry.approvalId, action: 'allow', scope: 'once', ...(outcome.kind === 'changed' ? { args: outcome.args } : {}) });
  }
  function allowAlways() {
    // The offered rule was worked out for the model's call; the person's version is allowed once or not at all.
    if (answering || changed || offered === undefined || !rule.trim()) return;
    void answerApproval({ approvalId: entry.approvalId, action: 'allow', scope, rule: rule.trim() });
  }
  function deny() {
    if (answering) return;
    const text = message.trim();
    void answerApproval({ approvalId: entry.approvalId, action: 'deny', scope: 'once', ...(text ? { message: text } : {}) });
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Tab') {
      trapFocus(event, dialog.current);
      return;
    }
    const target = event.target as HTMLElement;
    const input = target.closest('input, textarea, select');
    const onButton = target.tagName === 'BUTTON';
    const inEditBox = target === editInput.current;
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (inEditBox) dialog.current?.focus();
      else if (armed) deny();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      // A focused button answers with itself (the browser clicks it); fields answer with their own choice.
      if (onButton) return;
      // In the edit box a plain Enter is a new line: only Ctrl/Cmd+Enter allows.
      if (inEditBox && !event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      if (!armed) return;
      const role = input?.getAttribute('data-enter');
      if (role === 'always') allowAlways();
      else if (role === 'deny') deny();
      else if (role === 'once' || !input) allowOnce();
      return;
    }
    if (input || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === 'e' && !event.shiftKey && edit && !editing) {
      event.preventDefault();
      // Editing only opens the box; it answers nothing, so it need not wait for the dialog to arm.
      edit.onStart();
    } else if (key === 'a' && event.shiftKey) {
      event.preventDefault();
      if (armed) allowAlways();
    } else if (key === 'a') {
      event.preventDefault();
      if (armed) allowOnce();
    } else if (key === 'd') {
      event.preventDefault();
      if (armed) deny();
    }
  }

  return (
    <div className="dialog-scrim" data-testid="permission-scrim">
      <div
        ref={dialog}
        className={`dialog permission-dialog risk-${approval.risk}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={summaryId}
        tabIndex={-1}
        data-testid="permission-dialog"
        data-approval-id={entry.approvalId}
        data-session-id={entry.sessionId}
        data-armed={armed}
        onKeyDown={handleKeyDown}
      >
        <header className="dialog-header">
          <h2 id={titleId}>Permission required</h2>
          <span className="risk-badge" data-testid="permission-risk" data-risk={approval.risk}>
            {approval.risk} · {riskLabels[approval.risk]}
          </span>
          {behind > 0 && (
            <span className="faint" data-testid="permission-queue">
              {behind} more waiting
            </span>
          )}
        </header>
        <div className="dialog-body">
          <p className="approval-summary" id={summaryId} data-testid="permission-summary">
            <span className="mono tool-name" data-testid="permission-tool">
              {approval.tool}
            </span>{' '}
            {approval.summary}
          </p>
          <p className="faint approval-session">
            Session “{session?.title || entry.sessionTitle || 'Untitled session'}”{session?.workspace ? <> in <span className="mono">{session.workspace}</span></> : null}
          </p>
          {approval.sandbox && <SandboxNotice note={approval.sandbox} />}
          <ApprovalDetails approval={approval} edit={edit} />
          {offered !== undefined ? (
            <>
              <AllowAlwaysChoice rule={rule} scope={scope} hasProject={hasProject} disabled={changed} onRuleChange={setRule} onScopeChange={setScope} />
              {changed && (
                <p className="always-refused" data-testid="permission-always-edited">
                  “Allow always” is off for an edited call: its rule was offered for the model’s version, not yours. Allow your version once, or
                  undo your changes.
                </p>
              )}
            </>
          ) : refused ? (
            <p className="always-refused" data-testid="permission-always-refused">
              “Allow always” is not offered: {refused}
            </p>
          ) : null}
          <label className="deny-message">
            <span>Message to the model if you deny (optional)</span>
            <input
              type="text"
              data-testid="permission-deny-message"
              data-enter="deny"
              placeholder="e.g. use the test script instead"
              value={message}
              maxLength={4000}
              onChange={(event) => setMessage(event.target.value)}
            />
          </label>
          {error && (
            <p className="dialog-error" role="alert" data-testid="permission-error">
              {error}
            </p>
          )}
        </div>
        <footer className="dialog-actions">
          <button type="button" className="danger" data-testid="permission-deny" aria-label="Deny" aria-keyshortcuts="D Escape" disabled={answering} onClick={deny}>
            Deny<kbd>D</kbd>
            <kbd>Esc</kbd>
          </button>
          <span className="spacer" />
          {offered !== undefined && (
            <button
              type="button"
              data-testid="permission-allow-always"
              aria-label="Allow always"
              aria-keyshortcuts="Shift+A"
              title={changed ? 'Not for an edited call: allow your version once' : undefined}
              disabled={answering || changed || !rule.trim()}
              onClick={allowAlways}
            >
              Allow always<kbd>⇧A</kbd>
            </button>
          )}
          <button
            type="button"
            className="primary"
            data-testid="permission-allow-once"
            data-edited={changed}
            aria-label={changed ? 'Allow edited once' : 'Allow once'}
            aria-keyshortcuts={editing ? 'A Enter Control+Enter Meta+Enter' : 'A Enter'}
            disabled={answering || outcome.kind === 'invalid'}
            onClick={allowOnce}
          >
            {changed ? 'Allow edited once' : 'Allow once'}
            <kbd>A</kbd>
            <kbd>Enter</kbd>
          </button>
        </footer>
      </div>
    </div>
  );
}

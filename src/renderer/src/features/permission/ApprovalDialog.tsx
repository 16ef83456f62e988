import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { selectNextApproval, type SessionApproval } from '../../stores/selectors';
import { useApp, useAppStore } from '../../stores/useApp';
import { ApprovalDetails } from './ApprovalDetails';
import { RiskBadge } from './RiskBadge';
import { requestRisk, requestSummary } from './requestRisk';
import { SandboxNotice } from './SandboxNotice';
import { AllowAlwaysChoice, type AlwaysScope } from './AllowAlwaysChoice';
import { editableField, editOutcome, type EditOutcome } from './approvalEdit';
import type { ArgEdit } from './ArgEditor';
import { returnFocus } from './focusReturn';
import { isReachShortcut, reachKeys, typingGuard, type AnswerKey, type Refusal } from './typingGuard';
import './permission.css';

/** What the hint says when a key was not taken, so a person who pressed one knows why. */
const refusalNotes: Record<Refusal, string> = {
  'not-focused': '',
  typing: 'That key was not taken: you typed elsewhere a moment ago. Press it again.',
  'too-soon': 'That key was not taken: the request had only just appeared. Press it again.',
  held: 'A key held down does not answer. Press it again.',
  'not-reached': `Enter does not answer a request that appeared while you were typing. Press ${reachKeys.first} first, or click.`,
};

/**
 * One permission request, docked in its session's view. It comes on screen without taking focus: the
 * person keeps typing where they were, and reaches it with F6 or Ctrl/Cmd+Shift+A (again: back where
 * they were), Tab, a click, or by opening it from the inbox. Once it has focus, Enter or A allows
 * once, Shift+A allows always (when offered), D denies, E edits the command (or the new text, or the
 * content), N goes to the next request waiting (here or in another session); in a text field Enter
 * submits that field's choice instead. Esc answers nothing: it gives focus back to where the person
 * was (as F6 does) and leaves the request waiting. In the edit box Enter adds a line, Ctrl/Cmd+Enter allows the person's
 * version once, and Esc only leaves the box, back to the request.
 * Every key goes through {@link typingGuard}: none answers within a second of typing elsewhere, and
 * Enter or Space does not answer a request that appeared during typing until it was reached on
 * purpose. Clicks always count.
 */
export function ApprovalDialog({ current }: { current: SessionApproval }) {
  const { entry, approval, position, inSession, total } = current;
  const store = useAppStore();
  const openApproval = useApp((state) => state.openApproval);
  const hasNext = useApp((state) => selectNextApproval(state, entry.approvalId) !== null);
  const answerApproval = useApp((state) => state.answerApproval);
  const error = useApp((state) => state.answerErrors[entry.approvalId]);
  const answering = useApp((state) => state.answering[entry.approvalId] ?? false);
  const session = useApp((state) => state.sessions[entry.sessionId]);
  const remoteRunner = useApp((state) => state.sessions[entry.sessionId]?.remote?.runner);
  const hasProject = useApp((state) => Boolean(state.sessions[entry.sessionId]?.projectId)) || remoteRunner !== undefined;
  const offered = approval.allowAlways && 'rule' in approval.allowAlways ? approval.allowAlways.rule : undefined;
  const refused = approval.allowAlways && 'refused' in approval.allowAlways ? approval.allowAlways.refused : undefined;
  // A host a running command connects to: Allow always adds it to the project's fence, exactly as offered.
  const network = approval.sandbox?.kind === 'network';
  const [rule, setRule] = useState(offered ?? '');
  const [scope, setScope] = useState<AlwaysScope>('session');
  const [message, setMessage] = useState('');
  const [focused, setFocused] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const field = useMemo(() => editableField(approval), [approval]);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(field?.original ?? '');
  const outcome: EditOutcome = field && editing ? editOutcome(approval, field, draft) : { kind: 'unchanged' };
  const changed = outcome.kind !== 'unchanged';
  const dialog = useRef<HTMLDivElement>(null);
  const editInput = useRef<HTMLTextAreaElement>(null);
  const spaceRefused = useRef(false);
  const titleId = useId();
  const summaryId = useId();
  const hintId = useId();
  const id = entry.approvalId;

  // The guard learns now whether the person was typing as this request came; it never takes focus.
  useLayoutEffect(() => {
    typingGuard.appeared(id);
    const container = dialog.current;
    // Opened from the inbox, or with Next: the person went to it on purpose, so it takes focus.
    if (store.getState().takeReach(id) && container) {
      typingGuard.intent('shortcut');
      container.focus();
      typingGuard.reach(id);
      container.scrollIntoView({ block: 'nearest' });
    }
    return () => {
      typingGuard.gone(id);
      // Answered from the keyboard: focus goes back where the person was, not to the next request.
      if (container?.contains(document.activeElement)) {
        setTimeout(() => {
          if (document.activeElement === null || document.activeElement === document.body) returnFocus();
        }, 0);
      }
    };
  }, [id, store]);

  // The reach shortcut, from anywhere in the window (capture: an editor below must not swallow it).
  useEffect(() => {
    function handleKeyDown(event: globalThis.KeyboardEvent) {
      if (!isReachShortcut(event) || event.repeat) return;
      event.preventDefault();
      event.stopPropagation();
      const container = dialog.current;
      if (!container) return;
      if (container.contains(document.activeElement)) {
        returnFocus();
        return;
      }
      typingGuard.intent('shortcut');
      typingGuard.reach(id);
      container.focus();
    }
    window.addEventListener('keydown', handleKeyDown, true);
    return () => window.removeEventListener('keydown', handleKeyDown, true);
  }, [id]);

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
    void answerApproval({
      approvalId: entry.approvalId,
      action: 'allow',
      scope: 'once',
      ...(outcome.kind === 'changed' ? { args: outcome.args } : {}),
    });
  }
  function allowAlways() {
    // The offered rule was worked out for the model's call; the person's version is allowed once or not at all.
    if (answering || changed || offered === undefined || !rule.trim()) return;
    if (network) {
      void answerApproval({ approvalId: entry.approvalId, action: 'allow', scope: 'project', rule: offered });
      return;
    }
    void answerApproval({ approvalId: entry.approvalId, action: 'allow', scope, rule: rule.trim() });
  }
  function deny() {
    if (answering) return;
    const text = message.trim();
    void answerApproval({ approvalId: entry.approvalId, action: 'deny', scope: 'once', ...(text ? { message: text } : {}) });
  }

  /** Goes to the next request waiting, in this session or another; nothing is answered. */
  function goToNext() {
    const next = selectNextApproval(store.getState(), id);
    if (next) openApproval(next, { reach: true });
  }

  /** Whether this key may act on the request; says why not in the hint when it may not. */
  function mayAct(kind: AnswerKey, event: KeyboardEvent): boolean {
    const verdict = typingGuard.verdict(id, {
      kind,
      focusInside: dialog.current?.contains(document.activeElement) ?? false,
      repeat: event.repeat,
    });
    setRefusal(verdict.answers ? null : verdict.refusal);
    return verdict.answers;
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const target = event.target as HTMLElement;
    const input = target.closest('input, textarea, select');
    const onButton = target.tagName === 'BUTTON';
    const inEditBox = target === editInput.current;
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      // Esc never answers: out of the edit box to the request, else back where the person was.
      if (inEditBox) dialog.current?.focus();
      else if (!event.repeat) returnFocus();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      // In the edit box a plain Enter is a new line: only Ctrl/Cmd+Enter allows.
      if (inEditBox && !event.ctrlKey && !event.metaKey) return;
      // A focused button answers with itself (the browser clicks it) only if the key may act.
      if (onButton) {
        if (!mayAct('enter', event)) event.preventDefault();
        return;
      }
      event.preventDefault();
      if (!mayAct('enter', event)) return;
      // Fields answer with their own choice.
      const role = input?.getAttribute('data-enter');
      if (role === 'always') allowAlways();
      else if (role === 'deny') deny();
      else if (role === 'once' || !input) allowOnce();
      return;
    }
    if (event.key === ' ' && onButton) {
      // The browser clicks a button when Space is let go; a refused Space must not get that far.
      spaceRefused.current = !mayAct('space', event);
      if (spaceRefused.current) event.preventDefault();
      return;
    }
    if (input || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === 'e' && !event.shiftKey && edit && !editing) {
      event.preventDefault();
      if (mayAct('letter', event)) edit.onStart();
    } else if (key === 'a' && event.shiftKey) {
      event.preventDefault();
      if (mayAct('letter', event)) allowAlways();
    } else if (key === 'a') {
      event.preventDefault();
      if (mayAct('letter', event)) allowOnce();
    } else if (key === 'd') {
      event.preventDefault();
      if (mayAct('letter', event)) deny();
    } else if (key === 'n' && !event.shiftKey && !event.repeat) {
      // Moving on answers nothing, so it needs no guard; a held key does not race through the queue.
      event.preventDefault();
      goToNext();
    }
  }

  function handleKeyUp(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === ' ' && spaceRefused.current) {
      event.preventDefault();
      spaceRefused.current = false;
    }
  }

  function handleFocus(event: FocusEvent<HTMLDivElement>) {
    // Focus that came from outside (a click, Tab, the shortcut) is the person reaching the request.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) typingGuard.focusEntered(id);
    setFocused(true);
  }
  function handleBlur(event: FocusEvent<HTMLDivElement>) {
    if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    setFocused(false);
    setRefusal(null);
  }

  return (
    <div
      ref={dialog}
      className={`dialog permission-dialog risk-${requestRisk(approval).colour}`}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-describedby={`${summaryId} ${hintId}`}
      aria-keyshortcuts={reachKeys.aria}
      tabIndex={-1}
      data-testid="permission-dialog"
      data-key-guard="request"
      data-approval-id={entry.approvalId}
      data-session-id={entry.sessionId}
      data-focused={focused}
      onKeyDown={handleKeyDown}
      onKeyUp={handleKeyUp}
      onFocus={handleFocus}
      onBlur={handleBlur}
    >
      <header className="dialog-header">
        <h2 id={titleId}>Permission required</h2>
        <RiskBadge approval={approval} />
        {total > 1 && (
          <span className="request-queue" data-testid="permission-queue">
            <span className="faint">
              {inSession > 1 ? `${position} of ${inSession} in this session` : 'this session'} · {total} waiting in all
            </span>
            {hasNext && (
              <button type="button" className="ghost" data-testid="permission-next" aria-keyshortcuts="N" onClick={goToNext}>
                Next<kbd>N</kbd>
              </button>
            )}
          </span>
        )}
      </header>
      <div className="dialog-body">
        <p className="approval-summary" id={summaryId} data-testid="permission-summary">
          <span className="mono tool-name" data-testid="permission-tool">
            {approval.tool}
          </span>{' '}
          {requestSummary(approval)}
          {/* Docked in its session, whose title heads the view: only where it works is said here. */}
          {session?.workspace && (
            <span className="faint approval-session" title={`Session “${session.title || entry.sessionTitle || 'Untitled session'}”`}>
              {' '}
              · in <span className="mono">{session.workspace}</span>
            </span>
          )}
        </p>
        {approval.sandbox && <SandboxNotice note={approval.sandbox} />}
        <ApprovalDetails approval={approval} edit={edit} />
        {offered !== undefined && network ? (
          <p className="network-always" data-testid="permission-network-always">
            Allow always adds <span className="mono">{offered}</span> to this project’s allowed domains in Settings → Sandbox: commands of
            every session of the project reach it from then on without asking.
          </p>
        ) : offered !== undefined ? (
          <>
            <AllowAlwaysChoice
              rule={rule}
              scope={scope}
              hasProject={hasProject}
              {...(remoteRunner !== undefined ? { remoteRunner } : {})}
              disabled={changed}
              onRuleChange={setRule}
              onScopeChange={setScope}
            />
            {changed && (
              <p className="always-refused" data-testid="permission-always-edited">
                “Allow always” is off for an edited call: its rule was offered for the model’s version, not yours. Allow your version once,
                or undo your changes.
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
      <p
        className={`keys-hint${refusal ? ' refused' : ''}`}
        id={hintId}
        aria-live="polite"
        data-testid="permission-keys-hint"
        data-refusal={refusal ?? undefined}
      >
        {refusal ? (
          refusalNotes[refusal]
        ) : focused ? (
          <>
            Keys answer this request. <kbd>{reachKeys.first}</kbd> goes back to where you were; <kbd>Esc</kbd>: back, leaves it waiting.
          </>
        ) : (
          <>
            Press <kbd>{reachKeys.first}</kbd> or <kbd>{reachKeys.second}</kbd> to answer from the keyboard, or click. Until then, keys go
            where you are typing.
          </>
        )}
      </p>
      <footer className="dialog-actions">
        <button
          type="button"
          className="danger"
          data-testid="permission-deny"
          aria-label="Deny"
          aria-keyshortcuts="D"
          disabled={answering}
          onClick={deny}
        >
          Deny<kbd>D</kbd>
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
  );
}

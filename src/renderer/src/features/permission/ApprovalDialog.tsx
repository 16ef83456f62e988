import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';
import { selectNextApproval, type SessionApproval } from '../../stores/selectors';
import { useApp, useAppStore } from '../../stores/useApp';
import { ApprovalDetails } from './ApprovalDetails';
import { RiskBadge } from './RiskBadge';
import { requestRisk, requestSummary } from './requestRisk';
import { exposesData, SandboxNotice } from './SandboxNotice';
import { AllowAlwaysChoice, type AlwaysScope } from './AllowAlwaysChoice';
import { editableField, editOutcome, type EditOutcome } from './approvalEdit';
import type { ArgEdit } from './ArgEditor';
import { returnFocus } from './focusReturn';
import { isReachShortcut, reachKeys, requestGuard, type AnswerKey, type Refusal } from './requestGuard';
import { useAnswerPlacement } from './answerPlacement';
import { useDraftJudgement, type DraftJudgement } from './useDraftJudgement';
import type { ApprovalView } from '../../../../shared/session';
import './permission.css';
import { KeyHint } from '../../ui/KeyHint';

/** What the hint says when a key or a click was not taken, so a person who pressed one knows why. */
const refusalNotes: Record<Refusal, string> = {
  'not-focused': '',
  typing: 'That key was not taken: you typed elsewhere a moment ago. Press it again.',
  'too-soon': 'That key was not taken: the request had only just appeared. Press it again.',
  held: 'A key held down does not answer. Press it again.',
  'not-reached': `Enter does not answer a request that appeared while you were typing. Press ${reachKeys.first} first, or click.`,
  'click-appeared': 'That click was not taken: the request had only just appeared under it. Read it, then click again.',
  'click-moved': 'That click was not taken: the request had just moved under it. Read it, then click again.',
  'click-shown': 'That click was not taken: the window had only just come to the front. Read the request, then click again.',
  'rule-unseen': 'Allow always was not taken: the rule it creates was out of sight. It is in view now; read it, then allow again.',
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
 * Every key and click goes through {@link requestGuard}: no key answers within a second of typing
 * elsewhere, Enter or Space does not answer a request that appeared during typing until it was
 * reached on purpose, and a click counts only if its press began once the buttons had been seen where
 * they stand (answerPlacement.ts). Allow always needs the rule it creates in sight. When the person
 * edits the call, what the request shows is main's judgement of their version (useDraftJudgement.ts).
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
  const field = useMemo(() => editableField(approval), [approval]);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(field?.original ?? '');
  const outcome: EditOutcome = field && editing ? editOutcome(approval, field, draft) : { kind: 'unchanged' };
  const changed = outcome.kind !== 'unchanged';
  // The person's version, judged in main as they type: what the request shows is about what is in the box.
  const preview = useDraftJudgement(entry.approvalId, outcome);
  const shown = useMemo(() => judgedView(approval, preview), [approval, preview]);
  const judged = preview.status === 'ready' ? preview.preview : undefined;
  const offer = changed ? judged?.allowAlways : approval.allowAlways;
  const offered = offer && 'rule' in offer ? offer.rule : undefined;
  const refused = offer && 'refused' in offer ? offer.refused : undefined;
  // A host a running command connects to: Allow always adds it to the project's fence, exactly as offered.
  const network = approval.sandbox?.kind === 'network';
  const [rule, setRule] = useState(offered ?? '');
  // A new offer (the person's version judged, or their changes undone) starts from the rule as offered.
  const [ruleOffered, setRuleOffered] = useState(offered);
  if (ruleOffered !== offered) {
    setRuleOffered(offered);
    setRule(offered ?? '');
  }
  const [scope, setScope] = useState<AlwaysScope>('session');
  const [message, setMessage] = useState('');
  const [focused, setFocused] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  // The last refusal said stays laid out (hidden) once cleared, so the hint never shrinks under the pointer.
  const [lastRefusal, setLastRefusal] = useState<Refusal | null>(null);
  if (refusal && refusal !== lastRefusal) setLastRefusal(refusal);
  /** Allowing would send a secret to the model provider, or data off the machine: Enter keeps it in the fence. */
  const safeDefault = exposesData(approval.sandbox);
  /** A rule refuses the person's version whatever they answer: Allow does nothing for it. */
  const refusedByRule = changed && judged?.action === 'deny';
  const dialog = useRef<HTMLDivElement>(null);
  const editInput = useRef<HTMLTextAreaElement>(null);
  const actions = useRef<HTMLElement>(null);
  /** What "Allow always" creates, as shown: it must be in sight before Shift+A or the button creates it. */
  const alwaysTerms = useRef<HTMLElement>(null);
  /** The press (pointerdown) the next click on an answer button comes from. */
  const press = useRef<{ at: number; target: EventTarget | null } | undefined>(undefined);
  const spaceRefused = useRef(false);
  const titleId = useId();
  const summaryId = useId();
  const hintId = useId();
  const id = entry.approvalId;
  const placement = useAnswerPlacement(id, actions, alwaysTerms, `${offered}|${network}`);

  // The guard learns now whether the person was typing as this request came; it never takes focus.
  useLayoutEffect(() => {
    requestGuard.appeared(id);
    const container = dialog.current;
    // Opened from the inbox, or with Next: the person went to it on purpose, so it takes focus.
    if (store.getState().takeReach(id) && container) {
      requestGuard.intent('shortcut');
      container.focus();
      requestGuard.reach(id);
      container.scrollIntoView({ block: 'nearest' });
    }
    return () => {
      requestGuard.gone(id);
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
        returnFocus(goBack);
        return;
      }
      requestGuard.intent('shortcut');
      requestGuard.reach(id);
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
    preview,
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
    if (answering || outcome.kind === 'invalid' || refusedByRule) return;
    void answerApproval({
      approvalId: entry.approvalId,
      action: 'allow',
      scope: 'once',
      ...(outcome.kind === 'changed' ? { args: outcome.args } : {}),
    });
  }
  function allowAlways() {
    // For the person's version, only the rule offered for it (judged as typed; main judges it again).
    if (answering || offered === undefined || !rule.trim() || outcome.kind === 'invalid') return;
    if (network) {
      void answerApproval({ approvalId: entry.approvalId, action: 'allow', scope: 'project', rule: offered });
      return;
    }
    void answerApproval({
      approvalId: entry.approvalId,
      action: 'allow',
      scope,
      rule: rule.trim(),
      ...(outcome.kind === 'changed' ? { args: outcome.args } : {}),
    });
  }
  function deny() {
    if (answering) return;
    const text = message.trim();
    void answerApproval({ approvalId: entry.approvalId, action: 'deny', scope: 'once', ...(text ? { message: text } : {}) });
  }

  /** Back to the session the person was in before they came here (N may have brought them from another). */
  function goBack(sessionId: string) {
    store.getState().selectSession(sessionId);
  }

  /** Goes to the next request waiting, in this session or another; nothing is answered. */
  function goToNext() {
    const next = selectNextApproval(store.getState(), id);
    if (next) openApproval(next, { reach: true });
  }

  /** Whether this key may act on the request; says why not in the hint when it may not. */
  function mayAct(kind: AnswerKey, event: KeyboardEvent, createsRule = false): boolean {
    const verdict = requestGuard.verdict(id, {
      kind,
      focusInside: dialog.current?.contains(document.activeElement) ?? false,
      repeat: event.repeat,
      createsRule,
    });
    return heard(verdict.answers ? null : verdict.refusal);
  }

  /**
   * Whether this click on an answer button may act: its press began on it once the buttons had been
   * seen where they are. A click a key made (Enter or Space on a focused button: no press, detail 0)
   * was judged as that key already.
   */
  function mayClick(event: MouseEvent<HTMLButtonElement>, createsRule = false): boolean {
    if (event.detail === 0) return heard(null);
    placement.look(event.timeStamp);
    const pressed = press.current;
    const pressedAt = pressed && pressed.target instanceof Node && event.currentTarget.contains(pressed.target) ? pressed.at : undefined;
    const verdict = requestGuard.clickVerdict(id, { pressedAt, createsRule });
    return heard(verdict.answers ? null : verdict.refusal);
  }

  /** Says why an answer was not taken (or clears it); brings out of sight terms into view. */
  function heard(refused: Refusal | null): boolean {
    setRefusal(refused);
    if (refused === 'rule-unseen') alwaysTerms.current?.scrollIntoView({ block: 'nearest' });
    return refused === null;
  }

  function handlePointerDown(event: PointerEvent<HTMLDivElement>) {
    // Looked at before it is kept: a move in the frame before the press counts as a move.
    placement.look(event.timeStamp);
    press.current = { at: event.timeStamp, target: event.target };
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
      else if (!event.repeat) returnFocus(goBack);
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
      // Fields answer with their own choice.
      const role = input?.getAttribute('data-enter');
      if (!mayAct('enter', event, role === 'always')) return;
      if (role === 'always') allowAlways();
      else if (role === 'deny' || (!input && safeDefault)) deny();
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
      if (offered !== undefined && mayAct('letter', event, true)) allowAlways();
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
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) requestGuard.focusEntered(id);
    setFocused(true);
  }
  function handleBlur(event: FocusEvent<HTMLDivElement>) {
    if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    setFocused(false);
    // A key's refusal was about keys in here; a click's stays said until the next answer, wherever focus went.
    setRefusal((said) => (said?.startsWith('click-') ? said : null));
  }

  return (
    <div
      ref={dialog}
      className={`dialog permission-dialog risk-${requestRisk(shown).colour}`}
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
      onPointerDownCapture={handlePointerDown}
      onFocus={handleFocus}
      onBlur={handleBlur}
    >
      <header className="dialog-header">
        <h2 id={titleId}>Permission required</h2>
        <RiskBadge approval={shown} />
        {total > 1 && (
          <span className="request-queue" data-testid="permission-queue">
            <span className="faint">
              {inSession > 1 ? `${position} of ${inSession} in this session` : 'this session'} · {total} waiting in all
            </span>
            {hasNext && (
              <button type="button" className="ghost" data-testid="permission-next" aria-keyshortcuts="N" onClick={goToNext}>
                Next
                <KeyHint keys="N" />
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
        <ApprovalDetails approval={shown} edit={edit} />
        {offered !== undefined && network ? (
          <p className="network-always" data-testid="permission-network-always" ref={(element) => void (alwaysTerms.current = element)}>
            Allow always adds <span className="mono">{offered}</span> to this project’s allowed domains in Settings → Sandbox: commands of
            every session of the project reach it from then on without asking.
          </p>
        ) : offered !== undefined ? (
          <AllowAlwaysChoice
            termsRef={alwaysTerms}
            rule={rule}
            scope={scope}
            hasProject={hasProject}
            forEdit={changed}
            {...(remoteRunner !== undefined ? { remoteRunner } : {})}
            onRuleChange={setRule}
            onScopeChange={setScope}
          />
        ) : changed && preview.status === 'pending' ? (
          <p className="always-refused faint" data-testid="permission-always-pending">
            Working out what “Allow always” would create for your version…
          </p>
        ) : changed && judged?.action === 'allow' ? (
          <p className="always-refused" data-testid="permission-always-refused">
            “Allow always” is not needed: the rules already allow your version{judged.rule ? ` (${judged.rule})` : ''}.
          </p>
        ) : refused ? (
          <p className="always-refused" data-testid="permission-always-refused">
            “Allow always” is not offered{changed ? ' for your version' : ''}: {refused}
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
        {/*
          All three lines are laid out in one cell, the ones not said hidden: the hint is as tall as the
          tallest, so focus arriving (a press on a scope, say) never shortens it and scrolls the body
          under the pointer between its press and its release.
        */}
        <span className={`hint-layer${refusal ? '' : ' hint-hidden'}`}>{refusalNotes[refusal ?? lastRefusal ?? 'not-focused']}</span>
        <span className={`hint-layer${!refusal && focused ? '' : ' hint-hidden'}`}>
          Keys answer this request. <kbd>{reachKeys.first}</kbd> goes back to where you were; <kbd>Esc</kbd>: back, leaves it waiting.
        </span>
        <span className={`hint-layer${!refusal && !focused ? '' : ' hint-hidden'}`}>
          Press <kbd>{reachKeys.first}</kbd> or <kbd>{reachKeys.second}</kbd> to answer from the keyboard, or click. Until then, keys go
          where you are typing.
        </span>
      </p>
      {/* Until the buttons have been seen where they stand, they show it and take no click (see answerPlacement.ts). */}
      <footer ref={actions} className="dialog-actions" data-testid="permission-actions" data-armed={placement.armed}>
        {!placement.armed && <span key={placement.arming} className="arming-bar" aria-hidden="true" />}
        <button
          type="button"
          className={safeDefault ? 'danger default-answer' : 'danger'}
          data-testid="permission-deny"
          data-answer="deny"
          data-default={safeDefault || undefined}
          aria-keyshortcuts={safeDefault ? 'D Enter' : 'D'}
          aria-disabled={placement.armed ? undefined : true}
          disabled={answering}
          onClick={(event) => mayClick(event) && deny()}
        >
          Deny
          <KeyHint keys="D" />
          {safeDefault && <KeyHint keys="Enter" />}
        </button>
        <span className="spacer" />
        {offered !== undefined && (
          <button
            type="button"
            data-testid="permission-allow-always"
            data-answer="always"
            aria-keyshortcuts="Shift+A"
            aria-disabled={placement.armed ? undefined : true}
            title={changed ? 'Creates the rule shown for your version' : undefined}
            disabled={answering || !rule.trim() || outcome.kind === 'invalid'}
            onClick={(event) => mayClick(event, true) && allowAlways()}
          >
            Allow always
            <KeyHint keys="⇧A" />
          </button>
        )}
        <button
          type="button"
          className={safeDefault ? undefined : 'primary'}
          data-testid="permission-allow-once"
          data-answer="once"
          data-edited={changed}
          aria-keyshortcuts={editing ? 'A Enter Control+Enter Meta+Enter' : safeDefault ? 'A' : 'A Enter'}
          aria-disabled={placement.armed ? undefined : true}
          title={refusedByRule ? 'A rule refuses your version: change it, undo your changes, or deny' : undefined}
          disabled={answering || outcome.kind === 'invalid' || refusedByRule}
          onClick={(event) => mayClick(event) && allowOnce()}
        >
          {changed ? 'Allow edited once' : 'Allow once'}
          <KeyHint keys="A" />
          {!safeDefault && <KeyHint keys="Enter" />}
        </button>
      </footer>
    </div>
  );
}

/**
 * The request as it stands for the person's version: the model's call until they change it, then
 * main's judgement of their version (its parts, their risk, why it asks) once it has come, and no
 * parts at all while it is on its way (the model's would be about another command).
 */
function judgedView(approval: ApprovalView, preview: DraftJudgement): ApprovalView {
  if (preview.status === 'unchanged') return approval;
  const { commands: _commands, parts: _parts, ...rest } = approval;
  if (preview.status !== 'ready') return rest;
  const judged = preview.preview;
  return {
    ...rest,
    reason: judged.reason,
    ...(judged.commands !== undefined ? { commands: judged.commands } : {}),
    ...(judged.parts !== undefined ? { parts: judged.parts } : {}),
  };
}

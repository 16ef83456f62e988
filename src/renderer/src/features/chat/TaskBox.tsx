import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from '../../ui/Icon';
import { useMentionCompletion, type MentionSource } from './useMentionCompletion';
import '../../ui/completionList.css';
import './mentions.css';

interface TaskBoxProps {
  placeholder: string;
  submitLabel: string;
  autoFocus?: boolean;
  /** Resolves true when the text was accepted (the box then empties); false keeps it for another try. */
  onSubmit(text: string): Promise<boolean>;
  /**
   * The text starts something once (a new session): it stays in the box until accepted, and Enter
   * waits while it is on its way, so a second Enter cannot start a second session.
   */
  once?: boolean;
  /** Where @-mentions find files; without it, @ is just a character. */
  mentions?: MentionSource;
  /** Where the text lives when it outlives the box (a session's, kept while another session shows); else in the box. */
  draft?: TaskDraft;
  children?: ReactNode;
}

/** A task box's text kept outside it: what it is now, read again after awaits, and how to change it. */
export interface TaskDraft {
  text: string;
  read(): string;
  set(text: string): void;
}

const MAX_ROWS_PX = 220;

/**
 * Where the person types: Enter sends, Shift+Enter starts a new line. Never disabled while the agent
 * works. `@` followed by part of a path lists the workspace's matching files; the one picked goes
 * into the text as `@path`, which the model reads as a file of the folder.
 */
export function TaskBox({ placeholder, submitLabel, autoFocus, once = false, onSubmit, mentions, draft, children }: TaskBoxProps) {
  const [ownText, setOwnText] = useState('');
  const text = draft ? draft.text : ownText;
  const setText = draft ? draft.set : setOwnText;
  const area = useRef<HTMLTextAreaElement>(null);
  const caretAfterPick = useRef<number | null>(null);
  const completion = useMentionCompletion(mentions, (next, caret) => {
    setText(next);
    caretAfterPick.current = caret;
  });

  useLayoutEffect(() => {
    const element = area.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_ROWS_PX)}px`;
    if (caretAfterPick.current !== null) {
      element.setSelectionRange(caretAfterPick.current, caretAfterPick.current);
      caretAfterPick.current = null;
    }
  }, [text]);

  // The text now, for a refused message coming back after awaits (the box may have gone by then: a
  // session's draft outlives it, and the message goes back there).
  const latest = useRef(text);
  latest.current = text;
  const textNow = () => (draft ? draft.read() : latest.current);
  // Sends go out one after another, in the order the person pressed Enter.
  const sends = useRef<Promise<void>>(Promise.resolve());
  const waiting = useRef(0);
  // Refused, or queued behind a refused one: they come back together, in the order they were typed.
  const unsent = useRef<string[]>([]);
  const [starting, setStarting] = useState(false);

  /**
   * The box empties at once, so what the person types while a message is on its way is only what
   * they type next (an Enter then is the next message, not a lost key). A message the core refuses
   * comes back into the box, before anything typed since, and nothing queued behind it goes out
   * meanwhile (the agent would read them out of order), so nothing the person wrote is lost.
   */
  function submit() {
    const value = text.trim();
    if (!value) return;
    if (once) {
      void submitOnce(value);
      return;
    }
    setText('');
    completion.update('', 0);
    waiting.current += 1;
    sends.current = sends.current.then(async () => {
      const accepted = unsent.current.length === 0 && (await onSubmit(value).catch(() => false));
      if (!accepted) unsent.current.push(value);
      waiting.current -= 1;
      if (waiting.current > 0 || unsent.current.length === 0) return;
      const back = unsent.current.splice(0).join('\n');
      const current = textNow();
      const next = current.trim() ? `${back}\n${current}` : back;
      setText(next);
      // The mention list, if one was open, was for the text before.
      completion.update(next, 0);
    });
  }

  /** A text that starts something once: it stays until accepted, and Enter waits while it is on its way. */
  async function submitOnce(value: string) {
    if (starting) return;
    setStarting(true);
    const accepted = await onSubmit(value).catch(() => false);
    setStarting(false);
    if (accepted && textNow().trim() === value) setText('');
  }
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    submit();
  }
  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.nativeEvent.isComposing) return;
    if (!event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey && completion.handleKey(event.key)) {
      event.preventDefault();
      // Esc closes the list only: it must not also leave the box or reach the app's shortcuts.
      event.stopPropagation();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    submit();
  }
  function track(element: HTMLTextAreaElement) {
    completion.update(element.value, element.selectionStart);
  }

  const listId = 'task-box-mentions';
  return (
    <form className="task-box" onSubmit={handleSubmit} data-testid="task-form">
      <label htmlFor="task-box-input" className="visually-hidden">
        Message
      </label>
      <div className="task-box-field">
        {completion.open && (
          <ul className="completion-list mention-list" id={listId} role="listbox" aria-label="Files" data-testid="mention-list">
            {completion.files.map((file, index) => (
              <li
                key={file}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === completion.active}
                className="completion-option mono"
                data-testid="mention-option"
                // Picking with the mouse must not take focus from the box.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => completion.pick(index)}
              >
                {file}
              </li>
            ))}
            {completion.truncated && <li className="completion-more faint">More files match: type more of the path</li>}
          </ul>
        )}
        <textarea
          id="task-box-input"
          ref={area}
          rows={1}
          data-testid="task-box"
          placeholder={placeholder}
          autoFocus={autoFocus}
          value={text}
          // A textarea stays a (multi-line) textbox: ARIA's combobox is a one-line input. The list it
          // completes from is tied to it by aria-controls and aria-activedescendant, which a textbox takes.
          aria-autocomplete={mentions ? 'list' : undefined}
          aria-controls={completion.open ? listId : undefined}
          aria-activedescendant={completion.open ? `${listId}-${completion.active}` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            track(event.target);
          }}
          onSelect={(event) => track(event.currentTarget)}
          onKeyDown={handleKeyDown}
        />
      </div>
      <div className="task-box-actions">
        {children}
        <button type="submit" className="primary" data-testid="task-send" disabled={!text.trim() || starting} title="Send (Enter)">
          <Icon name="send" />
          <span>{submitLabel}</span>
        </button>
      </div>
    </form>
  );
}

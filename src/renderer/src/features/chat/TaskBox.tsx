import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from '../../app/Icon';

interface TaskBoxProps {
  placeholder: string;
  submitLabel: string;
  autoFocus?: boolean;
  /** Resolves true when the text was accepted (the box then empties); false keeps it for another try. */
  onSubmit(text: string): Promise<boolean>;
  children?: ReactNode;
}

const MAX_ROWS_PX = 220;

/** Where the person types: Enter sends, Shift+Enter starts a new line. Never disabled while the agent works. */
export function TaskBox({ placeholder, submitLabel, autoFocus, onSubmit, children }: TaskBoxProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);

  useLayoutEffect(() => {
    const element = area.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_ROWS_PX)}px`;
  }, [text]);

  async function submit() {
    const value = text.trim();
    if (!value || sending) return;
    setSending(true);
    const accepted = await onSubmit(value);
    setSending(false);
    if (accepted) setText((current) => (current.trim() === value ? '' : current));
  }
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    void submit();
  }
  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  }

  return (
    <form className="task-box" onSubmit={handleSubmit} data-testid="task-form">
      <label htmlFor="task-box-input" className="visually-hidden">
        Message
      </label>
      <textarea
        id="task-box-input"
        ref={area}
        rows={1}
        data-testid="task-box"
        placeholder={placeholder}
        autoFocus={autoFocus}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={handleKeyDown}
      />
      <div className="task-box-actions">
        {children}
        <button type="submit" className="primary" data-testid="task-send" disabled={!text.trim() || sending} title="Send (Enter)">
          <Icon name="send" />
          <span>{submitLabel}</span>
        </button>
      </div>
    </form>
  );
}

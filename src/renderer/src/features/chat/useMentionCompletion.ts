import { useEffect, useRef, useState } from 'react';
import type { FileMatches } from '../../../../shared/contract';
import { activeMention, applyMention, type ActiveMention } from './mentions';

/** Asks main for the workspace files matching what follows the @. */
export type MentionSource = (query: string) => Promise<FileMatches>;

/** Keystrokes come faster than a listing is worth asking for. */
const ASK_AFTER_MS = 60;

export interface MentionCompletion {
  /** The list as shown (empty when closed). */
  files: string[];
  truncated: boolean;
  active: number;
  open: boolean;
  /** Called with the text and caret after every change or caret move. */
  update(text: string, caret: number): void;
  /** Handles the list's keys; true when it took the key (the box must not act on it). */
  handleKey(key: string): boolean;
  pick(index: number): void;
}

/**
 * @-mention completion for a text box: while the caret is in `@something`, asks `source` for the
 * files that match and offers them; arrows move, Enter or Tab picks, Esc closes the list and keeps
 * the text. `onPick` gets the new text and caret.
 */
export function useMentionCompletion(source: MentionSource | undefined, onPick: (text: string, caret: number) => void): MentionCompletion {
  const [mention, setMention] = useState<ActiveMention | null>(null);
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ query: string; matches: FileMatches } | null>(null);
  const [active, setActive] = useState(0);
  // Esc closes the list for the mention it was open for; typing on reopens it.
  const [dismissed, setDismissed] = useState<string | null>(null);
  const ticket = useRef(0);
  const key = mention ? `${mention.start}:${mention.query}` : null;

  useEffect(() => {
    if (!source || !mention) return;
    const mine = ++ticket.current;
    const query = mention.query;
    const timer = setTimeout(() => {
      source(query).then(
        (matches) => {
          if (mine === ticket.current) setResult({ query, matches });
        },
        // A failed listing shows no list; the text is untouched, so nothing is lost.
        () => {
          if (mine === ticket.current) setResult(null);
        },
      );
    }, ASK_AFTER_MS);
    return () => clearTimeout(timer);
    // `key` names the mention (its place and query): a new one, and only that, asks again.
  }, [source, key]);

  const files = mention && result && key !== dismissed ? result.matches.files : [];
  const open = files.length > 0;

  function pick(index: number) {
    const file = files[index];
    if (!mention || file === undefined) return;
    const next = applyMention(text, mention, file);
    setMention(null);
    setResult(null);
    onPick(next.text, next.caret);
  }

  return {
    files,
    truncated: open && (result?.matches.truncated ?? false),
    active: Math.min(active, Math.max(0, files.length - 1)),
    open,
    update(nextText, caret) {
      setText(nextText);
      const next = source ? activeMention(nextText, caret) : null;
      if (next?.start !== mention?.start || next?.query !== mention?.query) setActive(0);
      setMention(next);
    },
    handleKey(pressed) {
      if (!open) return false;
      if (pressed === 'ArrowDown') setActive((current) => (current + 1) % files.length);
      else if (pressed === 'ArrowUp') setActive((current) => (current - 1 + files.length) % files.length);
      else if (pressed === 'Enter' || pressed === 'Tab') pick(Math.min(active, files.length - 1));
      else if (pressed === 'Escape') setDismissed(key);
      else return false;
      return true;
    },
    pick,
  };
}

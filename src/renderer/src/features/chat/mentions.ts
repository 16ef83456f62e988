/** An @-mention being typed in the task box: where its @ is, and what follows it up to the caret. */
export interface ActiveMention {
  /** Index of the @. */
  start: number;
  query: string;
}

/** What may stand right before an @ that starts a mention: nothing, a space, or an opening bracket or quote. */
const BEFORE_MENTION = /[\s([{"'`]/;

/**
 * The mention the caret is in, if any: an @ at the start of the text or after a space (so an e-mail
 * address is not one), followed by path characters up to the caret.
 */
export function activeMention(text: string, caret: number): ActiveMention | null {
  const at = caret > 0 ? text.lastIndexOf('@', caret - 1) : -1;
  if (at === -1) return null;
  if (at > 0 && !BEFORE_MENTION.test(text[at - 1]!)) return null;
  const query = text.slice(at + 1, caret);
  if (!/^[^\s@]*$/.test(query) || query.length > 300) return null;
  return { start: at, query };
}

/** The text with the mention replaced by `@path ` (the rest of the word the caret was in is replaced too), and where the caret goes. */
export function applyMention(text: string, mention: ActiveMention, path: string): { text: string; caret: number } {
  let end = mention.start + 1 + mention.query.length;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  const inserted = `@${path} `;
  const after = text.slice(end).replace(/^ /, '');
  return { text: text.slice(0, mention.start) + inserted + after, caret: mention.start + inserted.length };
}

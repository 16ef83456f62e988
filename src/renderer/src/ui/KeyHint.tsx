/**
 * The key that does what a button does, drawn after the button's words. The space before it makes
 * the key a word of the button's accessible name ("Deny D", not "DenyD"), and the button carries no
 * aria-label of its own: its name is what it shows, so a person who says what they see (voice
 * control) reaches it (WCAG 2.5.3, label in name). Pair it with `aria-keyshortcuts`.
 */
export function KeyHint({ keys }: { keys: string }) {
  return (
    <>
      {' '}
      <kbd className="key-hint">{keys}</kbd>
    </>
  );
}

import { useEffect, useId, useRef } from 'react';
import { useApp } from '../stores/useApp';
import { shortcutGroups } from './shortcuts';
import { KeyHint } from '../ui/KeyHint';

/**
 * The keyboard shortcuts, listed. A modal dialog (it asks nothing, so it may take focus): Esc, the
 * close button or a click outside closes it and focus goes back where it was.
 */
export function ShortcutsSheet() {
  const open = useApp((state) => state.shortcutsOpen);
  const setOpen = useApp((state) => state.setShortcutsOpen);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="shortcuts-sheet"
      aria-labelledby={titleId}
      data-testid="shortcuts-sheet"
      onClose={() => setOpen(false)}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) setOpen(false);
      }}
    >
      {open && (
        <div className="shortcuts-body">
          <header className="shortcuts-header">
            <h2 id={titleId}>Keyboard shortcuts</h2>
            <button type="button" className="ghost" onClick={() => setOpen(false)} data-testid="shortcuts-close" autoFocus>
              Close
              <KeyHint keys="Esc" />
            </button>
          </header>
          {shortcutGroups.map((group) => (
            <section key={group.title}>
              <h3>{group.title}</h3>
              <dl>
                {group.shortcuts.map((shortcut) => (
                  <div key={shortcut.keys} className="shortcut">
                    <dt>
                      <kbd>{shortcut.keys}</kbd>
                    </dt>
                    <dd>{shortcut.does}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      )}
    </dialog>
  );
}

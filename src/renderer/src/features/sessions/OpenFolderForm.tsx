import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useApp } from '../../stores/useApp';
import { Icon } from '../../app/Icon';

/**
 * Opens a folder by its path. There is no native folder picker in a browser under `tether serve`,
 * so the path is typed (the core checks it exists and says so if not).
 */
export function OpenFolderForm({ autoOpen = false }: { autoOpen?: boolean }) {
  const openProject = useApp((state) => state.openProject);
  const [open, setOpen] = useState(autoOpen);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const value = path.trim();
    if (!value || busy) return;
    setBusy(true);
    const project = await openProject(value);
    setBusy(false);
    if (project) {
      setPath('');
      if (!autoOpen) setOpen(false);
    }
  }
  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape' && !autoOpen) {
      event.preventDefault();
      setOpen(false);
      requestAnimationFrame(() => trigger.current?.focus());
    }
  }

  if (!open) {
    return (
      <div className="open-folder">
        <button ref={trigger} type="button" className="ghost open-folder-button" data-testid="open-folder-button" onClick={() => setOpen(true)}>
          <Icon name="folder" />
          <span>Open a folder…</span>
        </button>
      </div>
    );
  }
  return (
    <form className="open-folder-form" onSubmit={handleSubmit} aria-label="Open a folder" data-testid="open-folder-form">
      <label htmlFor={autoOpen ? 'welcome-folder-path' : 'sidebar-folder-path'} className="visually-hidden">
        Folder path
      </label>
      <input
        id={autoOpen ? 'welcome-folder-path' : 'sidebar-folder-path'}
        className="mono"
        data-testid="open-folder-input"
        placeholder="/path/to/your/project"
        autoFocus
        spellCheck={false}
        autoComplete="off"
        value={path}
        onChange={(event) => setPath(event.target.value)}
        onKeyDown={handleKeyDown}
      />
      <button type="submit" className="primary" data-testid="open-folder-submit" disabled={busy || !path.trim()}>
        {busy ? 'Opening…' : 'Open'}
      </button>
      {!autoOpen && (
        <button type="button" className="ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      )}
    </form>
  );
}

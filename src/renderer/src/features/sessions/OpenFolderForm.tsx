import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useApp } from '../../stores/useApp';
import { getApi } from '../../lib/api';
import { Icon } from '../../ui/Icon';
import { useFolderCompletion } from './useFolderCompletion';
import '../../ui/completionList.css';
import './openFolder.css';

/** Only the desktop app can show the OS's folder picker; a page under `tether serve` cannot. */
const canPickFolders = () => typeof window !== 'undefined' && window.tether !== undefined;

/**
 * Opens a folder by its path: typed with completion (main lists the folders that match; Tab or the
 * arrows and Enter take one), or, in the desktop app, chosen in the OS's folder picker. The core
 * checks the folder exists and says so if not.
 */
export function OpenFolderForm({ autoOpen = false }: { autoOpen?: boolean }) {
  const openProject = useApp((state) => state.openProject);
  const notify = useApp((state) => state.notify);
  const [open, setOpen] = useState(autoOpen);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const completion = useFolderCompletion(open ? path : '');
  const inputId = autoOpen ? 'welcome-folder-path' : 'sidebar-folder-path';
  const listId = `${inputId}-folders`;

  async function openFolder(value: string) {
    if (!value || busy) return;
    setBusy(true);
    const project = await openProject(value);
    setBusy(false);
    if (project) {
      setPath((current) => (current.trim() === value ? '' : current));
      if (!autoOpen) setOpen(false);
    }
  }
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    void openFolder(path.trim());
  }
  async function handlePick() {
    try {
      const { path: picked } = await getApi().request('folders:pick', {});
      if (picked) await openFolder(picked);
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error));
    }
  }
  function take(folder: string | undefined) {
    if (folder !== undefined) setPath(folder);
  }
  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (completion.open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        completion.move(event.key === 'ArrowDown' ? 1 : -1);
        return;
      }
      // Tab completes as a shell does (the highlighted folder, else the first); Enter takes a folder only once the person moved to one.
      if ((event.key === 'Tab' && !event.shiftKey) || (event.key === 'Enter' && completion.active >= 0)) {
        event.preventDefault();
        take(completion.folders[Math.max(0, completion.active)]);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        completion.dismiss();
        return;
      }
    }
    if (event.key === 'Escape' && !autoOpen) {
      event.preventDefault();
      setOpen(false);
      requestAnimationFrame(() => trigger.current?.focus());
    }
  }

  if (!open) {
    return (
      <div className="open-folder">
        <button
          ref={trigger}
          type="button"
          className="ghost open-folder-button"
          data-testid="open-folder-button"
          onClick={() => setOpen(true)}
        >
          <Icon name="folder" />
          <span>Open a folder…</span>
        </button>
      </div>
    );
  }
  return (
    <form className="open-folder-form" onSubmit={handleSubmit} aria-label="Open a folder" data-testid="open-folder-form">
      <label htmlFor={inputId} className="visually-hidden">
        Folder path
      </label>
      <div className="open-folder-field">
        <input
          id={inputId}
          className="mono"
          data-testid="open-folder-input"
          placeholder="/path/to/your/project"
          autoFocus
          spellCheck={false}
          autoComplete="off"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={completion.open}
          aria-controls={completion.open ? listId : undefined}
          aria-activedescendant={completion.open && completion.active >= 0 ? `${listId}-${completion.active}` : undefined}
          value={path}
          onChange={(event) => setPath(event.target.value)}
          onKeyDown={handleKeyDown}
        />
        {completion.open && (
          <ul className="completion-list folder-list" id={listId} role="listbox" aria-label="Folders" data-testid="folder-list">
            {completion.folders.map((folder, index) => (
              <li
                key={folder}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === completion.active}
                className="completion-option mono"
                data-testid="folder-option"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => take(folder)}
              >
                {folder}
              </li>
            ))}
            {completion.truncated && <li className="completion-more faint">More folders: type more of the name</li>}
          </ul>
        )}
      </div>
      <button type="submit" className="primary" data-testid="open-folder-submit" disabled={busy || !path.trim()}>
        {busy ? 'Opening…' : 'Open'}
      </button>
      {canPickFolders() && (
        <button
          type="button"
          data-testid="open-folder-pick"
          disabled={busy}
          title="Choose the folder in your system's folder picker"
          onClick={() => void handlePick()}
        >
          Browse…
        </button>
      )}
      {!autoOpen && (
        <button type="button" className="ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      )}
    </form>
  );
}

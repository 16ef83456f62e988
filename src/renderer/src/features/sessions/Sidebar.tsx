import type { Ref } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../stores/useApp';
import { selectProjectSessions } from '../../stores/selectors';
import { Icon } from '../../ui/Icon';
import { Inbox } from './Inbox';
import { OpenFolderForm } from './OpenFolderForm';
import { ProjectGroup } from './ProjectGroup';
import { RemoteRuns } from './RemoteRuns';
import { SessionList } from './SessionList';

/** Projects, their sessions with their state, and the inbox of everything waiting for the person. */
export function Sidebar({ ref }: { ref?: Ref<HTMLElement> }) {
  const projects = useApp((state) => state.projects);
  // A remote run has no project here either; it is listed under its runner (RemoteRuns).
  const orphans = useApp(useShallow((state) => selectProjectSessions(state, null).filter((session) => !session.remote)));
  const view = useApp((state) => state.view);
  const showSettings = useApp((state) => state.showSettings);
  const showHistory = useApp((state) => state.showHistory);
  const showMain = useApp((state) => state.showMain);
  const sessionsStatus = useApp((state) => state.sessionsStatus);
  const toggleSidebar = useApp((state) => state.toggleSidebar);
  const setShortcutsOpen = useApp((state) => state.setShortcutsOpen);

  function handleSettings() {
    if (view === 'settings') showMain();
    else showSettings();
  }

  function handleHistory() {
    if (view === 'history') showMain();
    else showHistory(null);
  }

  return (
    <nav ref={ref} className="sidebar" aria-label="Projects and sessions" data-testid="sidebar">
      <header className="sidebar-header">
        <span className="app-name">Tether</span>
        <button
          type="button"
          className={`ghost icon-button${view === 'settings' ? ' active' : ''}`}
          aria-label="Settings"
          aria-pressed={view === 'settings'}
          title="Settings (Ctrl+,)"
          data-testid="settings-button"
          onClick={handleSettings}
        >
          <Icon name="gear" />
        </button>
        <button
          type="button"
          className={`ghost icon-button${view === 'history' ? ' active' : ''}`}
          aria-label="Permission history"
          aria-pressed={view === 'history'}
          title="Permission history: every decision, who made it, and exports"
          data-testid="history-button"
          onClick={handleHistory}
        >
          <Icon name="history" />
        </button>
        <button
          type="button"
          className="ghost icon-button"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          data-testid="shortcuts-button"
          onClick={() => setShortcutsOpen(true)}
        >
          <Icon name="keyboard" />
        </button>
        <button
          type="button"
          className="ghost icon-button"
          aria-label="Fold the sidebar"
          title="Fold the sidebar (Ctrl+B)"
          data-testid="sidebar-fold"
          onClick={toggleSidebar}
        >
          <Icon name="panelLeft" />
        </button>
      </header>
      <Inbox />
      <OpenFolderForm />
      <div className="sidebar-scroll">
        {projects.map((project) => (
          <ProjectGroup key={project.id} project={project} />
        ))}
        {orphans.length > 0 && (
          <section className="project-group" aria-label="Other sessions" data-testid="project-other">
            <div className="project-header">
              <span className="project-name muted">Other sessions</span>
            </div>
            <SessionList sessions={orphans} />
          </section>
        )}
        <RemoteRuns />
        {sessionsStatus === 'error' && <p className="sidebar-note error-text">Could not load the sessions.</p>}
      </div>
    </nav>
  );
}

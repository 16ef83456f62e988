import type { ReactNode, Ref } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../../stores/useApp';
import { selectProjectSessions } from '../../stores/selectors';
import { IconButton } from '../../ui/IconButton';
import { Inbox } from './Inbox';
import { OpenFolderForm } from './OpenFolderForm';
import { ProjectGroup } from './ProjectGroup';
import { RemoteRuns } from './RemoteRuns';
import { SessionList } from './SessionList';

/** Projects, their sessions with their state, and the inbox of everything waiting for the person. */
export function Sidebar({ ref, children }: { ref?: Ref<HTMLElement>; children?: ReactNode }) {
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
        <IconButton
          icon="gear"
          label="Settings"
          pressed={view === 'settings'}
          title="Settings (Ctrl+,)"
          data-testid="settings-button"
          onClick={handleSettings}
        />
        <IconButton
          icon="history"
          label="Permission history"
          pressed={view === 'history'}
          title="Permission history: every decision, who made it, and exports"
          data-testid="history-button"
          onClick={handleHistory}
        />
        <IconButton
          icon="keyboard"
          label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          data-testid="shortcuts-button"
          onClick={() => setShortcutsOpen(true)}
        />
        <IconButton
          icon="panelLeft"
          label="Fold the sidebar"
          title="Fold the sidebar (Ctrl+B)"
          data-testid="sidebar-fold"
          onClick={toggleSidebar}
        />
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
      {children}
    </nav>
  );
}

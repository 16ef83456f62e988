import { useApp } from '../stores/useApp';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { PermissionHistory } from '../features/history/PermissionHistory';
import { Welcome } from '../features/welcome/Welcome';
import { SessionWorkspace } from '../features/chat/SessionWorkspace';
import { DraftSession } from '../features/chat/DraftSession';
import { NoSessionSelected } from '../features/chat/NoSessionSelected';

/** What fills the window beside the sidebar: settings, the permission history, the welcome, a new session, or the selected one. */
export function MainArea() {
  const view = useApp((state) => state.view);
  const selectedSessionId = useApp((state) => state.selectedSessionId);
  const draftProjectId = useApp((state) => state.draftProjectId);
  const projectsStatus = useApp((state) => state.projectsStatus);
  const noProjects = useApp((state) => state.projects.length === 0 && Object.keys(state.sessions).length === 0);
  const needsModel = useApp((state) => state.settings !== null && !state.settings.modelConfigured);
  const connection = useApp((state) => state.connection);
  const init = useApp((state) => state.init);

  if (view === 'settings') return <SettingsScreen />;
  if (view === 'history') return <PermissionHistory />;
  if (selectedSessionId) return <SessionWorkspace key={selectedSessionId} sessionId={selectedSessionId} />;
  if (draftProjectId) return <DraftSession key={draftProjectId} projectId={draftProjectId} />;
  if (projectsStatus === 'loading' || projectsStatus === 'idle') {
    return (
      <main className="main-area" data-testid="main-loading" aria-busy="true">
        <div className="empty-state">Loading…</div>
      </main>
    );
  }
  // Nothing could be loaded (the link is down, or its token no longer holds): not a first run, so no welcome.
  if (projectsStatus === 'error' && noProjects) {
    return (
      <main className="main-area" data-testid="main-unloaded">
        <div className="empty-state">
          <h2>Nothing loaded yet</h2>
          {connection === 'tokenRefused' || connection === 'unauthenticated' ? (
            <p>This page cannot reach Tether without the address tether serve printed. Paste it into this tab’s address bar.</p>
          ) : (
            <>
              <p>Tether’s projects and sessions could not be loaded.</p>
              <button type="button" onClick={() => void init()}>
                Try again
              </button>
            </>
          )}
        </div>
      </main>
    );
  }
  if (noProjects || needsModel) return <Welcome />;
  return <NoSessionSelected />;
}

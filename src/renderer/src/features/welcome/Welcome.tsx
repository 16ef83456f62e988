import { useApp } from '../../stores/useApp';
import { OpenFolderForm } from '../sessions/OpenFolderForm';
import { ModelSetup } from './ModelSetup';

/** First run: set up a model if none is configured, and open a folder if there is no project yet. */
export function Welcome() {
  const settings = useApp((state) => state.settings);
  const showSettings = useApp((state) => state.showSettings);
  const noProjects = useApp((state) => state.projects.length === 0);
  const needsModel = settings !== null && !settings.modelConfigured;
  return (
    <main className="main-area scroll" data-testid="welcome">
      <div className={`welcome${needsModel ? ' welcome-setup' : ''}`}>
        <h1>Welcome to Tether</h1>
        <p className="muted">
          A coding agent on a tether: it reads, edits and runs commands in a folder you open, and every risky action waits for your
          approval.
        </p>
        {needsModel && <ModelSetup settings={settings} />}
        {noProjects && (
          <>
            <h2>Open a folder</h2>
            <p className="muted">Type the path of the project to work in.</p>
            <OpenFolderForm autoOpen />
          </>
        )}
        {!needsModel && (
          <>
            <h2>Model</h2>
            {settings ? (
              <p className="muted" data-testid="welcome-model">
                Using <span className="mono">{settings.model}</span> at <span className="mono">{settings.baseUrl}</span>
                {settings.hasApiKey ? ' with a key.' : '.'}{' '}
                <button type="button" className="ghost link" data-testid="welcome-settings" onClick={showSettings}>
                  Change…
                </button>
              </p>
            ) : (
              <p>
                <button type="button" data-testid="welcome-settings" onClick={showSettings}>
                  Set up a model…
                </button>
              </p>
            )}
          </>
        )}
      </div>
    </main>
  );
}

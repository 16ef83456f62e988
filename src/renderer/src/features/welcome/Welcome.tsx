import { useApp } from '../../stores/useApp';
import { OpenFolderForm } from '../sessions/OpenFolderForm';

/** First run: no project yet. Open a folder, and set up a model if none is configured. */
export function Welcome() {
  const settings = useApp((state) => state.settings);
  const showSettings = useApp((state) => state.showSettings);
  return (
    <main className="main-area" data-testid="welcome">
      <div className="welcome">
        <h1>Welcome to Tether</h1>
        <p className="muted">
          A coding agent on a tether: it reads, edits and runs commands in a folder you open, and every risky action waits for your approval.
        </p>
        <h2>Open a folder</h2>
        <p className="muted">Type the path of the project to work in.</p>
        <OpenFolderForm autoOpen />
        <h2>Model</h2>
        {settings ? (
          <p className="muted">
            Using <span className="mono">{settings.model}</span> at <span className="mono">{settings.baseUrl}</span>
            {settings.hasApiKey ? ' with a stored API key.' : '.'}{' '}
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
      </div>
    </main>
  );
}

import { useApp } from '../../stores/useApp';
import { SettingsForm } from './SettingsForm';
import { RulesList } from './RulesList';
import { McpServersList } from './McpServersList';
import { SandboxSettings } from './SandboxSettings';
import { ProjectDefaults } from './ProjectDefaults';
import { NotificationSettings } from './NotificationSettings';
import { RemoteRunsSettings } from './RemoteRunsSettings';

/** Model and permission defaults, and the rules "Allow always" remembered. Esc goes back. */
export function SettingsScreen() {
  const settings = useApp((state) => state.settings);
  const status = useApp((state) => state.settingsStatus);
  const error = useApp((state) => state.settingsError);
  const loadSettings = useApp((state) => state.loadSettings);
  const showMain = useApp((state) => state.showMain);

  return (
    <main
      className="main-area settings-screen scroll"
      data-testid="settings"
      aria-labelledby="settings-title"
      onKeyDown={(event) => event.key === 'Escape' && showMain()}
    >
      <div className="settings-body">
        <header className="settings-header">
          <h1 id="settings-title">Settings</h1>
          <button type="button" className="ghost" data-testid="settings-close" onClick={showMain}>
            Close
          </button>
        </header>
        {settings ? (
          <SettingsForm key={JSON.stringify(settings)} settings={settings} />
        ) : status === 'error' ? (
          <div className="error-text" role="alert">
            Could not load the settings: {error}{' '}
            <button type="button" onClick={() => void loadSettings()}>
              Try again
            </button>
          </div>
        ) : (
          <p className="faint">Loading the settings…</p>
        )}
        <ProjectDefaults />
        <RulesList />
        <McpServersList />
        <SandboxSettings />
        <NotificationSettings />
        <RemoteRunsSettings />
      </div>
    </main>
  );
}

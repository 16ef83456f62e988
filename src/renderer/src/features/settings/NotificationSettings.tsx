import type { NotificationChoices } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';

const KINDS: ReadonlyArray<{ key: keyof NotificationChoices; label: string }> = [
  { key: 'waiting', label: 'A request is waiting for you (names the session, the tool and the command, file or host)' },
  { key: 'finished', label: 'A session finished' },
  { key: 'failed', label: 'A session failed or reached its step limit' },
];

/**
 * Which system notifications show while the window is not in front. A preference of this window's
 * data folder, kept with the pane sizes: it changes nothing the agent may do.
 */
export function NotificationSettings() {
  const choices = useApp((state) => state.layout.notifications);
  const setLayout = useApp((state) => state.setLayout);

  return (
    <section className="notification-settings" aria-labelledby="notification-settings-title" data-testid="notification-settings">
      <h2 id="notification-settings-title">Notifications</h2>
      <p className="faint">Shown only while the Tether window is not in front. Your system may also need to allow them.</p>
      {KINDS.map(({ key, label }) => (
        <div className="field" key={key}>
          <label>
            <input
              type="checkbox"
              data-testid={`notify-${key}`}
              checked={choices?.[key] !== false}
              onChange={(event) => setLayout({ notifications: { ...choices, [key]: event.target.checked } })}
            />{' '}
            {label}
          </label>
        </div>
      ))}
    </section>
  );
}

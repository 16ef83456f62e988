import { useApp } from '../stores/useApp';

/** Says so when the link to the core is down; the store catches up by itself when it returns. */
export function ConnectionBanner() {
  const connection = useApp((state) => state.connection);
  const attempts = useApp((state) => state.reconnectAttempts);
  if (connection === 'connected' || connection === 'connecting') return null;
  const message =
    connection === 'reconnecting'
      ? `Lost the connection to Tether; reconnecting${attempts > 1 ? ` (try ${attempts})` : ''}… Sessions keep running, and this window catches up when the connection is back.`
      : connection === 'unauthenticated'
        ? 'This page has no access token. Open the address `tether serve` printed (it ends in #token=…).'
        : 'Disconnected from Tether. Check that `tether serve` is still running, then reload this page.';
  return (
    <div className={`connection-banner ${connection}`} role="status" data-testid="connection-banner" data-state={connection}>
      {message}
    </div>
  );
}

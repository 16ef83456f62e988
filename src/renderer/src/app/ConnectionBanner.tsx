import { useApp } from '../stores/useApp';

/** After this many failed tries the banner also says what to do if `tether serve` was stopped. */
const TRIES_BEFORE_ADVICE = 3;

/** Says so when the link to the core is down; the store catches up by itself when it returns. */
export function ConnectionBanner() {
  const connection = useApp((state) => state.connection);
  const attempts = useApp((state) => state.reconnectAttempts);
  if (connection === 'connected' || connection === 'connecting') return null;
  return (
    <div className={`connection-banner ${connection}`} role="status" data-testid="connection-banner" data-state={connection}>
      {message(connection, attempts)}
    </div>
  );
}

function message(connection: 'reconnecting' | 'disconnected' | 'unauthenticated' | 'tokenRefused', attempts: number): string {
  switch (connection) {
    case 'reconnecting':
      return attempts >= TRIES_BEFORE_ADVICE
        ? `tether serve is not answering (try ${attempts}); still trying. If it stopped, start it again: it comes back at this address when the port is free, and this page carries on where it was.`
        : `Lost the connection to Tether; reconnecting${attempts > 1 ? ` (try ${attempts})` : ''}… Sessions keep running, and this window catches up when the connection is back.`;
    case 'tokenRefused':
      return 'tether serve restarted, so this page’s access token no longer works. Paste the new address it printed (it ends in #token=…) into this tab’s address bar: the page stays where it is and reconnects.';
    case 'unauthenticated':
      return 'This page has no access token. Open the address `tether serve` printed (it ends in #token=…).';
    case 'disconnected':
      return 'Disconnected from Tether. Check that `tether serve` is still running, then reload this page.';
  }
}

import { WS_PATH } from '../../../shared/hostProtocol';
import { bridgeClient } from './host/bridgeClient';
import { takeSessionToken, takeTokenFromAddress, type TokenStorage } from './host/sessionToken';
import { createSocketClient } from './host/socketClient';
import { checkServeToken } from './host/tokenCheck';
import type { TetherClient } from './host/tetherClient';

let client: TetherClient | undefined;

/**
 * The one way the renderer reaches the host: Electron's `window.tether` when the preload put it
 * there, else `tether serve`'s WebSocket on the address the page came from.
 */
export function getApi(): TetherClient {
  client ??= window.tether ? bridgeClient(window.tether) : pageSocketClient();
  return client;
}

function pageSocketClient(): TetherClient {
  const storage = sessionStorageOrNull();
  const replaceAddress = (url: string) => window.history.replaceState(window.history.state, '', url);
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const client = createSocketClient({
    url: `${scheme}://${window.location.host}${WS_PATH}`,
    token: takeSessionToken(window.location, storage, replaceAddress),
    WebSocket: window.WebSocket,
    checkToken: (token) => checkServeToken(window.location.origin, token),
  });
  // The address a restarted `tether serve` printed, pasted into this tab, changes only the fragment:
  // the page stays, takes the new token and reconnects where it was.
  window.addEventListener('hashchange', () => {
    const token = takeTokenFromAddress(window.location, storage, replaceAddress);
    if (token !== null) client.useToken(token);
  });
  return client;
}

function sessionStorageOrNull(): TokenStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Reading sessionStorage throws where storage is blocked for the page.
    return null;
  }
}

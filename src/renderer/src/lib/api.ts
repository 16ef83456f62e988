import { WS_PATH } from '../../../shared/hostProtocol';
import { bridgeClient } from './host/bridgeClient';
import { takeSessionToken, type TokenStorage } from './host/sessionToken';
import { createSocketClient } from './host/socketClient';
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
  const token = takeSessionToken(window.location, sessionStorageOrNull(), (url) =>
    window.history.replaceState(window.history.state, '', url),
  );
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return createSocketClient({ url: `${scheme}://${window.location.host}${WS_PATH}`, token, WebSocket: window.WebSocket });
}

function sessionStorageOrNull(): TokenStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Reading sessionStorage throws where storage is blocked for the page.
    return null;
  }
}

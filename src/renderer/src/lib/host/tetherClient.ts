import type { TetherApi, Unsubscribe } from '../../../../shared/contract';

/**
 * Where the link to the host stands. In Electron it is always `open`; under `tether serve` the
 * WebSocket can drop and come back (`reconnecting` counts the failed tries), a page opened without
 * the token printed by `tether serve` stays `unauthenticated`, and one whose token the server no
 * longer takes (it restarted, with a new token) is `tokenRefused` until it is given the new one.
 */
export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'open' }
  | { status: 'reconnecting'; failedAttempts: number; retryInMs: number }
  | { status: 'unauthenticated' }
  | { status: 'tokenRefused' }
  | { status: 'closed' };

/**
 * The contract as the renderer uses it (`request`, `on`; a refusal rejects with a `RequestError`),
 * plus the state of the link to the host.
 */
export interface TetherClient extends TetherApi {
  connection(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): Unsubscribe;
  /**
   * Called when the link opens again after it was down, or opens with a new token the page took.
   * Events sent meanwhile were missed and requests made meanwhile may have failed: a store
   * refetches what it shows (`session:events` from its lastSeq, the lists) here.
   */
  onReconnect(listener: () => void): Unsubscribe;
}

import type { TetherApi, Unsubscribe } from '../../../../shared/contract';

/**
 * Where the link to the host stands. In Electron it is always `open`; under `tether serve` the
 * WebSocket can drop and come back (`reconnecting` counts the failed tries), and a page opened
 * without the token printed by `tether serve` stays `unauthenticated`.
 */
export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'open' }
  | { status: 'reconnecting'; failedAttempts: number; retryInMs: number }
  | { status: 'unauthenticated' }
  | { status: 'closed' };

/**
 * The contract as the renderer uses it (`request`, `on`; a refusal rejects with a `RequestError`),
 * plus the state of the link to the host.
 */
export interface TetherClient extends TetherApi {
  connection(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): Unsubscribe;
  /**
   * Called when a dropped connection is back. Events sent meanwhile were missed: a store refetches
   * what it shows (`session:events` from its lastSeq, the lists) here.
   */
  onReconnect(listener: () => void): Unsubscribe;
}

import type { Input, Output, RequestName, TetherApi } from '../../../../shared/contract';
import { RequestError } from '../../../../shared/requestError';
import type { ConnectionState, TetherClient } from './tetherClient';

const open: ConnectionState = { status: 'open' };

/**
 * Electron's `window.tether` as a `TetherClient`. The link to main cannot drop, so it is always
 * open and never reconnects; a refusal (a plain `RequestFailure` across the context bridge)
 * becomes a `RequestError`, as under `tether serve`.
 */
export function bridgeClient(bridge: TetherApi): TetherClient {
  return {
    async request<R extends RequestName>(name: R, input: Input<R>): Promise<Output<R>> {
      try {
        return await bridge.request(name, input);
      } catch (reason) {
        throw RequestError.from(reason);
      }
    },
    on: (name, listener) => bridge.on(name, listener),
    connection: () => open,
    onConnectionChange: () => () => {},
    onReconnect: () => () => {},
  };
}

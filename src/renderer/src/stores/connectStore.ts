import type { TetherApi, Unsubscribe } from '../../../shared/contract';
import type { ConnectionState as LinkState } from '../lib/host/tetherClient';
import type { AppStore } from './createAppStore';
import { createLiveBatcher, type Schedule } from './liveBatcher';
import type { ConnectionState } from './uiSlice';

/** The link to the host, as lib/api.ts's client reports it. */
export interface HostLink {
  connection(): LinkState;
  onConnectionChange(listener: (state: LinkState) => void): Unsubscribe;
  /** A dropped connection is back: whatever was sent meanwhile was missed. */
  onReconnect(listener: () => void): Unsubscribe;
}

/**
 * Subscribes the store to the core's event channels, once for the window's life. Live events
 * are batched per frame; a stored event first flushes the batch, so a command's header never lands
 * before the bytes of the command that ran before it.
 */
export function connectStore(store: AppStore, api: TetherApi, schedule: Schedule, link?: HostLink): Unsubscribe {
  const batcher = createLiveBatcher((batch) => store.getState().applyLive(batch), schedule);
  const unsubscribers = [
    api.on('session:event', (stored) => {
      batcher.flush();
      store.getState().receiveEvent(stored);
    }),
    api.on('session:live', (event) => batcher.push(event)),
    api.on('sessions:changed', (summary) => store.getState().sessionChanged(summary)),
    api.on('sessions:deleted', ({ sessionId }) => store.getState().sessionDeleted(sessionId)),
    api.on('mcp:changed', (server) => store.getState().mcpServerChanged(server)),
    api.on('app:updateChanged', (view) => store.getState().updateChanged(view)),
  ];
  if (link) {
    const report = (state: LinkState) =>
      store.getState().setConnection(connectionOf(state), state.status === 'reconnecting' ? state.failedAttempts : 0);
    report(link.connection());
    unsubscribers.push(
      link.onConnectionChange(report),
      link.onReconnect(() => void store.getState().resync()),
    );
  } else {
    store.getState().setConnection('connected');
  }
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}

function connectionOf(state: LinkState): ConnectionState {
  switch (state.status) {
    case 'connecting':
      return 'connecting';
    case 'open':
      return 'connected';
    case 'reconnecting':
      return 'reconnecting';
    case 'unauthenticated':
      return 'unauthenticated';
    case 'tokenRefused':
      return 'tokenRefused';
    case 'closed':
      return 'disconnected';
  }
}

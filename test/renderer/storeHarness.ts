import type { ConnectionState } from '../../src/renderer/src/lib/host/tetherClient';
import { connectStore, type HostLink } from '../../src/renderer/src/stores/connectStore';
import { createAppStore, type AppStore } from '../../src/renderer/src/stores/createAppStore';
import { FakeApi } from './fakeApi';

/** A host link a test drives: connection changes and reconnects, as the WebSocket client reports them. */
export class FakeLink implements HostLink {
  private state: ConnectionState = { status: 'connecting' };
  private readonly changeListeners = new Set<(state: ConnectionState) => void>();
  private readonly reconnectListeners = new Set<() => void>();

  connection(): ConnectionState {
    return this.state;
  }
  onConnectionChange(listener: (state: ConnectionState) => void) {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }
  onReconnect(listener: () => void) {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }
  set(state: ConnectionState): void {
    this.state = state;
    for (const listener of this.changeListeners) listener(state);
  }
  /** Drops and comes back, as the client does after a network blip. */
  reconnect(): void {
    this.set({ status: 'reconnecting', failedAttempts: 1, retryInMs: 250 });
    this.set({ status: 'open' });
    for (const listener of this.reconnectListeners) listener();
  }
}

export interface Harness {
  api: FakeApi;
  link: FakeLink;
  store: AppStore;
  /** Runs the frame callbacks the batcher asked for, as requestAnimationFrame would. */
  frame(): void;
  framesRequested(): number;
}

export function harness(api = new FakeApi(), diffDebounceMs = 50): Harness {
  let callbacks: (() => void)[] = [];
  let requested = 0;
  const schedule = (callback: () => void) => {
    requested++;
    callbacks.push(callback);
  };
  const store = createAppStore({ api, schedule, diffDebounceMs });
  const link = new FakeLink();
  connectStore(store, api, schedule, link);
  return {
    api,
    link,
    store,
    frame() {
      const run = callbacks;
      callbacks = [];
      for (const callback of run) callback();
    },
    framesRequested: () => requested,
  };
}

import type { AppInfo, EventName, EventPayload, Handlers, Unsubscribe } from '../../shared/contract';
import type { DeskListen } from '../../shared/remoteRuns';
import type { Updater } from './updates/autoUpdates';

/** Pushes one contract event to whoever shows the UI (the window, every browser tab). */
export type EmitEvent = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export interface AppServicesOptions {
  /** Where the database lives. */
  dataDir: string;
  /** Which host shows the UI; `app:info` reports it. */
  host: AppInfo['host'];
  /** The folder `tether serve` was started in, offered as a project; Electron starts with none. */
  cwd?: string;
  /** The packaged desktop app's updater (electron-updater); absent in development and under `tether serve`. */
  updater?: Updater;
  /** Accept remote runs in this process (`tether serve --remote-runs`), listening where given (loopback by default). */
  remoteRuns?: { listen?: DeskListen; tls?: boolean };
}

/** What a UI host needs from the core: the contract's handlers and its event stream. */
export interface AppServices {
  handlers: Handlers;
  /** Calls `emit` for every event until the returned function is called. */
  subscribe(emit: EmitEvent): Unsubscribe;
  /** Stops running sessions and closes the store. */
  close(): void | Promise<void>;
}

export type CreateAppServices = (options: AppServicesOptions) => AppServices | Promise<AppServices>;

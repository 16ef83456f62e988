import type { IpcRendererEvent } from 'electron';
import type { EventName, EventPayload, Input, Output, RequestFailure, RequestName, TetherApi, Unsubscribe } from '../shared/contract';
import { IPC_EVENT_CHANNEL, ipcRequestChannel, isEventName, isRequestName, Reply, WireEvent } from '../shared/hostProtocol';

/** The two calls of Electron's ipcRenderer the bridge needs. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
}

/**
 * `window.tether`: the contract's requests and events, and nothing else. There is no generic
 * invoke and no ipcRenderer to reach through; a name the contract lacks is refused here, before any
 * message leaves the page.
 *
 * A refused request rejects with a plain `RequestFailure` object, not an Error: the context bridge
 * copies only an Error's message, and the renderer needs the code too (lib/api.ts turns it back
 * into a `RequestError`).
 */
export function createBridge(ipc: IpcRendererLike): TetherApi {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();

  ipc.on(IPC_EVENT_CHANNEL, (_event: IpcRendererEvent, message: unknown) => {
    const parsed = WireEvent.safeParse(message);
    if (!parsed.success || !isEventName(parsed.data.event)) return;
    for (const listener of [...(listeners.get(parsed.data.event) ?? [])]) {
      try {
        (listener as (payload: unknown) => void)(parsed.data.payload);
      } catch (error) {
        console.error(`tether: a listener of ${parsed.data.event} threw`, error);
      }
    }
  });

  return {
    async request<R extends RequestName>(name: R, input: Input<R>): Promise<Output<R>> {
      if (!isRequestName(name)) throw failure('invalid_input', `There is no request ${JSON.stringify(String(name))} in Tether's contract.`);
      const reply = Reply.safeParse(await ipc.invoke(ipcRequestChannel(name), input));
      if (!reply.success)
        throw failure('failed', `Tether's main process answered ${name} with something that is not a reply; restart Tether.`);
      if (!reply.data.ok) throw failure(reply.data.error.code, reply.data.error.message);
      return reply.data.output as Output<R>;
    },

    on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): Unsubscribe {
      if (!isEventName(name)) throw new Error(`There is no event ${JSON.stringify(String(name))} in Tether's contract.`);
      if (typeof listener !== 'function') throw new Error(`tether.on("${name}") needs a function to call.`);
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      // Stored without its payload type: one map holds listeners of every event.
      const stored = listener as (payload: never) => void;
      set.add(stored);
      return () => {
        set.delete(stored);
      };
    },
  };
}

function failure(code: RequestFailure['code'], message: string): RequestFailure {
  return { code, message };
}

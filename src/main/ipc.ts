import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';
import { requests, type Handlers, type RequestName, type Unsubscribe } from '../shared/contract';
import { IPC_EVENT_CHANNEL, ipcRequestChannel } from '../shared/hostProtocol';
import type { EmitEvent } from './app/appServices';
import { checkedEvent } from './host/checkedEvent';
import { createDispatcher } from './host/dispatch';

/**
 * The contract on Electron's IPC: one channel per request, so a name the contract lacks has no
 * handler at all. Each call's sender frame is checked, and its input held to the contract, by the
 * same dispatcher `tether serve` uses. Answers are `Reply` objects because IPC drops error classes.
 */

type Log = (message: string, error?: unknown) => void;

const logToConsole: Log = (message, error) => console.error(`tether: ${message}`, error ?? '');

export function bindIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  handlers: Handlers,
  isTrustedSender: (frame: WebFrameMain | null) => boolean,
  log: Log = logToConsole,
): Unsubscribe {
  const dispatch = createDispatcher<WebFrameMain | null>({ handlers, isTrustedSender, log });
  const names = Object.keys(requests) as RequestName[];
  for (const name of names) {
    ipcMain.handle(ipcRequestChannel(name), (event: IpcMainInvokeEvent, input: unknown) => dispatch(event.senderFrame, name, input));
  }
  return () => {
    for (const name of names) ipcMain.removeHandler(ipcRequestChannel(name));
  };
}

/** Sends every event to the window `target` returns (none while it is closed). */
export function broadcastTo(target: () => Pick<WebContents, 'send' | 'isDestroyed'> | undefined, log: Log = logToConsole): EmitEvent {
  return (name, payload) => {
    const contents = target();
    if (!contents || contents.isDestroyed()) return;
    const event = checkedEvent(name, payload, log);
    if (event) contents.send(IPC_EVENT_CHANNEL, event);
  };
}

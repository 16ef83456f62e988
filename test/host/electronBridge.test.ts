import type { IpcMainInvokeEvent, IpcRendererEvent, WebFrameMain } from 'electron';
import { describe, expect, it } from 'vitest';
import { bindIpc, broadcastTo } from '../../src/main/ipc';
import { createBridge } from '../../src/preload/bridge';
import { requests, type RequestName } from '../../src/shared/contract';
import { IPC_EVENT_CHANNEL } from '../../src/shared/hostProtocol';
import { bridgeClient } from '../../src/renderer/src/lib/host/bridgeClient';
import { RequestError } from '../../src/shared/requestError';
import { recordingHandlers, sampleInputs, sampleOutputs, storedEvent } from './contractSamples';

// Electron's half of the host, without Electron: main's IPC binding (ipc.ts) and the preload's
// bridge (preload/bridge.ts) wired to each other through fakes of ipcMain and ipcRenderer.

const names = Object.keys(requests) as RequestName[];
type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

const appFrame = { url: 'file:///opt/tether/out/renderer/index.html' } as unknown as WebFrameMain;
const strangerFrame = { url: 'https://evil.example/' } as unknown as WebFrameMain;

function fakeElectron(overrides: Parameters<typeof recordingHandlers>[0] = {}) {
  const channels = new Map<string, Listener>();
  const ipcMain = {
    handle(channel: string, listener: Listener) {
      if (channels.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      channels.set(channel, listener);
    },
    removeHandler(channel: string) {
      channels.delete(channel);
    },
  };
  const { handlers, calls } = recordingHandlers(overrides);
  const unbind = bindIpc(
    ipcMain,
    handlers,
    (frame) => frame === appFrame,
    () => {},
  );

  let senderFrame: WebFrameMain | null = appFrame;
  const invoked: string[] = [];
  const rendererListeners = new Map<string, (event: IpcRendererEvent, ...args: unknown[]) => void>();
  const ipcRenderer = {
    // Electron's invoke: a structured clone across processes, and an error for an unbound channel.
    async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      invoked.push(channel);
      const listener = channels.get(channel);
      if (!listener) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
      return structuredClone(await listener({ senderFrame } as IpcMainInvokeEvent, ...args.map((arg) => structuredClone(arg))));
    },
    on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void) {
      rendererListeners.set(channel, listener);
      return ipcRenderer;
    },
  };
  const send = (channel: string, message: unknown) => rendererListeners.get(channel)?.({} as IpcRendererEvent, structuredClone(message));
  return {
    channels,
    calls,
    invoked,
    unbind,
    send,
    ipcRenderer,
    setSender(frame: WebFrameMain | null) {
      senderFrame = frame;
    },
    invoke: (name: string, input: unknown) => ipcRenderer.invoke(`tether:${name}`, input),
  };
}

describe('bindIpc', () => {
  it('binds one channel per request in the contract and unbinds them all', () => {
    const electron = fakeElectron();
    expect([...electron.channels.keys()].sort()).toEqual(names.map((name) => `tether:${name}`).sort());
    electron.unbind();
    expect(electron.channels.size).toBe(0);
  });

  it('checks the sender frame on every call of every channel, not only the first', async () => {
    const electron = fakeElectron();
    for (const name of names) {
      electron.setSender(appFrame);
      expect(await electron.invoke(name, sampleInputs[name]), name).toEqual({ ok: true, output: sampleOutputs[name] });
      for (const frame of [strangerFrame, null]) {
        electron.setSender(frame);
        expect(await electron.invoke(name, sampleInputs[name]), name).toMatchObject({ ok: false, error: { code: 'failed' } });
      }
    }
    expect(electron.calls).toHaveLength(names.length);
  });

  it('holds the input of every channel to the contract', async () => {
    const electron = fakeElectron();
    for (const name of names) {
      expect(await electron.invoke(name, 'not an object'), name).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(electron.calls).toEqual([]);
  });
});

describe('broadcastTo', () => {
  it('sends contract events to the window, and nothing once it is gone', () => {
    const sent: unknown[][] = [];
    let destroyed = false;
    const contents = { send: (...args: unknown[]) => sent.push(args), isDestroyed: () => destroyed };
    let target: typeof contents | undefined = contents;
    const logged: string[] = [];
    const emit = broadcastTo(
      () => target,
      (message) => logged.push(message),
    );

    emit('session:event', storedEvent);
    emit('sessions:deleted', { sessionId: 7 } as never);
    destroyed = true;
    emit('session:event', storedEvent);
    target = undefined;
    emit('session:event', storedEvent);

    expect(sent).toEqual([[IPC_EVENT_CHANNEL, { event: 'session:event', payload: storedEvent }]]);
    expect(logged).toEqual(['dropped a malformed sessions:deleted event']);
  });
});

describe('the preload bridge', () => {
  it('exposes request and on, and nothing that reaches ipcRenderer', () => {
    const bridge = createBridge(fakeElectron().ipcRenderer);
    expect(Object.keys(bridge).sort()).toEqual(['on', 'request']);
  });

  it('carries a request to main and resolves with its output', async () => {
    const electron = fakeElectron();
    const bridge = createBridge(electron.ipcRenderer);
    expect(await bridge.request('settings:get', {})).toEqual(sampleOutputs['settings:get']);
    expect(await bridge.request('session:stop', { sessionId: 's1' })).toBeUndefined();
    expect(electron.invoked).toEqual(['tether:settings:get', 'tether:session:stop']);
  });

  it('refuses a name outside the contract without sending anything', async () => {
    const electron = fakeElectron();
    const bridge = createBridge(electron.ipcRenderer);
    for (const name of ['shell:exec', 'constructor', '__proto__']) {
      await expect(bridge.request(name as never, {} as never)).rejects.toEqual({
        code: 'invalid_input',
        message: expect.stringContaining(name),
      });
    }
    expect(electron.invoked).toEqual([]);
  });

  it('rejects a refusal with its code and message as plain data, which the renderer turns into a RequestError', async () => {
    const electron = fakeElectron({
      'session:stop': async () => {
        throw Object.assign(new Error('There is no session s9.'), { code: 'not_found' });
      },
    });
    const bridge = createBridge(electron.ipcRenderer);
    const reason = await bridge.request('session:stop', { sessionId: 's9' }).catch((error: unknown) => error);
    // The context bridge would keep only an Error's message; a plain object keeps the code too.
    expect(reason).not.toBeInstanceOf(Error);
    expect(reason).toEqual({ code: 'not_found', message: 'There is no session s9.' });

    const error = await bridgeClient(bridge)
      .request('session:stop', { sessionId: 's9' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: 'not_found', message: 'There is no session s9.' });
  });

  it('delivers contract events to their listeners until they unsubscribe, and ignores anything else', () => {
    const electron = fakeElectron();
    const bridge = createBridge(electron.ipcRenderer);
    const received: unknown[] = [];
    const unsubscribe = bridge.on('session:event', (payload) => received.push(payload));
    expect(() => bridge.on('shell:output' as never, () => {})).toThrow(/no event "shell:output"/);

    electron.send(IPC_EVENT_CHANNEL, { event: 'session:event', payload: storedEvent });
    electron.send(IPC_EVENT_CHANNEL, { event: 'shell:output', payload: 'x' });
    electron.send(IPC_EVENT_CHANNEL, 'garbage');
    unsubscribe();
    electron.send(IPC_EVENT_CHANNEL, { event: 'session:event', payload: storedEvent });
    expect(received).toEqual([storedEvent]);
  });
});

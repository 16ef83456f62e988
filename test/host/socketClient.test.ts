import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServeHost } from '../../src/main/host/serve';
import { RequestError } from '../../src/shared/requestError';
import { createSocketClient, type SocketClient, type SocketClientOptions } from '../../src/renderer/src/lib/host/socketClient';
import type { ConnectionState } from '../../src/renderer/src/lib/host/tetherClient';
import { checkServeToken } from '../../src/renderer/src/lib/host/tokenCheck';
import { removeTempDirs } from '../support/tempDirs';
import { sampleOutputs, storedEvent } from './contractSamples';
import { startTestHost, type TestHost } from './serveHelpers';

// The browser's client (renderer/src/lib/socketClient.ts) against the real server, with the `ws`
// package standing in for the browser's WebSocket. A browser sends its page's origin by itself;
// here the stand-in adds it.

const started: TestHost[] = [];
const clients: SocketClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(started.splice(0).map((test) => test.host.close()));
  removeTempDirs();
});

async function setUp(options: Parameters<typeof startTestHost>[0] = {}): Promise<TestHost> {
  const test = await startTestHost(options);
  started.push(test);
  return test;
}

function browserSocketFor(host: ServeHost): SocketClientOptions['WebSocket'] {
  return class extends WebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols, { origin: host.origin });
    }
  };
}

function clientFor(host: ServeHost, options: Partial<SocketClientOptions> = {}): { client: SocketClient; states: ConnectionState[] } {
  const client = createSocketClient({
    url: `ws://127.0.0.1:${host.port}/ws`,
    token: host.token,
    WebSocket: browserSocketFor(host),
    firstRetryMs: 20,
    maxRetryMs: 80,
    random: () => 0.5,
    ...options,
  });
  clients.push(client);
  const states: ConnectionState[] = [client.connection()];
  client.onConnectionChange((state) => states.push(state));
  return { client, states };
}

function until(client: SocketClient, status: ConnectionState['status']): Promise<void> {
  if (client.connection().status === status) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = client.onConnectionChange((state) => {
      if (state.status !== status) return;
      stop();
      resolve();
    });
  });
}

describe('socketClient', () => {
  it('answers requests and delivers events through the server', async () => {
    const test = await setUp();
    const { client } = clientFor(test.host);
    const events: unknown[] = [];
    client.on('session:event', (payload) => events.push(payload));
    expect(await client.request('app:info', {})).toEqual(sampleOutputs['app:info']);
    test.emit('session:event', storedEvent);
    await expect.poll(() => events).toEqual([storedEvent]);
  });

  it('rejects a refused request with a RequestError that keeps the code and message', async () => {
    const test = await setUp();
    const { client } = clientFor(test.host);
    const error = await client.request('session:start', { workspace: '/w', task: ' ' }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: 'invalid_input', message: 'session:start: task: Type a task first.' });
  });

  it('refuses names outside the contract before anything is sent', async () => {
    const test = await setUp();
    const { client } = clientFor(test.host);
    await until(client, 'open');
    await expect(client.request('shell:exec' as never, {} as never)).rejects.toMatchObject({ code: 'invalid_input' });
    expect(() => client.on('shell:output' as never, () => {})).toThrow(/no event "shell:output"/);
    expect(test.calls).toEqual([]);
  });

  it('reconnects after the server drops the socket, says so, and calls onReconnect once', async () => {
    const test = await setUp();
    const { client, states } = clientFor(test.host);
    let reconnects = 0;
    client.onReconnect(() => (reconnects += 1));
    await until(client, 'open');
    expect(reconnects).toBe(0);

    test.host.disconnectAll();
    await until(client, 'reconnecting');
    await until(client, 'open');
    expect(reconnects).toBe(1);
    expect(states.map((state) => state.status)).toEqual(['connecting', 'open', 'reconnecting', 'connecting', 'open']);
    expect(states[2]).toEqual({ status: 'reconnecting', failedAttempts: 1, retryInMs: 20 });
    expect(await client.request('app:info', {})).toEqual(sampleOutputs['app:info']);
    expect(test.host.connectionCount()).toBe(1);
  });

  it('holds a request made while disconnected and sends it once the connection is back', async () => {
    const test = await setUp();
    const { client } = clientFor(test.host, { firstRetryMs: 150, maxRetryMs: 150 });
    await until(client, 'open');
    test.host.disconnectAll();
    await until(client, 'reconnecting');
    const answer = client.request('session:stop', { sessionId: 's1' });
    expect(test.calls).toEqual([]);
    await answer;
    expect(test.calls).toEqual([{ name: 'session:stop', input: { sessionId: 's1' } }]);
  });

  it('fails a request that was in flight when the link dropped, and never sends it twice', async () => {
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const test = await setUp({
      overrides: {
        'session:start': async () => {
          started();
          await new Promise((resolve) => setTimeout(resolve, 200));
          return { sessionId: 's1' };
        },
      },
    });
    const { client } = clientFor(test.host);
    const answer = client.request('session:start', { workspace: '/w', task: 'fix it' }).catch((reason: unknown) => reason);
    await running;
    test.host.disconnectAll();
    expect(await answer).toMatchObject({
      code: 'failed',
      message: expect.stringMatching(/dropped before it answered session:start, so it may or may not have happened/),
    });
    await until(client, 'open');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(test.calls.filter((recorded) => recorded.name === 'session:start')).toHaveLength(1);
  });

  it('gives up on a request after waiting the timeout for a server that is gone, and keeps retrying with backoff', async () => {
    const test = await setUp();
    const { client, states } = clientFor(test.host, { queueTimeoutMs: 300 });
    await until(client, 'open');
    await test.host.close();
    const started = Date.now();
    const error = await client.request('app:info', {}).catch((reason: unknown) => reason);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(error).toMatchObject({ code: 'failed', message: expect.stringContaining('Not connected to tether serve') });
    const waits = states.flatMap((state) => (state.status === 'reconnecting' ? [state.retryInMs] : []));
    expect(waits.slice(0, 4)).toEqual([20, 40, 80, 80]);
  });

  it('never connects from a page without a token, and says what to open instead', async () => {
    const test = await setUp();
    const { client } = clientFor(test.host, { token: null });
    expect(client.connection()).toEqual({ status: 'unauthenticated' });
    await expect(client.request('app:info', {})).rejects.toMatchObject({ message: expect.stringContaining('#token=') });
    expect(test.host.connectionCount()).toBe(0);
  });

  it('without a way to check its token, keeps retrying, and never opens, with a token from an earlier run', async () => {
    const test = await setUp();
    const { client, states } = clientFor(test.host, { token: 'B'.repeat(43) });
    await expect.poll(() => states.filter((state) => state.status === 'reconnecting').length).toBeGreaterThanOrEqual(2);
    expect(states.some((state) => state.status === 'open')).toBe(false);
    expect(test.host.connectionCount()).toBe(0);
    client.close();
    expect(client.connection()).toEqual({ status: 'closed' });
  });
});

describe('socketClient after tether serve restarts', () => {
  const checker = (host: ServeHost) => (token: string) => checkServeToken(host.origin, token);

  it('says the server no longer takes its token, stops retrying, and fails what waits with what to do', async () => {
    const test = await setUp();
    const { client, states } = clientFor(test.host, { token: 'B'.repeat(43), checkToken: checker(test.host), queueTimeoutMs: 10_000 });
    const waiting = client.request('app:info', {}).catch((reason: unknown) => reason);
    await until(client, 'tokenRefused');
    expect(await waiting).toMatchObject({ code: 'failed', message: expect.stringContaining('tether serve restarted') });
    await expect(client.request('app:info', {})).rejects.toMatchObject({ message: expect.stringContaining('Paste the new address') });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(states.map((state) => state.status)).toEqual(['connecting', 'tokenRefused']);
    expect(test.calls).toEqual([]);
  });

  it('takes the new token, connects, and tells the store to catch up even though it never opened before', async () => {
    const test = await setUp();
    const { client } = clientFor(test.host, { token: 'B'.repeat(43), checkToken: checker(test.host) });
    let reconnects = 0;
    client.onReconnect(() => (reconnects += 1));
    await until(client, 'tokenRefused');
    client.useToken(test.host.token);
    await until(client, 'open');
    expect(reconnects).toBe(1);
    expect(await client.request('app:info', {})).toEqual(sampleOutputs['app:info']);
  });

  it('tells a server restarted on the same port (a new token) from one that is down (retried)', async () => {
    const first = await setUp();
    const { port, origin } = first.host;
    const { client, states } = clientFor(first.host, { checkToken: (token) => checkServeToken(origin, token) });
    await until(client, 'open');
    await first.host.close();
    await expect.poll(() => states.filter((state) => state.status === 'reconnecting').length).toBeGreaterThanOrEqual(3);
    expect(client.connection().status).not.toBe('tokenRefused');

    const second = await setUp({ port });
    expect(second.host.token).not.toBe(first.host.token);
    await until(client, 'tokenRefused');
    client.useToken(second.host.token);
    await until(client, 'open');
    expect(second.host.connectionCount()).toBe(1);
  });

  it('is not fooled by a busy server: a good token refused for another reason is retried', async () => {
    const test = await setUp({ limits: { maxConnections: 0 } });
    const { client, states } = clientFor(test.host, { checkToken: checker(test.host) });
    await expect.poll(() => states.filter((state) => state.status === 'reconnecting').length).toBeGreaterThanOrEqual(2);
    expect(states.some((state) => state.status === 'tokenRefused')).toBe(false);
    client.close();
  });
});

import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServices, AppServicesOptions } from '../../src/main/app/appServices';
import { serveCommand, type ServeCommandDeps } from '../../src/main/cli/serveCommand';
import { removeTempDirs, tempDir } from '../support/tempDirs';
import { recordingHandlers, sampleOutputs } from '../host/contractSamples';
import { call, rawGet, rendererFixture } from '../host/serveHelpers';
import { WebSocket } from 'ws';

afterEach(() => removeTempDirs());

function setUp() {
  const created: AppServicesOptions[] = [];
  let closed = 0;
  let unsubscribed = 0;
  const out: string[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  const exits: number[] = [];
  const deps: ServeCommandDeps = {
    createAppServices(options): AppServices {
      created.push(options);
      return {
        handlers: recordingHandlers().handlers,
        subscribe: () => () => void (unsubscribed += 1),
        close: () => void (closed += 1),
      };
    },
    rendererDir: rendererFixture(),
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    signals: signals as unknown as ServeCommandDeps['signals'],
    exit: (code) => void exits.push(code),
  };
  return { deps, created, out, err, signals, exits, closed: () => closed, unsubscribed: () => unsubscribed };
}

async function printedUrl(out: string[]): Promise<URL> {
  await expect.poll(() => out.join('')).toMatch(/\n/);
  return new URL(out.join('').trim());
}

describe('tether serve', () => {
  it('prints the address, serves the contract, and stops cleanly on SIGINT', async () => {
    const test = setUp();
    const cwd = tempDir('tether-cwd-');
    const dataDir = tempDir('tether-data-');
    const running = serveCommand(['--cwd', cwd, '--data-dir', dataDir], test.deps);
    const url = await printedUrl(test.out);

    expect(url.hostname).toBe('127.0.0.1');
    expect(url.hash).toMatch(/^#token=[A-Za-z0-9_-]{43}$/);
    expect(test.created).toEqual([{ dataDir, host: 'serve', cwd }]);

    const socket = new WebSocket(`ws://${url.host}/ws`, ['tether.v1', `tether.token.${url.hash.slice('#token='.length)}`], {
      origin: url.origin,
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    expect(await call(socket, 1, 'app:info', {})).toEqual({ id: 1, ok: true, output: sampleOutputs['app:info'] });

    test.signals.emit('SIGINT');
    expect(await running).toBe(0);
    expect([test.closed(), test.unsubscribed()]).toEqual([1, 1]);
    expect(socket.readyState).toBeGreaterThanOrEqual(WebSocket.CLOSING);
    await expect(rawGet(Number(url.port), '/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(test.signals.listenerCount('SIGINT') + test.signals.listenerCount('SIGTERM')).toBe(0);
    expect(test.exits).toEqual([]);
  });

  it('stops on SIGTERM as well, on the port it was given', async () => {
    const test = setUp();
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));

    const running = serveCommand(['--port', String(port), '--cwd', tempDir()], test.deps);
    expect((await printedUrl(test.out)).port).toBe(String(port));
    test.signals.emit('SIGTERM');
    expect(await running).toBe(0);
    expect(test.closed()).toBe(1);
  });

  it('says which port is taken, and closes what it opened', async () => {
    const test = setUp();
    const busy = createServer();
    const port = await new Promise<number>((resolve) =>
      busy.listen(0, '127.0.0.1', () => resolve((busy.address() as { port: number }).port)),
    );
    try {
      await expect(serveCommand(['--port', String(port), '--cwd', tempDir()], test.deps)).rejects.toMatchObject({
        name: 'CliError',
        message: `Port ${port} on 127.0.0.1 is in use; pick another with --port, or --port 0 for any free one.`,
      });
      expect(test.closed()).toBe(1);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('comes back on the port of its last run, so a tab left open finds it; on any free one when that is taken', async () => {
    const dataDir = tempDir('tether-data-');
    const run = async (args: string[] = []) => {
      const test = setUp();
      const running = serveCommand(['--cwd', tempDir(), '--data-dir', dataDir, ...args], test.deps);
      const url = await printedUrl(test.out);
      return {
        url,
        stop: async () => {
          test.signals.emit('SIGINT');
          expect(await running).toBe(0);
        },
      };
    };
    const first = await run();
    await first.stop();
    const second = await run();
    expect(second.url.port).toBe(first.url.port);
    // The same address, a new token: the old tab is told its token no longer holds.
    expect(second.url.hash).not.toBe(first.url.hash);

    // Still taken (another tether serve on the same data folder): any free port, and that one is remembered.
    const third = await run();
    expect(third.url.port).not.toBe(first.url.port);
    await second.stop();
    await third.stop();
    const fourth = await run();
    expect(fourth.url.port).toBe(third.url.port);
    await fourth.stop();

    // A port given with --port is the person's choice for that run, not remembered for the next.
    const probe = createServer();
    const chosen = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const pinned = await run(['--port', String(chosen)]);
    await pinned.stop();
    const fifth = await run();
    expect(fifth.url.port).toBe(third.url.port);
    await fifth.stop();
  });

  it('refuses a bad port, a missing folder and an unbuilt UI before starting anything', async () => {
    const test = setUp();
    await expect(serveCommand(['--port', 'eighty'], test.deps)).rejects.toThrow('--port must be a number from 0 to 65535');
    await expect(serveCommand(['--port', '70000'], test.deps)).rejects.toThrow('--port must be a number');
    await expect(serveCommand(['--cwd', '/no/such/folder'], test.deps)).rejects.toThrow('--cwd /no/such/folder is not a folder');
    await expect(serveCommand(['--cwd', tempDir()], { ...test.deps, rendererDir: tempDir() })).rejects.toThrow(
      /The browser UI is not built: .*index\.html is missing\. Run `npm run build`/,
    );
    expect(test.created).toEqual([]);
  });
});

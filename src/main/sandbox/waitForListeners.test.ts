import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForListeners } from './sandboxRuntime';

// The wait runs as it does inside the sandbox, in bash against /proc/net/tcp, here on the host's own
// network namespace with a real listener that comes up late.

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function listenLater(port: number, delayMs: number): void {
  setTimeout(() => {
    const server = net.createServer((socket) => socket.end());
    servers.push(server);
    server.listen(port, '127.0.0.1');
  }, delayMs);
}

async function runBash(script: string, env: Record<string, string>): Promise<{ output: string; ms: number }> {
  const started = Date.now();
  const child = spawn('bash', ['-c', script], { env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  return { output, ms: Date.now() - started };
}

describe('waitForListeners (the sandbox command waits for its proxy bridges)', () => {
  it('holds the command until the listener is up, then it connects at once', async () => {
    const port = await freePort();
    listenLater(port, 400);
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;
    const { output, ms } = await runBash(`${waitForListeners([port], 'FAKE_PROXY')}; ${connect}`, {
      FAKE_PROXY: `http://u:t@localhost:${port}`,
    });
    expect(output.trim()).toBe('connected');
    expect(ms).toBeGreaterThanOrEqual(350);
  });

  it('gives up after about two seconds when nothing comes, and runs the command anyway', async () => {
    const port = await freePort();
    const { output, ms } = await runBash(`${waitForListeners([port], 'FAKE_PROXY')}; echo ran; echo "[$_tether_tcp]"`, {
      FAKE_PROXY: `http://localhost:${port}`,
    });
    expect(output.trim().split('\n')).toEqual(['ran', '[]']);
    expect(ms).toBeGreaterThanOrEqual(1500);
    expect(ms).toBeLessThan(6000);
  });

  it('does not wait when the proxy is not the bridge (no network fence)', async () => {
    const port = await freePort();
    const { output, ms } = await runBash(`${waitForListeners([port], 'FAKE_PROXY')}; echo ran`, { FAKE_PROXY: 'http://proxy.corp:8080' });
    expect(output.trim()).toBe('ran');
    expect(ms).toBeLessThan(1000);
  });
});

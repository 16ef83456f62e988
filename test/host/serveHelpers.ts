import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { WebSocket } from 'ws';
import type { EmitEvent } from '../../src/main/app/appServices';
import { startServeHost, type ServeHost, type ServeHostOptions } from '../../src/main/host/serve';
import { WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../src/shared/hostProtocol';
import { tempDir } from '../support/tempDirs';
import { recordingHandlers } from './contractSamples';

export const SECRET = 'outside-the-renderer-secret';

/** A built renderer in a temp folder, beside a secret file it must never serve. */
export function rendererFixture(): string {
  const root = tempDir('tether-serve-');
  const dir = path.join(root, 'renderer');
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Tether</title><script type="module" src="./assets/index-abc123.js"></script>',
  );
  writeFileSync(path.join(dir, 'assets/index-abc123.js'), 'console.log("tether");');
  writeFileSync(path.join(dir, 'assets/index-abc123.css'), 'body{}');
  writeFileSync(path.join(dir, 'assets/codicon.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  writeFileSync(path.join(dir, '.env'), SECRET);
  writeFileSync(path.join(root, 'secret.txt'), SECRET);
  symlinkSync(path.join(root, 'secret.txt'), path.join(dir, 'assets/linked.txt'));
  return dir;
}

export interface TestHost {
  host: ServeHost;
  emit: EmitEvent;
  calls: ReturnType<typeof recordingHandlers>['calls'];
  logged: string[];
  unsubscribed: () => boolean;
}

export async function startTestHost(
  options: Partial<ServeHostOptions> & { overrides?: Parameters<typeof recordingHandlers>[0] } = {},
): Promise<TestHost> {
  const { handlers, calls } = recordingHandlers(options.overrides);
  let emit: EmitEvent | undefined;
  let unsubscribed = false;
  const logged: string[] = [];
  const host = await startServeHost({
    handlers,
    rendererDir: rendererFixture(),
    subscribe(next) {
      emit = next;
      return () => {
        unsubscribed = true;
      };
    },
    log: (message) => logged.push(message),
    ...options,
  });
  return { host, emit: emit!, calls, logged, unsubscribed: () => unsubscribed };
}

export interface ConnectOptions {
  token?: string | null;
  origin?: string | null;
  path?: string;
}

/** A `ws` client as a browser tab would connect; rejects with the HTTP status of a refusal. */
export function connect(host: ServeHost, options: ConnectOptions = {}): Promise<WebSocket> {
  const token = options.token === undefined ? host.token : options.token;
  const protocols = token === null ? [WS_PROTOCOL] : [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${token}`];
  const origin = options.origin === undefined ? host.origin : options.origin;
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}${options.path ?? '/ws'}`, protocols, origin === null ? {} : { origin });
  // Tests send many requests at once, each waiting for its answer on its own listener.
  socket.setMaxListeners(100);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      reject(Object.assign(new Error(`refused with ${response.statusCode}`), { status: response.statusCode }));
      response.resume();
    });
    socket.once('error', reject);
  });
}

/** Sends one request frame and resolves with the frame that answers it. */
export function call(socket: WebSocket, id: number, name: string, input: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, name, input }));
  });
}

export function nextClose(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
}

export function nextEvent(socket: WebSocket): Promise<unknown> {
  return new Promise((resolve) => socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8')))));
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET with the path sent exactly as written (no normalisation), as an attacker would send it. */
export function rawGet(port: number, rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: rawPath, method, headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** rawGet's bytes, for a body that is compressed. */
export function rawGetBytes(
  port: number,
  rawPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: rawPath, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  DESK_MAX_FRAME_BYTES,
  DESK_PROTOCOL_HEADER,
  DESK_PROTOCOL_VERSION,
  DESK_RUNNER_PATH,
  type DeskRefusal,
} from '../../../shared/deskProtocol';
import type { DeskListen } from '../../../shared/remoteRuns';
import type { Desk, RunnerLink } from './desk';
import type { DeskCertificate } from './deskCertificate';
import type { TokenCheck } from './runnerTokens';

/**
 * Where runners connect: one WebSocket path on its own port, apart from the UI's server, so a runner's
 * token opens nothing of the UI's and the UI's opens nothing of this. Plain on loopback (reach it
 * through an SSH tunnel); any other address only with TLS, the desk's self-signed certificate pinned
 * by the runner. A runner is authenticated before the upgrade: its token (`Authorization: Bearer`)
 * and its protocol version; a refusal is an HTTP answer whose JSON body says why, so the runner can
 * stop with one clear line.
 */

export interface DeskListenerOptions {
  desk: Desk;
  listen: DeskListen;
  /** Needed for any address but loopback. */
  tls?: DeskCertificate;
  checkToken(token: string | undefined): TokenCheck;
  /** Whether a token was revoked since its connection opened (by the CLI, in another process): checked with each heartbeat. */
  revoked?(tokenId: string): boolean;
  /** Runner connections open at once; one more is refused with 503. */
  maxConnections?: number;
  /** How often a connection is pinged; one that missed the previous ping is dropped. */
  heartbeatMs?: number;
  log?(message: string, error?: unknown): void;
}

export interface DeskListener {
  /** What a runner's `--desk` takes: `ws://127.0.0.1:7717` or `wss://host:7717`. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Whether `host` is this machine's loopback, where a plain connection stays on the machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export async function startDeskListener(options: DeskListenerOptions): Promise<DeskListener> {
  const { desk, listen } = options;
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`tether desk: ${message}`, error ?? ''));
  if (!isLoopback(listen.host) && !options.tls) {
    throw new Error(`The desk listens on ${listen.host} only with TLS; a plain connection there would carry runner tokens in the clear.`);
  }
  const maxConnections = options.maxConnections ?? 256;
  const refuseHttp = (_request: IncomingMessage, response: import('node:http').ServerResponse): void => {
    response.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', Upgrade: 'websocket' });
    response.end('This is a Tether desk: runners connect to it with tether run --desk <this address>.\n');
  };
  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, refuseHttp)
    : createHttpServer(refuseHttp);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const wss = new WebSocketServer({ noServer: true, maxPayload: DESK_MAX_FRAME_BYTES, perMessageDeflate: false, clientTracking: false });
  const sockets = new Set<{ socket: WebSocket; alive: boolean; tokenId: string; link: RunnerLink }>();

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const pathname = new URL(request.url ?? '/', 'http://desk').pathname;
    if (pathname !== DESK_RUNNER_PATH)
      return refuse(socket, 404, { code: 'closed', message: `No runner connections here; connect to ${DESK_RUNNER_PATH}.` });
    const said = headerOf(request, DESK_PROTOCOL_HEADER);
    if (Number(said) !== DESK_PROTOCOL_VERSION) {
      const spoken = said === undefined ? 'none it named' : JSON.stringify(said.slice(0, 20));
      return refuse(socket, 426, {
        code: 'protocol',
        message: `This desk speaks desk protocol ${DESK_PROTOCOL_VERSION}; the runner speaks ${spoken}. Run the same Tether version at the desk and on the runner.`,
      });
    }
    const auth = headerOf(request, 'authorization');
    const token = auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length).trim() : undefined;
    const check = options.checkToken(token);
    if (!check.ok) return refuse(socket, 401, { code: check.code, message: check.message });
    if (sockets.size >= maxConnections) {
      return refuse(socket, 503, {
        code: 'busy',
        message: `The desk has ${maxConnections} runner connections open, its most; try again later.`,
      });
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, check.runner, check.tokenId));
  });

  function accept(socket: WebSocket, runner: string, tokenId: string): void {
    const link: RunnerLink = {
      runner,
      send(message) {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
      },
      close(reason, final = false) {
        // 4000s are the application's: 4001 tells the runner not to come back with this token.
        socket.close(final ? 4001 : 1012, reason.slice(0, 120));
      },
    };
    const entry = { socket, alive: true, tokenId, link };
    sockets.add(entry);
    const connection = desk.attach(link);
    socket.on('pong', () => {
      entry.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return link.close('Send JSON text frames.', true);
      let message: unknown;
      try {
        message = JSON.parse(textOf(data));
      } catch {
        link.send({ type: 'refused', code: 'bad_message', message: 'Frames must be JSON.' });
        return link.close('Frames must be JSON.', true);
      }
      connection.receive(message);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(entry);
      connection.closed();
    });
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE')
        reject(new Error(`Port ${listen.port} on ${listen.host} is in use; pick another port for remote runs.`));
      else if (error.code === 'EADDRNOTAVAIL') reject(new Error(`${listen.host} is not an address of this machine; pick one it has.`));
      else if (error.code === 'EACCES') reject(new Error(`Not allowed to listen on port ${listen.port}; pick a port above 1023.`));
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(listen.port, listen.host);
  });
  server.on('error', (error) => log('the runner listener failed', error));

  const heartbeat = setInterval(() => {
    for (const entry of sockets) {
      if (options.revoked?.(entry.tokenId)) {
        entry.link.send({
          type: 'refused',
          code: 'revoked_token',
          message: `The token of runner ${entry.link.runner} was revoked at the desk.`,
        });
        entry.link.close('token revoked', true);
        continue;
      }
      if (!entry.alive) {
        entry.socket.terminate();
        continue;
      }
      entry.alive = false;
      entry.socket.ping();
    }
  }, options.heartbeatMs ?? 20_000);
  heartbeat.unref();

  const port = (server.address() as AddressInfo).port;
  const shownHost = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  let closing: Promise<void> | undefined;
  return {
    url: `${options.tls ? 'wss' : 'ws'}://${shownHost}:${port}`,
    port,
    close() {
      closing ??= (async () => {
        clearInterval(heartbeat);
        desk.closeAll('The desk stopped.');
        for (const entry of sockets) entry.socket.terminate();
        wss.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

function refuse(socket: Duplex, status: number, refusal: DeskRefusal): void {
  const reasons: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found', 426: 'Upgrade Required', 503: 'Service Unavailable' };
  const body = JSON.stringify(refusal);
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status] ?? 'Refused'}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Handlers, Unsubscribe } from '../../shared/contract';
import {
  TOKEN_CHECK_PATH,
  WireRequest,
  WS_MAX_FRAME_BYTES,
  WS_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
  type Reply,
} from '../../shared/hostProtocol';
import type { EmitEvent } from '../app/appServices';
import { checkedEvent } from './checkedEvent';
import { contentSecurityPolicy } from './contentSecurityPolicy';
import { createDispatcher } from './dispatch';
import { plain, staticFiles } from './staticFiles';

/**
 * `tether serve`: the contract over a WebSocket, and the built UI over HTTP, on 127.0.0.1 only.
 * Whoever can reach the port is not trusted by that alone: a WebSocket needs the per-run token
 * and must come from the page this server itself served (its exact origin), so another site open
 * in the same browser, or a DNS-rebinding page, gets a 403 before any upgrade.
 */

export interface ServeLimits {
  /** The largest frame read from a client; a bigger one closes that connection (1009). */
  maxFrameBytes: number;
  /** Open WebSocket connections at once; one more is refused with 503. */
  maxConnections: number;
  /** Requests one connection may have unanswered at once. */
  maxInFlight: number;
  /** Bytes queued for a client that does not read; past this it is dropped and resyncs on reconnect. */
  maxBufferedBytes: number;
  /**
   * The largest frame sent to a client, well under `maxBufferedBytes`: one bigger would fill the
   * queue on its own, drop the connection, and meet the client again after it reconnects. An answer
   * over it is refused with a clear error instead, and an event over it is not sent (the client
   * finds the gap and asks for the events, whose answers are paged).
   */
  maxSentBytes: number;
  /** How often a connection is pinged; one that missed the previous ping is dropped. */
  heartbeatMs: number;
}

export interface ServeHostOptions {
  handlers: Handlers;
  /** Called once the server listens; the returned function is called on close. */
  subscribe(emit: EmitEvent): Unsubscribe;
  /** The built renderer: index.html and its assets (out/renderer). */
  rendererDir: string;
  /** 0 (the default) picks any free port. */
  port?: number;
  host?: '127.0.0.1';
  limits?: Partial<ServeLimits>;
  /** Handler bugs, unexpected failures and dropped events, in full. */
  log?(message: string, error?: unknown): void;
}

export interface ServeHost {
  /** What to open in a browser; the token rides in the fragment, so it never reaches a log or a Referer. */
  readonly url: string;
  /** `http://127.0.0.1:<port>`: the one origin allowed to connect. */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  connectionCount(): number;
  /** Drops every WebSocket connection; the clients reconnect and resync. */
  disconnectAll(reason?: string): void;
  close(): Promise<void>;
}

const defaultLimits: ServeLimits = {
  maxFrameBytes: WS_MAX_FRAME_BYTES,
  maxConnections: 32,
  maxInFlight: 64,
  maxBufferedBytes: 16 * 1024 * 1024,
  maxSentBytes: 8 * 1024 * 1024,
  heartbeatMs: 30_000,
};

interface Client {
  socket: WebSocket;
  inFlight: number;
  alive: boolean;
}

export async function startServeHost(options: ServeHostOptions): Promise<ServeHost> {
  const limits = { ...defaultLimits, ...options.limits };
  const address = options.host ?? '127.0.0.1';
  const log = options.log ?? ((message: string, error?: unknown) => console.error(`tether serve: ${message}`, error ?? ''));
  const serveFile = staticFiles(options.rendererDir);
  const token = randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  // Every WebSocket connection proved itself before it was upgraded, so each call is trusted.
  const dispatch = createDispatcher<Client>({ handlers: options.handlers, isTrustedSender: () => true, log });
  const clients = new Set<Client>();

  // Filled in once the port is known; nothing is served before then.
  let origin = '';
  let hostHeader = '';
  let headers: Record<string, string> = {};

  const server = createServer((request, response) => {
    void handleHttp(request, response).catch((error: unknown) => {
      log(`could not answer ${request.method} ${request.url}`, error);
      if (!response.headersSent) plain(response, 500, 'tether serve failed to answer; its terminal has the details.', headers);
      else response.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.headers.host !== hostHeader) {
      return plain(response, 403, `This server answers only at ${origin}/; open the address tether serve printed.`, headers);
    }
    const pathname = new URL(request.url ?? '/', origin).pathname;
    if (pathname === WS_PATH)
      return plain(response, 426, 'This address takes WebSocket connections only.', { ...headers, Upgrade: 'websocket' });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(response, 405, `${request.method} is not served here; only GET and HEAD.`, { ...headers, Allow: 'GET, HEAD' });
    }
    if (pathname === TOKEN_CHECK_PATH) return answerTokenCheck(request, response);
    await serveFile(pathname, request, response, headers);
  }

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxFrameBytes,
    perMessageDeflate: false,
    clientTracking: false,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const refusal = refuseUpgrade(request);
    if (refusal) {
      writeRefusal(socket, refusal.status, refusal.message);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws));
  });

  function refuseUpgrade(request: IncomingMessage): { status: number; message: string } | null {
    const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (pathname !== WS_PATH) return { status: 404, message: `No WebSocket here; connect to ${WS_PATH}.` };
    if (request.headers.host !== hostHeader) return { status: 403, message: `Connect to ${origin}${WS_PATH}.` };
    if (request.headers.origin !== origin) {
      return {
        status: 403,
        message: `Refused a connection from origin ${request.headers.origin ?? '(none)'}; only ${origin} may connect.`,
      };
    }
    const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((protocol) => protocol.trim());
    const presented = offered.find((protocol) => protocol.startsWith(WS_TOKEN_PROTOCOL_PREFIX))?.slice(WS_TOKEN_PROTOCOL_PREFIX.length);
    if (!offered.includes(WS_PROTOCOL) || presented === undefined || !sameToken(presented)) {
      return { status: 403, message: 'Refused: missing or wrong token. Open the address tether serve printed (it ends in #token=...).' };
    }
    if (clients.size >= limits.maxConnections) {
      return { status: 503, message: `Too many connections (${limits.maxConnections}); close other Tether tabs and reload.` };
    }
    return null;
  }

  /**
   * Whether the page's token holds, so a page refused a WebSocket can tell a restarted server (a new
   * token) from a dropped network. It says nothing else: the token travels in a header a page of
   * another origin cannot send (no preflight is answered) and the answer carries no CORS header.
   */
  function answerTokenCheck(request: IncomingMessage, response: ServerResponse): void {
    const presented = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const noStore = { ...headers, 'Cache-Control': 'no-store' };
    if (presented !== undefined && sameToken(presented)) {
      response.writeHead(204, noStore);
      response.end();
      return;
    }
    plain(response, 401, 'This token is not the one tether serve printed this run; open the address it printed.', noStore);
  }

  function sameToken(presented: string): boolean {
    const bytes = Buffer.from(presented);
    return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes);
  }

  function accept(socket: WebSocket): void {
    const client: Client = { socket, inFlight: 0, alive: true };
    clients.add(client);
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        socket.close(1003, 'Send JSON text frames.');
        return;
      }
      void handleFrame(client, textOf(data));
    });
    // A frame over maxPayload or a protocol error; ws closes the socket itself.
    socket.on('error', () => {});
    socket.on('close', () => clients.delete(client));
  }

  async function handleFrame(client: Client, text: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      client.socket.close(1007, 'Frames must be JSON.');
      return;
    }
    const request = WireRequest.safeParse(message);
    if (!request.success) {
      client.socket.close(1008, 'Expected {id, name, input}.');
      return;
    }
    const { id, name, input } = request.data;
    if (client.inFlight >= limits.maxInFlight) {
      reply(client, id, {
        ok: false,
        error: { code: 'failed', message: `Too many requests at once (${limits.maxInFlight} unanswered); wait for some to finish.` },
      });
      return;
    }
    client.inFlight += 1;
    try {
      reply(client, id, await dispatch(client, name, input), name);
    } finally {
      client.inFlight -= 1;
    }
  }

  function reply(client: Client, id: number, answer: Reply, name = 'the request'): void {
    let frame: string;
    try {
      frame = JSON.stringify({ id, ...answer });
    } catch (error) {
      log(`could not serialize the answer to request ${id}`, error);
      frame = JSON.stringify({
        id,
        ok: false,
        error: { code: 'failed', message: 'The answer could not be sent (a bug in Tether); its terminal has the details.' },
      });
    }
    const bytes = frameBytes(frame, limits.maxSentBytes);
    if (bytes > limits.maxSentBytes) {
      log(`refused to send the ${megabytes(bytes)} answer to ${name}: over the ${megabytes(limits.maxSentBytes)} a frame may carry`);
      frame = JSON.stringify({
        id,
        ok: false,
        error: {
          code: 'failed',
          message: `The answer to ${name} is ${megabytes(bytes)}, more than the ${megabytes(limits.maxSentBytes)} one answer may carry, so it was not sent; ask for less at once.`,
        },
      });
    }
    send(client, frame);
  }

  function send(client: Client, frame: string): void {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    if (client.socket.bufferedAmount > limits.maxBufferedBytes) {
      // A tab that stopped reading (asleep, or stuck) would grow this queue without end.
      client.socket.terminate();
      return;
    }
    client.socket.send(frame);
  }

  const emit: EmitEvent = (name, payload) => {
    const event = checkedEvent(name, payload, log);
    if (!event) return;
    const frame = JSON.stringify(event);
    const bytes = frameBytes(frame, limits.maxSentBytes);
    if (bytes > limits.maxSentBytes) {
      // Sent, it would drop every connection; the clients find the gap and ask for it in a page (or are told it is too large).
      log(`did not send a ${megabytes(bytes)} ${name} event: over the ${megabytes(limits.maxSentBytes)} a frame may carry`);
      return;
    }
    for (const client of clients) send(client, frame);
  };

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        reject(
          Object.assign(
            new Error(`Port ${options.port} on ${address} is in use; pick another with --port, or --port 0 for any free one.`),
            { code: error.code },
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(
          Object.assign(new Error(`Not allowed to listen on port ${options.port} of ${address}; pick a port above 1023.`), {
            code: error.code,
          }),
        );
      } else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options.port ?? 0, address);
  });
  server.on('error', (error) => log('the HTTP server failed', error));

  const port = (server.address() as AddressInfo).port;
  hostHeader = `${address}:${port}`;
  origin = `http://${hostHeader}`;
  headers = securityHeaders(contentSecurityPolicy({ connectSrc: [`ws://${hostHeader}`] }));

  const heartbeat = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }, limits.heartbeatMs);
  heartbeat.unref();

  const unsubscribe = options.subscribe(emit);
  let closing: Promise<void> | undefined;

  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    connectionCount: () => clients.size,
    disconnectAll(reason = 'Disconnected by tether serve.') {
      for (const client of clients) client.socket.close(1012, reason);
    },
    close() {
      closing ??= (async () => {
        unsubscribe();
        clearInterval(heartbeat);
        const closed = [...clients].map(
          (client) =>
            new Promise<void>((resolve) => {
              client.socket.once('close', () => resolve());
              client.socket.close(1001, 'tether serve stopped.');
            }),
        );
        // A client that never answers the close handshake must not hold the shutdown up.
        const grace = new Promise<void>((resolve) => setTimeout(resolve, 1000).unref());
        await Promise.race([Promise.all(closed), grace]);
        for (const client of clients) client.socket.terminate();
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

function securityHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=()',
  };
}

function writeRefusal(socket: Duplex, status: number, message: string): void {
  const reasons: Record<number, string> = { 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' };
  const reason = reasons[status] ?? 'Refused';
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** The frame's size in UTF-8 bytes, counted only when its length says it could be over `limit`. */
function frameBytes(frame: string, limit: number): number {
  return frame.length * 3 <= limit ? frame.length : Buffer.byteLength(frame, 'utf8');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

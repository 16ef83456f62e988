import type { EventName, EventPayload, Input, Output, RequestName, Unsubscribe } from '../../../../shared/contract';
import {
  isEventName,
  isRequestName,
  ServerMessage,
  WS_MAX_FRAME_BYTES,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
} from '../../../../shared/hostProtocol';
import { RequestError } from '../../../../shared/requestError';
import type { ConnectionState, TetherClient } from './tetherClient';
import type { TokenCheck } from './tokenCheck';

/**
 * The contract over `tether serve`'s WebSocket, for a browser tab. It reconnects with backoff after
 * a drop; a request made while disconnected waits (up to `queueTimeoutMs`) and goes out on
 * reconnect. A request already sent when the link dropped is not sent again: it may have run, so
 * it fails and says so (a second `session:start` would start a second session).
 *
 * A browser does not say why a WebSocket was refused, so when one closes before it opened the
 * client asks the server (`checkToken`) whether its token still holds. A server that answers and
 * refuses it restarted with a new token: retrying cannot help, so the client stops and says so
 * until the page hands it the new token (`useToken`, from the address the person pastes).
 */

/**
 * The part of a WebSocket this client uses: the browser's, or the `ws` package's under Node.
 * Handlers take `never` so either's event types fit; each is called with the usual event fields.
 */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: never) => void) | null;
  onmessage: ((event: never) => void) | null;
  onclose: ((event: never) => void) | null;
  onerror: ((event: never) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketConstructor = new (url: string, protocols: string[]) => SocketLike;

export interface SocketClientOptions {
  /** ws://host:port/ws */
  url: string;
  /** The per-run token `tether serve` printed; null when the page has none. */
  token: string | null;
  WebSocket: SocketConstructor;
  /** How long a request waits for a connection before it fails. */
  queueTimeoutMs?: number;
  /** The first retry's delay, doubled after each failure up to `maxRetryMs`. */
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** For the retry jitter; tests pin it. */
  random?: () => number;
  /** Asks the server whether a token still holds; without it, a refused connection is retried like a drop. */
  checkToken?: (token: string) => Promise<TokenCheck>;
}

export interface SocketClient extends TetherClient {
  /** Connects with another token (the page was given the address of a restarted server); the old link is dropped. */
  useToken(token: string): void;
  /** Closes the connection for good; waiting requests fail. */
  close(): void;
}

const OPEN = 1;

interface Waiting {
  name: RequestName;
  resolve(output: unknown): void;
  reject(error: RequestError): void;
}

interface Queued extends Waiting {
  id: number;
  frame: string;
  timer: ReturnType<typeof setTimeout>;
}

export function createSocketClient({
  url,
  token: firstToken,
  WebSocket,
  queueTimeoutMs = 20_000,
  firstRetryMs = 250,
  maxRetryMs = 10_000,
  random = Math.random,
  checkToken,
}: SocketClientOptions): SocketClient {
  let token = firstToken;
  const sent = new Map<number, Waiting>();
  const queue: Queued[] = [];
  const eventListeners = new Map<EventName, Set<(payload: never) => void>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  const reconnectListeners = new Set<() => void>();
  let state: ConnectionState = token === null ? { status: 'unauthenticated' } : { status: 'connecting' };
  let socket: SocketLike | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failedAttempts = 0;
  let hasOpened = false;
  /** The page took a new token since the last open: what it loaded before may have failed. */
  let tokenChanged = false;
  let nextId = 1;

  function setState(next: ConnectionState): void {
    state = next;
    for (const listener of [...connectionListeners]) safely(() => listener(next), 'a connection listener');
  }

  function connect(): void {
    if (token === null || state.status === 'closed' || state.status === 'tokenRefused') return;
    if (state.status !== 'connecting') setState({ status: 'connecting' });
    const presented = token;
    let current: SocketLike;
    try {
      current = new WebSocket(url, [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${presented}`]);
    } catch (error) {
      console.error('tether: could not open a WebSocket', error);
      retry();
      return;
    }
    socket = current;
    let opened = false;
    current.onopen = () => {
      if (socket !== current) return;
      opened = true;
      const reconnected = hasOpened || tokenChanged;
      hasOpened = true;
      tokenChanged = false;
      failedAttempts = 0;
      setState({ status: 'open' });
      for (const request of queue.splice(0)) {
        clearTimeout(request.timer);
        transmit(current, request.id, request, request.frame);
      }
      if (reconnected) for (const listener of [...reconnectListeners]) safely(listener, 'a reconnect listener');
    };
    current.onmessage = (event: { data: unknown }) => {
      if (socket === current) receive(event.data);
    };
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      failSent();
      if (opened || !checkToken) {
        retry();
        return;
      }
      // Refused before it opened: a server that is down, busy, or that no longer takes this token.
      void checkToken(presented).then(
        (verdict) => {
          if (token !== presented || state.status === 'closed') return;
          if (verdict === 'refused') refuseToken();
          else retry();
        },
        () => retry(),
      );
    };
    // A failed connection is followed by a close event, which does the retrying.
    current.onerror = () => {};
  }

  function failSent(): void {
    for (const [id, request] of sent) {
      sent.delete(id);
      request.reject(
        new RequestError(
          'failed',
          `The connection to tether serve dropped before it answered ${request.name}, so it may or may not have happened. Check, then try again if needed.`,
        ),
      );
    }
  }

  /** The server is up and refuses this token: it restarted. Nothing waits for a link that cannot come. */
  function refuseToken(): void {
    setState({ status: 'tokenRefused' });
    for (const request of queue.splice(0)) {
      clearTimeout(request.timer);
      request.reject(tokenRefusedError(request.name));
    }
  }

  function retry(): void {
    if (state.status === 'closed' || state.status === 'tokenRefused') return;
    failedAttempts += 1;
    const ceiling = Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(failedAttempts - 1, 16));
    // Jitter, so a restarted server is not met by every tab at the same instant.
    const retryInMs = Math.round(ceiling * (0.75 + 0.5 * random()));
    setState({ status: 'reconnecting', failedAttempts, retryInMs });
    retryTimer = setTimeout(connect, retryInMs);
  }

  function transmit(target: SocketLike, id: number, request: Waiting, frame: string): void {
    sent.set(id, request);
    try {
      target.send(frame);
    } catch {
      // The socket closed under us; its close handler fails this request with the others.
    }
  }

  function receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = ServerMessage.safeParse(message);
    if (!parsed.success) return;
    const frame = parsed.data;
    if ('event' in frame) {
      if (!isEventName(frame.event)) return;
      for (const listener of [...(eventListeners.get(frame.event) ?? [])]) {
        safely(() => (listener as (payload: unknown) => void)(frame.payload), `a listener of ${frame.event}`);
      }
      return;
    }
    const request = sent.get(frame.id);
    if (!request) return;
    sent.delete(frame.id);
    if (frame.ok) request.resolve(frame.output);
    else request.reject(new RequestError(frame.error.code, frame.error.message));
  }

  if (token !== null) connect();

  return {
    request<R extends RequestName>(name: R, input: Input<R>): Promise<Output<R>> {
      if (!isRequestName(name)) {
        return Promise.reject(
          new RequestError('invalid_input', `There is no request ${JSON.stringify(String(name))} in Tether's contract.`),
        );
      }
      if (state.status === 'unauthenticated') {
        return Promise.reject(
          new RequestError('failed', 'This page has no access token. Open the address tether serve printed (it ends in #token=...).'),
        );
      }
      if (state.status === 'closed')
        return Promise.reject(new RequestError('failed', `The connection to Tether was closed; reload the page to send ${name}.`));
      if (state.status === 'tokenRefused') return Promise.reject(tokenRefusedError(name));

      const id = nextId++;
      let frame: string;
      try {
        frame = JSON.stringify({ id, name, input });
      } catch (error) {
        return Promise.reject(new RequestError('invalid_input', `${name}: the input cannot be sent as JSON (${String(error)}).`));
      }
      if (frame.length > WS_MAX_FRAME_BYTES / 4 && new TextEncoder().encode(frame).length > WS_MAX_FRAME_BYTES) {
        return Promise.reject(
          new RequestError('invalid_input', `${name}: the input is larger than ${WS_MAX_FRAME_BYTES / 1024 / 1024} MB; send less at once.`),
        );
      }

      return new Promise<Output<R>>((resolve, reject) => {
        const request: Waiting = { name, resolve: resolve as (output: unknown) => void, reject };
        if (socket !== null && socket.readyState === OPEN && state.status === 'open') {
          transmit(socket, id, request, frame);
          return;
        }
        const timer = setTimeout(() => {
          const index = queue.findIndex((queued) => queued.id === id);
          if (index >= 0) queue.splice(index, 1);
          reject(
            new RequestError(
              'failed',
              `Not connected to tether serve for ${Math.round(queueTimeoutMs / 1000)} s, so ${name} was not sent. Check that tether serve is still running, then try again.`,
            ),
          );
        }, queueTimeoutMs);
        queue.push({ ...request, id, frame, timer });
      });
    },

    on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): Unsubscribe {
      if (!isEventName(name)) throw new Error(`There is no event ${JSON.stringify(String(name))} in Tether's contract.`);
      let listeners = eventListeners.get(name);
      if (!listeners) eventListeners.set(name, (listeners = new Set()));
      // Stored without its payload type: one map holds listeners of every event.
      const stored = listener as (payload: never) => void;
      listeners.add(stored);
      return () => {
        listeners.delete(stored);
      };
    },

    connection: () => state,

    useToken(next) {
      if (state.status === 'closed' || next === token) return;
      token = next;
      tokenChanged = true;
      failedAttempts = 0;
      clearTimeout(retryTimer);
      const old = socket;
      socket = null;
      failSent();
      old?.close(1000, 'the page took a new token');
      setState({ status: 'connecting' });
      connect();
    },

    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => {
        connectionListeners.delete(listener);
      };
    },

    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => {
        reconnectListeners.delete(listener);
      };
    },

    close() {
      if (state.status === 'closed') return;
      const wasOpen = socket;
      socket = null;
      clearTimeout(retryTimer);
      setState({ status: 'closed' });
      wasOpen?.close(1000, 'closed by the page');
      const closedError = () => new RequestError('failed', 'The connection to Tether was closed before the request was answered.');
      for (const request of queue.splice(0)) {
        clearTimeout(request.timer);
        request.reject(closedError());
      }
      for (const [id, request] of sent) {
        sent.delete(id);
        request.reject(closedError());
      }
    },
  };
}

function tokenRefusedError(name: string): RequestError {
  return new RequestError(
    'failed',
    `tether serve restarted, so this page's access token no longer works and ${name} was not sent. Paste the new address it printed into this tab.`,
  );
}

function safely(call: () => void, what: string): void {
  try {
    call();
  } catch (error) {
    console.error(`tether: ${what} threw`, error);
  }
}

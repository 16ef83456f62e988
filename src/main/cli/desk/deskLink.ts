import type { IncomingMessage } from 'node:http';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { WebSocket } from 'ws';
import {
  DESK_MAX_FRAME_BYTES,
  DESK_PROTOCOL_HEADER,
  DESK_PROTOCOL_VERSION,
  DESK_RUNNER_PATH,
  DeskMessage,
  DeskRefusal,
  type RunRegistration,
  type RunnerMessage,
} from '../../../shared/deskProtocol';

/**
 * A remote run's one connection to its desk: it opens it, proves who it is (the token in
 * `Authorization`, never in the address), registers the run, and keeps it open: when the desk goes
 * away it reconnects, backing off, and registers again, for as long as the run lasts. A refusal that
 * another try cannot change (a bad or revoked token, another protocol version, a certificate that is
 * not the pinned one) ends it for good, with the kind of failure the CLI turns into an exit code.
 */

export type DeskFailureKind = 'usage' | 'unreachable' | 'bad_token' | 'revoked_token' | 'protocol' | 'fingerprint' | 'refused';

/** How `tether run --desk` ends when the desk cannot be used: each failure its own exit status (README, "Using the command line"). */
export const DESK_EXIT_CODES: Record<DeskFailureKind, number> = {
  usage: 1,
  unreachable: 10,
  bad_token: 11,
  revoked_token: 12,
  fingerprint: 13,
  protocol: 14,
  refused: 15,
};

export class DeskFailure extends Error {
  override readonly name = 'DeskFailure';
  constructor(
    readonly kind: DeskFailureKind,
    message: string,
  ) {
    super(message);
  }
}

export interface DeskLinkOptions {
  /** `ws://127.0.0.1:7717` (loopback, or an SSH tunnel to the desk) or `wss://host:7717`. */
  url: string;
  token: string;
  /** The desk certificate's SHA-256 (`AB:CD:…`, any case, colons optional): only that certificate is accepted. */
  fingerprint?: string;
  registration: RunRegistration;
  /** Every frame the desk sends after `registered` (answers, rules, stop), and each `registered` again after a reconnect. */
  onMessage(message: DeskMessage): void;
  /** The link is gone for good (a refusal no retry can change). */
  onFailure(failure: DeskFailure): void;
  /** How long the first connection may take before the run gives up on the desk. */
  connectTimeoutMs?: number;
  /** The longest pause between two tries to reconnect. */
  maxBackoffMs?: number;
}

type Registered = Extract<DeskMessage, { type: 'registered' }>;

export class DeskLink {
  private socket: WebSocket | undefined;
  private closed = false;
  private failure: DeskFailure | undefined;
  private backoffMs = 100;
  private retry: NodeJS.Timeout | undefined;
  private readonly target: URL;

  constructor(private readonly options: DeskLinkOptions) {
    this.target = checkedUrl(options.url, options.fingerprint);
  }

  /** Connects and registers; rejects with a DeskFailure when the desk cannot be reached or refuses the run. */
  async open(): Promise<Registered> {
    const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new DeskFailure('unreachable', `The desk at ${this.options.url} did not answer within ${Math.round(timeoutMs / 1000)} s.`),
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.connect(), timeout]);
    } catch (error) {
      this.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether frames reach the desk now. */
  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Why the link is gone for good, once it is. */
  get gone(): DeskFailure | undefined {
    return this.failure;
  }

  /** Sends a frame if connected; what matters is sent again after a reconnect by the caller (events from the log, answers taken). */
  send(message: RunnerMessage): boolean {
    if (!this.connected) return false;
    this.socket!.send(JSON.stringify(message));
    return true;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.socket?.close(1000, 'The run ended.');
  }

  private async connect(): Promise<Registered> {
    const pinned = this.target.protocol === 'wss:' && this.options.fingerprint ? await this.pinnedCertificate() : undefined;
    return new Promise<Registered>((resolve, reject) => {
      let registered = false;
      const socket = new WebSocket(new URL(DESK_RUNNER_PATH, this.target), {
        headers: { authorization: `Bearer ${this.options.token}`, [DESK_PROTOCOL_HEADER]: String(DESK_PROTOCOL_VERSION) },
        maxPayload: DESK_MAX_FRAME_BYTES,
        perMessageDeflate: false,
        handshakeTimeout: this.options.connectTimeoutMs ?? 10_000,
        followRedirects: false,
        ...(pinned
          ? {
              // Only the certificate whose fingerprint the person gave: it is the one authority trusted, its name not checked.
              ca: pinned.pem,
              checkServerIdentity: (_host: string, cert: PeerCertificate) =>
                sameFingerprint(cert.fingerprint256, pinned.fingerprint)
                  ? undefined
                  : fingerprintMismatch(this.options.url, cert.fingerprint256),
            }
          : {}),
      });
      this.socket = socket;
      socket.on('unexpected-response', (_request, response) => {
        void refusalOf(response).then((failure) => {
          socket.terminate();
          reject(failure);
        });
      });
      socket.on('open', () => socket.send(JSON.stringify({ type: 'register', run: this.options.registration } satisfies RunnerMessage)));
      socket.on('message', (data) => {
        const parsed = DeskMessage.safeParse(safeJson(data.toString()));
        if (!parsed.success) return socket.close(1008, 'Unreadable frame.');
        const message = parsed.data;
        if (message.type === 'refused') {
          const failure = new DeskFailure(message.code === 'revoked_token' ? 'revoked_token' : 'refused', message.message);
          if (!registered) reject(failure);
          else this.fail(failure);
          return;
        }
        if (message.type === 'registered') {
          this.backoffMs = 100;
          if (!registered) {
            registered = true;
            resolve(message);
            return;
          }
        }
        this.options.onMessage(message);
      });
      socket.on('error', (error: Error & { code?: string }) => {
        if (registered) return;
        reject(
          tlsFailure(error, this.options.url) ??
            new DeskFailure('unreachable', `Cannot reach the desk at ${this.options.url}: ${error.message}`),
        );
      });
      socket.on('close', (code, reason) => {
        if (this.socket !== socket) return;
        if (!registered) {
          reject(new DeskFailure('unreachable', `The desk at ${this.options.url} closed the connection: ${reason.toString() || code}.`));
          return;
        }
        if (code === 4001 && !this.failure)
          this.fail(new DeskFailure('refused', `The desk closed the connection for good: ${reason.toString()}`));
        this.reconnectLater();
      });
    });
  }

  private reconnectLater(): void {
    if (this.closed || this.failure) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs ?? 5_000);
    this.retry = setTimeout(() => {
      this.connect().then(
        (registered) => this.options.onMessage(registered),
        (error: unknown) => {
          if (error instanceof DeskFailure && error.kind !== 'unreachable') this.fail(error);
          else this.reconnectLater();
        },
      );
    }, delay);
  }

  private fail(failure: DeskFailure): void {
    if (this.failure) return;
    this.failure = failure;
    this.close();
    this.options.onFailure(failure);
  }

  /**
   * The desk's certificate, read in a first TLS handshake that sends nothing, and checked against the
   * pin. The connection that carries the token then trusts that certificate alone and checks the pin
   * again, so a certificate swapped in between is refused too.
   */
  private pinnedCertificate(): Promise<{ pem: string; fingerprint: string }> {
    const wanted = this.options.fingerprint!;
    return new Promise((resolve, reject) => {
      const socket = tlsConnect({
        host: this.target.hostname.replace(/^\[|\]$/g, ''),
        port: Number(this.target.port || 443),
        rejectUnauthorized: false,
        ...(/^[\d.:[\]]+$/.test(this.target.hostname) ? {} : { servername: this.target.hostname }),
      });
      socket.setTimeout(this.options.connectTimeoutMs ?? 10_000, () => socket.destroy(new Error('the TLS handshake timed out')));
      socket.once('secureConnect', () => {
        const cert = socket.getPeerX509Certificate();
        socket.destroy();
        if (!cert) return reject(new DeskFailure('fingerprint', `The desk at ${this.options.url} showed no certificate.`));
        if (!sameFingerprint(cert.fingerprint256, wanted)) return reject(fingerprintMismatch(this.options.url, cert.fingerprint256));
        resolve({ pem: cert.toString(), fingerprint: cert.fingerprint256 });
      });
      socket.once('error', (error) =>
        reject(new DeskFailure('unreachable', `Cannot reach the desk at ${this.options.url}: ${error.message}`)),
      );
    });
  }
}

/** The desk's address, checked: a plain connection only to loopback (or an SSH tunnel's end there), since it carries the token. */
function checkedUrl(address: string, fingerprint: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new DeskFailure(
      'usage',
      `--desk takes the desk's address, such as ws://127.0.0.1:7717 or wss://desk.example:7717; not "${address}".`,
    );
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new DeskFailure('usage', `--desk takes a ws:// or wss:// address, not ${url.protocol}//.`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'ws:' && !(host === 'localhost' || host === '::1' || /^127\./.test(host))) {
    throw new DeskFailure(
      'usage',
      `A plain ws:// address reaches only this machine (the token would cross the network in the clear): use wss:// with --desk-fingerprint, or an SSH tunnel to the desk and ws://127.0.0.1:${url.port || '7717'}.`,
    );
  }
  if (fingerprint !== undefined && !/^([0-9a-f]{2}:?){31}[0-9a-f]{2}$/i.test(fingerprint.trim())) {
    throw new DeskFailure('usage', '--desk-fingerprint takes the SHA-256 fingerprint the desk shows: 32 bytes in hex, e.g. AB:CD:….');
  }
  return url;
}

function sameFingerprint(a: string, b: string): boolean {
  const plain = (text: string) => text.replace(/:/g, '').trim().toUpperCase();
  return plain(a) === plain(b);
}

function fingerprintMismatch(url: string, seen: string): DeskFailure {
  return new DeskFailure(
    'fingerprint',
    `The desk at ${url} showed a certificate with SHA-256 ${seen}, not the one given with --desk-fingerprint: refused, and the token was not sent.`,
  );
}

/** A TLS refusal of a desk whose certificate nobody vouches for (no --desk-fingerprint given). */
function tlsFailure(error: Error & { code?: string }, url: string): DeskFailure | undefined {
  if (error instanceof DeskFailure) return error;
  if (!/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(error.code ?? '')) return undefined;
  return new DeskFailure(
    'fingerprint',
    `The desk at ${url} showed a certificate that is not trusted (${error.code}): pass the fingerprint the desk shows with --desk-fingerprint.`,
  );
}

async function refusalOf(response: IncomingMessage): Promise<DeskFailure> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) {
    chunks.push(chunk as Buffer);
    if (chunks.reduce((total, part) => total + part.length, 0) > 8192) break;
  }
  const refusal = DeskRefusal.safeParse(safeJson(Buffer.concat(chunks).toString('utf8')));
  const status = response.statusCode ?? 0;
  if (!refusal.success) {
    return new DeskFailure(
      'unreachable',
      `The server at that address answered ${status} and is not a Tether desk (or not one that takes runners).`,
    );
  }
  const { code, message } = refusal.data;
  const kind: DeskFailureKind = code === 'bad_token' || code === 'revoked_token' || code === 'protocol' ? code : 'unreachable';
  return new DeskFailure(kind, message);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

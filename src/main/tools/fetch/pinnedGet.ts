import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Target } from './resolveTarget';

/** A response whose head has arrived; its body is read (or dropped) once. */
export interface PinnedResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** Reads the decoded body, stopping after maxBytes; `truncated` says the body was longer. */
  readBody(maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }>;
  /** Drops the body and closes the connection. */
  discard(): void;
}

const USER_AGENT = 'Mozilla/5.0 (compatible; Tether/0.1; fetch_url)';
const ACCEPT =
  'text/html,application/xhtml+xml,text/markdown;q=0.95,text/plain;q=0.9,application/json;q=0.9,application/xml;q=0.8,*/*;q=0.5';

/**
 * GETs a checked Target, connecting only to the addresses it was checked with. Node's fetch gives
 * no hook into its own DNS lookup (that needs an undici Agent from the undici package, which is not
 * a dependency), so this uses node:http(s) with a `lookup` that answers from the Target and never
 * asks DNS again: whatever DNS says between the check and the connection, the socket goes to a
 * checked address. The host name still drives the Host header, SNI and certificate validation, so
 * TLS is checked against the name the model asked for. IP literals never reach `lookup`; they were
 * checked as they are. No connection pool (agent: false): a socket opened under one policy is
 * never reused under another.
 */
export function pinnedGet(target: Target, signal: AbortSignal): Promise<PinnedResponse> {
  const { url } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PinnedResponse>((resolve, reject) => {
    const request = client.request({
      protocol: url.protocol,
      host: target.host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: {
        Host: url.host,
        'User-Agent': USER_AGENT,
        Accept: ACCEPT,
        'Accept-Encoding': 'gzip, deflate, br',
      },
      agent: false,
      lookup: pinnedLookup(target),
      signal,
    });
    // Errors after the head arrive surface through the body stream; these listeners keep a late
    // socket error from becoming an uncaught exception.
    request.on('error', reject);
    request.once('response', (response) => {
      response.on('error', () => undefined);
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        headers: response.headers,
        readBody: (maxBytes) => readBody(request, response, maxBytes),
        discard: () => {
          response.destroy();
          request.destroy();
        },
      });
    });
    request.end();
  });
}

function pinnedLookup(target: Target): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const addresses = target.addresses.filter((entry) => !family || entry.family === family);
    const first = addresses[0];
    if (hostname !== target.host || !first) {
      const error: NodeJS.ErrnoException = new Error(
        `fetch_url resolved ${target.host}, not ${hostname}${family ? ` (IPv${family})` : ''}`,
      );
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    if (options.all)
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, first.address, first.family);
  };
}

async function readBody(
  request: http.ClientRequest,
  response: http.IncomingMessage,
  maxBytes: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of decoded(response)) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } finally {
    response.destroy();
    request.destroy();
  }
  return { bytes: Buffer.concat(chunks, size), truncated };
}

/**
 * The body with its content-encoding undone. The size cap counts decoded bytes, so a small
 * compressed bomb stops at the cap like anything else. Sync flushes let a body that was cut short
 * still yield what arrived, as browsers do.
 */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;
  if (encoding === '' || encoding === 'identity') return response;
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    decoder = zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } else if (encoding === 'deflate') {
    decoder = zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } else if (encoding === 'br') {
    decoder = zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  } else {
    const error: NodeJS.ErrnoException = new Error(
      `the server sent the body with content-encoding "${encoding}", which fetch_url cannot decode`,
    );
    error.code = 'UNSUPPORTED_ENCODING';
    throw error;
  }
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

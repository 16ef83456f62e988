import { execFileSync } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { requests, type RequestName } from '../../src/shared/contract';
import { removeTempDirs } from '../support/tempDirs';
import { sampleInputs, sampleOutputs, storedEvent } from './contractSamples';
import {
  call,
  connect,
  nextClose,
  nextEvent,
  rawGet,
  rawGetBytes,
  rendererFixture,
  SECRET,
  startTestHost,
  type TestHost,
} from './serveHelpers';

// `tether serve` over real sockets on 127.0.0.1: who may connect, what the socket answers, and what
// the HTTP side serves.

const started: TestHost[] = [];
const sockets: WebSocket[] = [];

async function setUp(options: Parameters<typeof startTestHost>[0] = {}): Promise<TestHost> {
  const test = await startTestHost(options);
  started.push(test);
  return test;
}

async function open(test: TestHost, options: Parameters<typeof connect>[1] = {}): Promise<WebSocket> {
  const socket = await connect(test.host, options);
  sockets.push(socket);
  return socket;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(started.splice(0).map((test) => test.host.close()));
  removeTempDirs();
});

describe('tether serve: who may connect', () => {
  it('prints a URL on 127.0.0.1 that carries a 32-byte token in its fragment only', async () => {
    const { host } = await setUp();
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
    expect(Buffer.from(host.token, 'base64url')).toHaveLength(32);
    const other = await setUp();
    expect(other.host.token).not.toBe(host.token);
  });

  it('refuses a WebSocket without the token, or with a wrong one, with 403 before upgrading', async () => {
    const test = await setUp();
    await expect(connect(test.host, { token: null })).rejects.toMatchObject({ status: 403 });
    await expect(connect(test.host, { token: 'A'.repeat(43) })).rejects.toMatchObject({ status: 403 });
    await expect(connect(test.host, { token: `${test.host.token}x` })).rejects.toMatchObject({ status: 403 });
    expect(test.host.connectionCount()).toBe(0);
    expect(test.calls).toEqual([]);
  });

  it('refuses a WebSocket from another origin, or with none, even with the right token', async () => {
    const test = await setUp();
    for (const origin of [
      null,
      'http://evil.example',
      `http://localhost:${test.host.port}`,
      `http://127.0.0.1:${test.host.port + 1}`,
      'null',
    ]) {
      await expect(connect(test.host, { origin }), String(origin)).rejects.toMatchObject({ status: 403 });
    }
    expect(test.host.connectionCount()).toBe(0);
  });

  it('takes WebSocket connections on /ws only', async () => {
    const test = await setUp();
    await expect(connect(test.host, { path: '/socket' })).rejects.toMatchObject({ status: 404 });
    expect((await rawGet(test.host.port, '/ws', { Host: `127.0.0.1:${test.host.port}` })).status).toBe(426);
  });

  it('tells a page whether its token still holds (204 or 401), from a header and for its own host only', async () => {
    const test = await setUp();
    const own = { Host: `127.0.0.1:${test.host.port}` };
    const check = (headers: Record<string, string>, method = 'GET') => rawGet(test.host.port, '/token-check', headers, method);
    const valid = await check({ ...own, Authorization: `Bearer ${test.host.token}` });
    expect([valid.status, valid.body, valid.headers['cache-control']]).toEqual([204, '', 'no-store']);
    // An earlier run's token, a wrong one, none, or the token anywhere but the header: refused, and the answer says nothing else.
    const refusedHeaders: Record<string, string>[] = [
      { Authorization: `Bearer ${'B'.repeat(43)}` },
      { Authorization: `Bearer ${test.host.token}x` },
      { Authorization: test.host.token },
      {},
    ];
    for (const headers of refusedHeaders) {
      const refused = await check({ ...own, ...headers });
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(refused.body).not.toContain(test.host.token);
    }
    expect((await rawGet(test.host.port, `/token-check?token=${test.host.token}`, own)).status).toBe(401);
    // A DNS-rebound page: its Host is not this server's.
    const rebound = await check({ Host: `attacker.example:${test.host.port}`, Authorization: `Bearer ${test.host.token}` });
    expect(rebound.status).toBe(403);
    // A page of another origin needs a preflight to send the header; none is answered, and no answer lets it read.
    const preflight = await check(
      {
        ...own,
        Origin: 'http://attacker.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
      'OPTIONS',
    );
    expect(preflight.status).toBe(405);
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(Object.keys(valid.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('refuses a connection past the limit with 503', async () => {
    const test = await setUp({ limits: { maxConnections: 2 } });
    await open(test);
    await open(test);
    await expect(connect(test.host)).rejects.toMatchObject({ status: 503 });
  });
});

describe('tether serve: requests and events', () => {
  it('answers a request with the handler output, matched to its id', async () => {
    const test = await setUp();
    const socket = await open(test);
    expect(await call(socket, 7, 'app:info', {})).toEqual({ id: 7, ok: true, output: sampleOutputs['app:info'] });
    expect(test.calls).toEqual([{ name: 'app:info', input: {} }]);
  });

  it('carries every request in the contract to its handler and back', async () => {
    const test = await setUp();
    const socket = await open(test);
    const names = Object.keys(requests) as RequestName[];
    const answers = await Promise.all(names.map((name, index) => call(socket, index, name, sampleInputs[name])));
    // JSON drops an undefined output, as it does for z.void() answers.
    expect(answers).toEqual(names.map((name, index) => JSON.parse(JSON.stringify({ id: index, ok: true, output: sampleOutputs[name] }))));
    expect(test.calls.map((recorded) => recorded.name).sort()).toEqual([...names].sort());
  });

  it('answers invalid input with invalid_input and the schema message, without calling the handler', async () => {
    const test = await setUp();
    const socket = await open(test);
    expect(await call(socket, 1, 'session:start', { workspace: '/w', task: ' ' })).toEqual({
      id: 1,
      ok: false,
      error: { code: 'invalid_input', message: 'session:start: task: Type a task first.' },
    });
    expect(await call(socket, 2, 'session:events', { sessionId: 's1', afterSeq: -1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('afterSeq') },
    });
    expect(test.calls).toEqual([]);
  });

  it('refuses a request name the contract lacks', async () => {
    const test = await setUp();
    const socket = await open(test);
    for (const name of ['shell:exec', 'constructor', '__proto__']) {
      expect(await call(socket, 3, name, {})).toMatchObject({ id: 3, ok: false, error: { code: 'invalid_input' } });
    }
    expect(test.calls).toEqual([]);
  });

  it('reports a handler that throws as failed, with its message', async () => {
    const test = await setUp({
      overrides: {
        'session:send': async () => {
          throw new Error('The model server at http://127.0.0.1:1 refused the connection.');
        },
      },
    });
    const socket = await open(test);
    expect(await call(socket, 4, 'session:send', sampleInputs['session:send'])).toEqual({
      id: 4,
      ok: false,
      error: { code: 'failed', message: 'The model server at http://127.0.0.1:1 refused the connection.' },
    });
  });

  it('sends every event to every connected client, and drops events the contract does not allow', async () => {
    const test = await setUp();
    const clients = [await open(test), await open(test), await open(test)];
    const received = clients.map((socket) => nextEvent(socket));
    test.emit('sessions:deleted', { sessionId: 42 } as never);
    test.emit('no:such' as never, {} as never);
    test.emit('session:event', storedEvent);
    expect(await Promise.all(received)).toEqual(clients.map(() => ({ event: 'session:event', payload: storedEvent })));
    expect(test.logged).toEqual(['dropped a malformed sessions:deleted event', 'dropped an event "no:such" that is not in the contract']);
  });

  it('closes a connection that sends a frame over the limit, and keeps serving the others', async () => {
    const test = await setUp();
    const big = await open(test);
    const other = await open(test);
    const closed = nextClose(big);
    big.send(JSON.stringify({ id: 1, name: 'session:send', input: { sessionId: 's1', text: 'x'.repeat(1024 * 1024 + 10) } }));
    expect((await closed).code).toBe(1009);
    expect(test.calls).toEqual([]);
    expect(await call(other, 2, 'app:info', {})).toMatchObject({ ok: true });
  });

  it('refuses to send an answer over the frame limit, with a clear error, and the connection stays open', async () => {
    const limit = 64 * 1024;
    const manyEvents = (count: number, text: string) =>
      Array.from({ length: count }, (_, i) => ({ ...storedEvent, seq: i + 1, event: { type: 'user.messaged' as const, text } }));
    let answer = manyEvents(1, 'x');
    const test = await setUp({ limits: { maxSentBytes: limit }, overrides: { 'session:events': async () => answer } });
    const socket = await open(test);
    const closed = nextClose(socket).then(() => true);
    // Over the limit: in one long event, in many small ones, and in characters that take three bytes each in UTF-8.
    for (const [index, big] of [
      manyEvents(1, 'y'.repeat(limit)),
      manyEvents(2_000, 'z'.repeat(40)),
      manyEvents(1, '€'.repeat(Math.ceil(limit / 3) + 10)),
    ].entries()) {
      answer = big;
      const reply = await call(socket, 10 + index, 'session:events', { sessionId: 's1', afterSeq: 0 });
      expect(reply).toMatchObject({ id: 10 + index, ok: false, error: { code: 'failed' } });
      expect((reply.error as { message: string }).message).toMatch(
        /^The answer to session:events is [\d.]+ MB, more than the 0\.1 MB one answer may carry, so it was not sent; ask for less at once\.$/,
      );
    }
    // Just under the limit still goes, and the same connection keeps answering.
    answer = manyEvents(1, 'w'.repeat(limit - 200));
    expect(await call(socket, 20, 'session:events', { sessionId: 's1', afterSeq: 0 })).toMatchObject({ ok: true });
    expect(await call(socket, 21, 'app:info', {})).toMatchObject({ ok: true });
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve(false), 50))])).toBe(false);
    expect(test.logged.filter((line) => line.startsWith('refused to send'))).toHaveLength(3);
  });

  it('does not send an event over the frame limit, which would drop every connection, and sends the next', async () => {
    const test = await setUp({ limits: { maxSentBytes: 64 * 1024 } });
    const socket = await open(test);
    const received = nextEvent(socket);
    test.emit('session:event', { ...storedEvent, seq: 2, event: { type: 'user.messaged', text: 'x'.repeat(70 * 1024) } });
    test.emit('session:event', { ...storedEvent, seq: 3 });
    expect(await received).toEqual({ event: 'session:event', payload: { ...storedEvent, seq: 3 } });
    expect(test.logged).toEqual([expect.stringMatching(/^did not send a 0\.1 MB session:event event/)]);
    expect(await call(socket, 1, 'app:info', {})).toMatchObject({ ok: true });
  });

  it('closes a connection that sends something other than a JSON request', async () => {
    const test = await setUp();
    const notJson = await open(test);
    let closed = nextClose(notJson);
    notJson.send('hello');
    expect((await closed).code).toBe(1007);

    const wrongShape = await open(test);
    closed = nextClose(wrongShape);
    wrongShape.send(JSON.stringify({ name: 'app:info' }));
    expect((await closed).code).toBe(1008);

    const binary = await open(test);
    closed = nextClose(binary);
    binary.send(Buffer.from([1, 2, 3]));
    expect((await closed).code).toBe(1003);
  });

  it('answers a request past the in-flight limit with failed instead of queueing without end', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const test = await setUp({
      limits: { maxInFlight: 2 },
      overrides: {
        'session:stop': async () => {
          await gate;
          return undefined;
        },
      },
    });
    const socket = await open(test);
    const first = call(socket, 1, 'session:stop', { sessionId: 's1' });
    const second = call(socket, 2, 'session:stop', { sessionId: 's1' });
    expect(await call(socket, 3, 'session:stop', { sessionId: 's1' })).toMatchObject({
      ok: false,
      error: { code: 'failed', message: expect.stringContaining('Too many requests') },
    });
    release();
    expect(await first).toEqual({ id: 1, ok: true });
    expect(await second).toEqual({ id: 2, ok: true });
  });

  it('closes every connection with 1001 and stops listening on close', async () => {
    const test = await setUp();
    const socket = await open(test);
    const closed = nextClose(socket);
    await test.host.close();
    expect((await closed).code).toBe(1001);
    expect(test.unsubscribed()).toBe(true);
    await expect(rawGet(test.host.port, '/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('tether serve: static files', () => {
  const host = (test: TestHost) => ({ Host: `127.0.0.1:${test.host.port}` });

  it('serves index.html with a strict CSP, security headers and no caching', async () => {
    const test = await setUp();
    const response = await rawGet(test.host.port, '/', host(test));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const csp = response.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${test.host.port}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.body).toContain('<title>Tether</title>');
    expect(response.body).not.toContain(test.host.token);
  });

  it('serves assets with their content types and long caching', async () => {
    const test = await setUp();
    const js = await rawGet(test.host.port, '/assets/index-abc123.js', host(test));
    expect([js.status, js.headers['content-type'], js.headers['cache-control']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    expect((await rawGet(test.host.port, '/assets/index-abc123.css', host(test))).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await rawGet(test.host.port, '/assets/codicon.woff2', host(test))).headers['content-type']).toBe('font/woff2');
    const head = await rawGet(test.host.port, '/assets/index-abc123.js', host(test), 'HEAD');
    expect([head.status, head.body, head.headers['content-length']]).toEqual([200, '', '22']);
  });

  it('sends text compressed to a browser that accepts it: the build’s Brotli or gzip copy while it is current, else gzip as it streams', async () => {
    const rendererDir = rendererFixture();
    const script = `console.log(${JSON.stringify('tether '.repeat(4000))});`;
    writeFileSync(path.join(rendererDir, 'assets/big-abc123.js'), script);
    const test = await setUp({ rendererDir });
    const get = (encoding: string) => rawGetBytes(test.host.port, '/assets/big-abc123.js', { ...host(test), 'Accept-Encoding': encoding });

    // No copy yet: gzip made as it streams, with no length up front.
    const streamed = await get('gzip, deflate');
    expect([streamed.headers['content-encoding'], streamed.headers['content-length'], streamed.headers.vary]).toEqual([
      'gzip',
      undefined,
      'Accept-Encoding',
    ]);
    expect(gunzipSync(streamed.body).toString()).toBe(script);

    execFileSync(process.execPath, [path.resolve('scripts/precompressRenderer.mjs'), rendererDir]);
    const brotli = await get('gzip, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(Number(brotli.headers['content-length'])).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
    const gzip = await get('gzip;q=1, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);
    expect((await get('identity')).headers['content-encoding']).toBeUndefined();
    // A copy older than its file is stale: the file changed after the build, so gzip streams again.
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(rendererDir, 'assets/big-abc123.js'), later, later);
    const stale = await get('br, gzip');
    expect([stale.headers['content-encoding'], stale.headers['content-length']]).toEqual(['gzip', undefined]);
    // Fonts and images are sent as they are.
    expect(
      (await rawGetBytes(test.host.port, '/assets/codicon.woff2', { ...host(test), 'Accept-Encoding': 'br, gzip' })).headers[
        'content-encoding'
      ],
    ).toBeUndefined();
  });

  it('never serves a file outside the renderer folder, a dotfile or a symlink that leaves it', async () => {
    const test = await setUp();
    const attempts = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/..\\..\\secret.txt',
      '/.env',
      '/%2eenv',
      '/assets/linked.txt',
      '/assets/%00.js',
      '/%E0%A4%A',
      '/assets',
      '//etc/passwd',
      '/' + '../'.repeat(12) + 'etc/passwd',
    ];
    for (const attempt of attempts) {
      const response = await rawGet(test.host.port, attempt, host(test));
      expect(response.status, attempt).toBeGreaterThanOrEqual(400);
      expect(response.body, attempt).not.toContain(SECRET);
      expect(response.body, attempt).not.toContain('root:');
    }
  });

  it('answers only to its own host name, so a DNS-rebound page gets nothing', async () => {
    const test = await setUp();
    const response = await rawGet(test.host.port, '/', { Host: `attacker.example:${test.host.port}` });
    expect(response.status).toBe(403);
    expect(response.body).toContain(`http://127.0.0.1:${test.host.port}/`);
  });

  it('refuses methods other than GET and HEAD', async () => {
    const test = await setUp();
    const response = await rawGet(test.host.port, '/', host(test), 'POST');
    expect([response.status, response.headers.allow]).toEqual([405, 'GET, HEAD']);
  });
});

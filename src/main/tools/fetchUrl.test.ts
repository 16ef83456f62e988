import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToolError, type ToolResult } from './defineTool';
import { createFetchUrl, fetchUrl, type FetchUrlOptions, type LookupAll } from './fetchUrl';
import { makeToolContext, type TestToolContext } from '../../../test/support/toolContext';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

interface TestServer {
  /** http://127.0.0.1:port */
  origin: string;
  port: number;
  /** Every request path, in arrival order. */
  requests: string[];
  /** The Host header of every request. */
  hosts: string[];
  close(): Promise<void>;
}

const servers: { close(): Promise<void> }[] = [];
let workspace: string;

beforeAll(() => {
  workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-fetch-')));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

async function serve(handler: Handler, host = '127.0.0.1', port = 0): Promise<TestServer> {
  const requests: string[] = [];
  const hosts: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    hosts.push(request.headers.host ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  const handle: TestServer = {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    port: actual,
    requests,
    hosts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(handle);
  return handle;
}

/** Answers every path from a table: [status, headers, body]. */
function routes(table: Record<string, [number, http.OutgoingHttpHeaders, string | Buffer]>): Handler {
  return (request, response) => {
    const route = table[request.url ?? ''];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('No such route');
      return;
    }
    const [status, headers, body] = route;
    response.writeHead(status, headers).end(body);
  };
}

/** A lookup that knows only the names in the table, like a DNS server for the test. */
function fakeDns(table: Record<string, string[]>, calls: string[] = []): LookupAll {
  return async (hostname) => {
    calls.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
}

/** The tool as the tests use it: loopback allowed, since the test servers live there. */
function localTool(options: FetchUrlOptions = {}) {
  return createFetchUrl({ allowPrivateHosts: () => true, ...options });
}

function context(): TestToolContext {
  return makeToolContext(workspace);
}

async function run(tool: ReturnType<typeof createFetchUrl>, args: Record<string, unknown>, ctx = context()): Promise<ToolResult> {
  return tool.execute(tool.parameters.parse(args), ctx);
}

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('fetch_url: content', () => {
  it('turns an HTML page into Markdown with its title, absolute links, lists, code and tables, without scripts or navigation', async () => {
    const html = `<!doctype html><html><head><title>Guide &amp; Notes</title>
      <style>body { color: red }</style><script>window.secret = "script text"</script></head>
      <body><nav><a href="/">Home nav link</a></nav>
      <h1>Install</h1><p>Run the <a href="/docs/setup?x=1">setup guide</a> first.</p>
      <ul><li>one</li><li>two</li></ul>
      <pre><code class="language-sh">npm install tether
</code></pre>
      <table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose</td></tr></table>
      <noscript>enable javascript</noscript></body></html>`;
    const server = await serve(routes({ '/guide': [200, { 'content-type': 'text/html; charset=utf-8' }, html] }));
    const result = await run(localTool(), { url: `${server.origin}/guide` });

    expect(result.isError).toBeFalsy();
    expect(result.output.split('\n').slice(0, 4)).toEqual([
      `URL: ${server.origin}/guide`,
      'Status: 200 OK',
      'Content-Type: text/html; charset=utf-8 (converted to Markdown)',
      'Title: Guide & Notes',
    ]);
    expect(result.output).toContain('# Install');
    expect(result.output).toContain(`Run the [setup guide](${server.origin}/docs/setup?x=1) first.`);
    expect(result.output).toContain('- one\n- two');
    expect(result.output).toContain('```sh\nnpm install tether\n```');
    expect(result.output).toContain('| Flag | Meaning |\n| --- | --- |\n| -v | verbose |');
    for (const dropped of ['script text', 'color: red', 'Home nav link', 'enable javascript']) expect(result.output).not.toContain(dropped);
    const markdown = result.output.slice(result.output.indexOf('\n\n') + 2);
    expect(result.metadata).toMatchObject({ chars: markdown.length, shownChars: markdown.length, status: 200 });
    expect(result.title).toBe(`Fetched 127.0.0.1:${server.port}/guide (${markdown.length} chars)`);
  });

  it('pretty-prints JSON', async () => {
    const server = await serve(routes({ '/api': [200, { 'content-type': 'application/json' }, '{"name":"tether","tags":["a","b"]}'] }));
    const result = await run(localTool(), { url: `${server.origin}/api` });
    expect(result.output).toContain('Content-Type: application/json (pretty-printed JSON)');
    expect(result.output.endsWith('{\n  "name": "tether",\n  "tags": [\n    "a",\n    "b"\n  ]\n}')).toBe(true);
  });

  it('returns plain text and XML as they were sent', async () => {
    const xml = '<?xml version="1.0"?>\n<feed><title>News</title></feed>';
    const server = await serve(
      routes({
        '/notes.md': [200, { 'content-type': 'text/markdown' }, '# Notes\n\n*as is*'],
        '/feed': [200, { 'content-type': 'application/atom+xml' }, xml],
      }),
    );
    expect((await run(localTool(), { url: `${server.origin}/notes.md` })).output.endsWith('\n\n# Notes\n\n*as is*')).toBe(true);
    expect((await run(localTool(), { url: `${server.origin}/feed` })).output.endsWith(`\n\n${xml}`)).toBe(true);
  });

  it('decodes a gzip-compressed body', async () => {
    const server = await serve(
      routes({ '/z': [200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, zlib.gzipSync('squeezed text')] }),
    );
    expect((await run(localTool(), { url: `${server.origin}/z` })).output.endsWith('\n\nsqueezed text')).toBe(true);
  });

  it('respects a latin1 charset from the header, from a <meta> tag, and falls back to windows-1252 for non-UTF-8 bytes', async () => {
    const cafe = Buffer.from('caf\xe9 cr\xe8me', 'latin1');
    const server = await serve(
      routes({
        '/header': [200, { 'content-type': 'text/plain; charset=ISO-8859-1' }, cafe],
        '/meta': [
          200,
          { 'content-type': 'text/html' },
          Buffer.concat([Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>'), cafe, Buffer.from('</p></body></html>')]),
        ],
        '/undeclared': [200, { 'content-type': 'text/plain' }, cafe],
        '/utf8': [200, { 'content-type': 'text/plain' }, Buffer.from('café crème', 'utf8')],
      }),
    );
    for (const route of ['/header', '/meta', '/undeclared', '/utf8']) {
      const result = await run(localTool(), { url: `${server.origin}${route}` });
      expect(result.output.endsWith('café crème'), route).toBe(true);
    }
  });

  it('refuses binary types by their Content-Type, naming the type', async () => {
    const server = await serve(
      routes({
        '/logo.png': [200, { 'content-type': 'image/png' }, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0])],
        '/paper.pdf': [200, { 'content-type': 'application/pdf' }, '%PDF-1.7'],
        '/blob': [200, { 'content-type': 'application/octet-stream' }, 'bytes'],
        '/a.zip': [200, { 'content-type': 'application/zip' }, 'PK'],
      }),
    );
    for (const [route, type] of [
      ['/logo.png', 'image/png'],
      ['/paper.pdf', 'application/pdf'],
      ['/blob', 'application/octet-stream'],
      ['/a.zip', 'application/zip'],
    ]) {
      const error = await failure(run(localTool(), { url: `${server.origin}${route}` }));
      expect(error.message).toContain(`is ${type}, a binary type; fetch_url only reads text`);
    }
  });

  it('refuses a body with no Content-Type or a text type when its bytes are binary', async () => {
    const server = await serve(
      routes({
        '/untyped': [200, {}, Buffer.from([1, 2, 0, 3, 4])],
        '/liar': [200, { 'content-type': 'text/plain' }, Buffer.from([0x50, 0x4b, 0, 0])],
        '/untyped-html': [200, {}, '<!doctype html><h1>Guessed</h1>'],
      }),
    );
    expect((await failure(run(localTool(), { url: `${server.origin}/untyped` }))).message).toBe(
      `fetch_url: ${server.origin}/untyped is served as an untyped body, but its content is binary (it has NUL bytes); fetch_url only reads text ` +
        '(HTML, plain text, JSON, XML). Look for a text version of the same content (an HTML page, a raw or API URL).',
    );
    expect((await failure(run(localTool(), { url: `${server.origin}/liar` }))).message).toContain(
      'is served as text/plain, but its content is binary (it has NUL bytes)',
    );
    const guessed = await run(localTool(), { url: `${server.origin}/untyped-html` });
    expect(guessed.output).toContain('Content-Type: (none) (converted to Markdown, guessed from the body)');
    expect(guessed.output).toContain('# Guessed');
  });

  it('cuts the text at max_chars and says how much there was', async () => {
    const server = await serve(routes({ '/long': [200, { 'content-type': 'text/plain' }, 'x'.repeat(10_000)] }));
    const result = await run(localTool(), { url: `${server.origin}/long`, max_chars: 1000 });
    expect(result.output).toContain(
      `\n\n${'x'.repeat(1000)}\n\n[Cut at 1,000 of 10,000 characters. Call fetch_url again with a larger max_chars`,
    );
    expect(result.output).not.toContain('x'.repeat(1001));
    expect(result.metadata).toMatchObject({ chars: 10_000, shownChars: 1000, bodyTruncated: false });
  });

  it('stops reading a body at 5 MB by default, closes the connection, and says the page was cut', async () => {
    let closedEarly = false;
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      // An endless body: the test only ends if the tool stops reading and hangs up.
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', pump);
      response.on('close', () => (closedEarly = !response.writableFinished));
      pump();
    });
    const result = await run(localTool(), { url: `${server.origin}/endless`, max_chars: 100 });
    expect(result.output).toContain('Note: the body is larger than 5 MB; only the first 5 MB were read.');
    expect(result.metadata).toMatchObject({ chars: 5 * 1024 * 1024, bodyTruncated: true });
    await expect.poll(() => closedEarly).toBe(true);
  });

  it('returns an HTTP error status as an error result with the status and the start of the body', async () => {
    const server = await serve(routes({}));
    const result = await run(localTool(), { url: `${server.origin}/missing` });
    expect(result.isError).toBe(true);
    expect(result.title).toBe(`HTTP 404 from 127.0.0.1:${server.port}`);
    expect(result.output).toContain('Status: 404 Not Found');
    expect(result.output).toContain('No such route');
    expect(result.output).toContain(`fetch_url: ${server.origin}/missing answered 404 Not Found; the page does not exist.`);
  });

  it('shows only an excerpt of a long error page', async () => {
    const server = await serve(routes({ '/boom': [500, { 'content-type': 'text/plain' }, 'e'.repeat(50_000)] }));
    const result = await run(localTool(), { url: `${server.origin}/boom` });
    expect(result.isError).toBe(true);
    expect(result.output).toContain(`${'e'.repeat(2000)}\n\n[The first 2,000 of 50,000 characters.]`);
    expect(result.output).not.toContain('e'.repeat(2001));
  });
});

describe('fetch_url: redirects', () => {
  it('follows a redirect chain on the same host and reports the final URL', async () => {
    const server = await serve(
      routes({
        '/a': [302, { location: '/b' }, ''],
        '/b': [301, { location: 'c?from=b' }, ''],
        '/c?from=b': [200, { 'content-type': 'text/plain' }, 'arrived'],
      }),
    );
    const result = await run(localTool(), { url: `${server.origin}/a` });
    expect(result.output).toContain(
      `URL: ${server.origin}/c?from=b\nRedirected from: ${server.origin}/a -> ${server.origin}/b\nStatus: 200 OK`,
    );
    expect(result.output.endsWith('\n\narrived')).toBe(true);
    expect(server.requests).toEqual(['/a', '/b', '/c?from=b']);
  });

  it('stops after 5 redirects', async () => {
    const server = await serve((request, response) => {
      const n = Number(request.url?.slice(1));
      response.writeHead(307, { location: `/${n + 1}` }).end();
    });
    const error = await failure(run(localTool(), { url: `${server.origin}/0` }));
    expect(error.message).toContain(`fetch_url: ${server.origin}/0 redirected more than 5 times`);
    expect(error.message).toContain(`${server.origin}/5 -> ${server.origin}/6); stopped.`);
    expect(server.requests).toEqual(['/0', '/1', '/2', '/3', '/4', '/5']);
  });

  it('refuses a redirect to a host that resolves to a private address, without sending it anything', async () => {
    const internal = await serve(routes({ '/secret': [200, { 'content-type': 'text/plain' }, 'internal secret'] }));
    const front = await serve(routes({ '/go': [302, { location: `http://internal.test:${internal.port}/secret` }, ''] }));
    const tool = createFetchUrl({
      lookup: fakeDns({ 'public.test': ['127.0.0.1'], 'internal.test': ['127.0.0.1'] }),
      // The person allowed public.test (say, a dev server); nothing else that is not public.
      allowPrivateHosts: (host) => host === 'public.test',
    });
    const error = await failure(run(tool, { url: `http://public.test:${front.port}/go` }));
    expect(error.message).toBe(
      `fetch_url: http://public.test:${front.port}/go redirected to http://internal.test:${internal.port}/secret which resolves to 127.0.0.1, ` +
        'a loopback address; refused. fetch_url only reaches public internet addresses, unless the person allows this host with a rule ' +
        'such as fetch_url(domain:internal.test).',
    );
    expect(front.requests).toEqual(['/go']);
    expect(internal.requests).toEqual([]);
  });

  it('refuses a redirect to a literal loopback address', async () => {
    const internal = await serve(routes({ '/admin': [200, {}, 'admin'] }));
    const front = await serve(routes({ '/go': [301, { location: `http://127.0.0.1:${internal.port}/admin` }, ''] }));
    const tool = createFetchUrl({ lookup: fakeDns({ 'public.test': ['127.0.0.1'] }), allowPrivateHosts: (host) => host === 'public.test' });
    const error = await failure(run(tool, { url: `http://public.test:${front.port}/go` }));
    expect(error.message).toContain(
      `redirected to http://127.0.0.1:${internal.port}/admin which is a loopback address (127.0.0.1); refused.`,
    );
    expect(internal.requests).toEqual([]);
  });

  it('refuses a redirect to another scheme', async () => {
    const server = await serve(routes({ '/go': [302, { location: 'file:///etc/passwd' }, ''] }));
    const error = await failure(run(localTool(), { url: `${server.origin}/go` }));
    expect(error.message).toBe(
      `fetch_url: ${server.origin}/go redirected to file:///etc/passwd, which uses the file: scheme; fetch_url only fetches http:// and https:// URLs (read local files with read_file).`,
    );
  });

  it('reports a redirect to another host instead of following it, unless followRedirect allows it', async () => {
    const server = await serve(
      routes({
        '/moved': [301, { location: '/there' }, ''],
        '/there': [200, { 'content-type': 'text/plain' }, 'other host'],
      }),
    );
    const lookup = fakeDns({ 'a.test': ['127.0.0.1'], 'b.test': ['127.0.0.1'] });
    const redirecting = await serve(routes({ '/go': [302, { location: `http://b.test:${server.port}/there` }, ''] }));

    const reported = await run(localTool({ lookup }), { url: `http://a.test:${redirecting.port}/go` });
    expect(reported.isError).toBeFalsy();
    expect(reported.output).toContain(`Location: http://b.test:${server.port}/there`);
    expect(reported.output).toContain(`Call fetch_url with http://b.test:${server.port}/there if you still need it.`);
    expect(server.requests).toEqual([]);

    const asked: string[] = [];
    const following = localTool({ lookup, followRedirect: (from, to) => (asked.push(`${from.host} -> ${to.host}`), true) });
    const followed = await run(following, { url: `http://a.test:${redirecting.port}/go` });
    expect(followed.output.endsWith('\n\nother host')).toBe(true);
    expect(asked).toEqual([`a.test:${redirecting.port} -> b.test:${server.port}`]);
    expect(server.hosts).toEqual([`b.test:${server.port}`]);
  });
});

describe('fetch_url: addresses', () => {
  const refusedByDefault: [string, string][] = [
    ['http://127.0.0.1:PORT/', 'is a loopback address (127.0.0.1)'],
    ['http://[::1]:PORT/', 'is a loopback address (::1)'],
    ['http://169.254.169.254/latest/meta-data/', 'is a cloud metadata address (169.254.169.254)'],
    ['http://[fd00:ec2::254]/latest/meta-data/', 'is a cloud metadata address (fd00:ec2::254)'],
    ['http://0x7f000001:PORT/', 'is a loopback address (127.0.0.1)'],
    ['http://2130706433:PORT/', 'is a loopback address (127.0.0.1)'],
    ['http://0177.0.0.1:PORT/', 'is a loopback address (127.0.0.1)'],
    ['http://127.1:PORT/', 'is a loopback address (127.0.0.1)'],
    ['http://[::ffff:127.0.0.1]:PORT/', 'is a loopback address (::ffff:7f00:1)'],
    ['http://0.0.0.0:PORT/', 'is an unspecified address (0.0.0.0)'],
    ['http://[::]:PORT/', 'is an unspecified address (::)'],
    ['http://10.1.2.3/', 'is a private address (10.1.2.3)'],
    ['http://192.168.1.1/', 'is a private address (192.168.1.1)'],
    ['http://172.16.0.1/', 'is a private address (172.16.0.1)'],
    ['http://100.64.0.1/', 'is a carrier-grade NAT address (100.64.0.1)'],
    ['http://[fe80::1]/', 'is a link-local address (fe80::1)'],
    ['http://[fc00::1]/', 'is a unique-local address (fc00::1)'],
    ['http://224.0.0.1/', 'is a multicast address (224.0.0.1)'],
    ['http://localhost:PORT/', 'resolves to 127.0.0.1, a loopback address'],
  ];

  it.each(refusedByDefault)('refuses %s by default', async (template, expected) => {
    const server = await serve(routes({ '/': [200, { 'content-type': 'text/plain' }, 'local service'] }));
    const url = template.replace('PORT', String(server.port));
    const error = await failure(run(fetchUrl, { url }));
    expect(error.message).toContain(expected);
    expect(error.message).toContain('; refused.');
    expect(server.requests).toEqual([]);
  });

  it('refuses a host whose addresses mix public and private ones', async () => {
    const tool = createFetchUrl({ lookup: fakeDns({ 'mixed.test': ['93.184.216.34', '10.0.0.7'] }) });
    const error = await failure(run(tool, { url: 'http://mixed.test/' }));
    expect(error.message).toContain('http://mixed.test/ resolves to 10.0.0.7, a private address; refused.');
  });

  it('asks allowPrivateHosts with the host, the address and its range', async () => {
    const server = await serve(routes({ '/': [200, { 'content-type': 'text/plain' }, 'dev server'] }));
    const asked: unknown[] = [];
    const tool = createFetchUrl({
      lookup: fakeDns({ 'dev.test': ['127.0.0.1'] }),
      allowPrivateHosts: (host, address) => (asked.push({ host, ...address }), host === 'dev.test'),
    });
    expect((await run(tool, { url: `http://dev.test:${server.port}/` })).output.endsWith('dev server')).toBe(true);
    expect(asked).toEqual([{ host: 'dev.test', address: '127.0.0.1', range: 'loopback' }]);
    expect(server.hosts).toEqual([`dev.test:${server.port}`]);
  });

  it('connects to the address it checked, even when DNS answers differently the second time (rebinding)', async () => {
    const checked = await serve(routes({ '/': [200, { 'content-type': 'text/plain' }, 'checked address'] }));
    // Same port, other loopback address: where a second DNS answer would send the request.
    const rebound = await serve(routes({ '/': [200, { 'content-type': 'text/plain' }, 'rebound address'] }), '127.0.0.2', checked.port);
    const calls: string[] = [];
    let answer = '127.0.0.1';
    const lookup: LookupAll = async (hostname) => {
      calls.push(hostname);
      const address = answer;
      answer = '127.0.0.2';
      return [{ address, family: 4 }];
    };
    const tool = createFetchUrl({ lookup, allowPrivateHosts: (_host, { address }) => address === '127.0.0.1' });
    const result = await run(tool, { url: `http://rebind.test:${checked.port}/` });
    expect(result.output.endsWith('checked address')).toBe(true);
    expect(calls).toEqual(['rebind.test']);
    expect(rebound.requests).toEqual([]);
  });

  it('reports a host that does not resolve', async () => {
    const tool = createFetchUrl({ lookup: fakeDns({}) });
    const error = await failure(run(tool, { url: 'https://no-such-host.test/docs' }));
    expect(error.message).toBe(
      'fetch_url: https://no-such-host.test/docs has a host, no-such-host.test, that cannot be resolved (ENOTFOUND): no such host; check the spelling of the URL.',
    );
  });

  it('reports a refused connection', async () => {
    const server = await serve(routes({}));
    const { port } = server;
    await server.close();
    const error = await failure(run(localTool(), { url: `http://127.0.0.1:${port}/` }));
    expect(error.message).toBe(
      `fetch_url: the connection to 127.0.0.1:${port} was refused (ECONNREFUSED): nothing is listening there. Check the URL and its port.`,
    );
  });
});

describe('fetch_url: URLs', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/file.txt', 'data:text/plain,hello', 'javascript:alert(1)'])(
    'refuses %s',
    async (url) => {
      const error = await failure(run(fetchUrl, { url }));
      expect(error.message).toMatch(/^fetch_url: \S+ uses the \w+: scheme; fetch_url only fetches http:\/\/ and https:\/\/ URLs/);
    },
  );

  it('refuses what is not a URL', async () => {
    const error = await failure(run(fetchUrl, { url: 'docs/setup.html' }));
    expect(error.message).toBe(
      'fetch_url: "docs/setup.html" is not a valid URL; pass an absolute http:// or https:// URL, e.g. https://example.com/page.',
    );
  });

  it('refuses credentials in the URL', async () => {
    const error = await failure(run(fetchUrl, { url: 'https://user:pw@example.com/' }));
    expect(error.message).toContain('carries a user name or password; fetch_url does not send credentials');
  });

  it('rejects max_chars above 200,000 in its schema', () => {
    expect(fetchUrl.parameters.safeParse({ url: 'https://example.com', max_chars: 200_001 }).success).toBe(false);
  });

  it('is an egress tool whose subject is the URL and whose result taints the session', () => {
    const args = { url: 'https://docs.example.com/a?b=1', reason: 'read the API docs' };
    expect(fetchUrl.risk).toBe('egress');
    expect(fetchUrl.subject?.(args)).toEqual({ kind: 'url', url: 'https://docs.example.com/a?b=1' });
    expect(fetchUrl.taints?.(args)).toBe('read https://docs.example.com/a?b=1 (outside content)');
    expect(fetchUrl.summarize(args)).toBe('Fetch https://docs.example.com/a?b=1 (read the API docs)');
  });
});

describe('fetch_url: time', () => {
  it('gives up on a server that does not answer within the timeout', async () => {
    const server = await serve(() => undefined);
    const started = performance.now();
    const error = await failure(run(localTool({ timeoutMs: 300 }), { url: `${server.origin}/slow` }));
    expect(error.message).toBe(
      `fetch_url: ${server.origin}/slow did not finish loading within 0.3 s; stopped. The server is slow or not answering; try again later or another source.`,
    );
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('gives up on a body that stalls after the headers', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('the start');
    });
    const error = await failure(run(localTool({ timeoutMs: 300 }), { url: `${server.origin}/stall` }));
    expect(error.message).toContain('did not finish loading within 0.3 s');
  });

  it('stops at once when the session is stopped', async () => {
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const server = await serve(() => reached());
    const ctx = context();
    const running = run(localTool(), { url: `${server.origin}/hang` }, ctx);
    await arrived;
    const started = performance.now();
    ctx.abort(new Error('stopped by the person'));
    const error = await failure(running);
    expect(error.message).toBe(`fetch_url: stopped before ${server.origin}/hang finished loading.`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('fetch_url: TLS', () => {
  let tlsDir: string;
  let key: Buffer;
  let cert: Buffer;

  beforeAll(() => {
    tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-fetch-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=tls.test',
        '-addext',
        'subjectAltName=DNS:tls.test',
        '-keyout',
        path.join(tlsDir, 'key.pem'),
        '-out',
        path.join(tlsDir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    key = fs.readFileSync(path.join(tlsDir, 'key.pem'));
    cert = fs.readFileSync(path.join(tlsDir, 'cert.pem'));
  });
  afterAll(() => fs.rmSync(tlsDir, { recursive: true, force: true }));

  it('refuses an untrusted certificate with a TLS error, having sent the host name (SNI) and not the pinned address', async () => {
    const servernames: string[] = [];
    let requests = 0;
    const server = https.createServer(
      {
        key,
        cert,
        SNICallback: (servername, done) => {
          servernames.push(servername);
          done(null, tls.createSecureContext({ key, cert }));
        },
      },
      (_request, response) => {
        requests++;
        response.end('should not be read');
      },
    );
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) });
    const port = (server.address() as AddressInfo).port;

    const tool = localTool({ lookup: fakeDns({ 'tls.test': ['127.0.0.1'] }) });
    const error = await failure(run(tool, { url: `https://tls.test:${port}/` }));
    expect(error.message).toMatch(
      new RegExp(
        `^fetch_url: the secure \\(TLS\\) connection to tls\\.test:${port} failed \\((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)`,
      ),
    );
    expect(servernames).toEqual(['tls.test']);
    expect(requests).toBe(0);
  });
});

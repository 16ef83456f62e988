import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A web page on 127.0.0.1 for fetch_url, counting the requests it gets. */
export async function startPageServer(html = '<html><body><h1>Release notes</h1><p>Version 2 is out.</p></body></html>') {
  let hits = 0;
  const server = http.createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/notes`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

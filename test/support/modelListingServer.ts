import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A model server's listing on 127.0.0.1, in the shape a test picks: OpenAI-compatible, Anthropic,
 * Ollama (with /api/show), LM Studio (with /api/v1/models), or a failure (401, 404, HTML, silence,
 * a redirect). It records what each request carried, so a test can see where a key went.
 */
export type ListingKind =
  | { kind: 'openai'; models: Record<string, unknown>[] }
  | { kind: 'anthropic'; models: Record<string, unknown>[] }
  | { kind: 'ollama'; models: { id: string; capabilities: string[] }[] }
  | { kind: 'lmstudio'; models: { id: string; type?: string; trainedForTools?: boolean }[] }
  | { kind: 'status'; status: number; body: string; contentType?: string }
  | { kind: 'html' }
  | { kind: 'silent' }
  | { kind: 'redirect'; to: string };

export interface SeenRequest {
  method: string;
  url: string;
  authorization?: string;
  apiKey?: string;
  anthropicVersion?: string;
}

export interface ListingServer {
  /** The base URL a person would type (ending in /v1). */
  baseUrl: string;
  origin: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startListingServer(listing: ListingKind, port = 0): Promise<ListingServer> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((request, response) => {
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      ...(typeof request.headers['x-api-key'] === 'string' ? { apiKey: request.headers['x-api-key'] } : {}),
      ...(typeof request.headers['anthropic-version'] === 'string' ? { anthropicVersion: request.headers['anthropic-version'] } : {}),
    });
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => answer(listing, request, body, response));
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${actual}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    port: actual,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function json(response: http.ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

function answer(listing: ListingKind, request: http.IncomingMessage, body: string, response: http.ServerResponse): void {
  const path = (request.url ?? '').split('?')[0];
  switch (listing.kind) {
    case 'silent':
      return; // never answers: the test's timeout decides
    case 'html':
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><html><body>Welcome to nginx!</body></html>');
      return;
    case 'status':
      response.writeHead(listing.status, { 'content-type': listing.contentType ?? 'application/json' });
      response.end(listing.body);
      return;
    case 'redirect':
      response.writeHead(302, { location: listing.to });
      response.end();
      return;
    case 'openai':
      if (path === '/v1/models') return json(response, 200, { object: 'list', data: listing.models });
      return json(response, 404, { error: { message: `no route ${path}` } });
    case 'anthropic':
      if (path === '/v1/models') {
        if (!request.headers['x-api-key'])
          return json(response, 401, { type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' } });
        return json(response, 200, { data: listing.models, has_more: false });
      }
      return json(response, 404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
    case 'ollama':
      if (path === '/v1/models')
        return json(response, 200, {
          object: 'list',
          data: listing.models.map((m) => ({ id: m.id, object: 'model', owned_by: 'library' })),
        });
      if (path === '/api/show' && request.method === 'POST') {
        const asked = (JSON.parse(body || '{}') as { model?: string }).model;
        const model = listing.models.find((m) => m.id === asked);
        if (!model) return json(response, 404, { error: `model '${asked}' not found` });
        return json(response, 200, { capabilities: model.capabilities, details: { family: 'llama' } });
      }
      return json(response, 404, { error: 'not found' });
    case 'lmstudio':
      if (path === '/v1/models')
        return json(response, 200, {
          object: 'list',
          data: listing.models.map((m) => ({ id: m.id, object: 'model', owned_by: 'organization_owner' })),
        });
      if (path === '/api/v1/models') {
        return json(response, 200, {
          models: listing.models.map((m) => ({
            type: m.type ?? 'llm',
            key: m.id,
            display_name: m.id,
            max_context_length: 32768,
            ...(m.trainedForTools !== undefined ? { capabilities: { vision: false, trained_for_tool_use: m.trainedForTools } } : {}),
          })),
        });
      }
      return json(response, 404, { error: 'not found' });
  }
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function refusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

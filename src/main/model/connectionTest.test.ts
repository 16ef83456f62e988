import { afterEach, describe, expect, it } from 'vitest';
import { refusedPort, startListingServer, type ListingKind, type ListingServer } from '../../../test/support/modelListingServer';
import { listingUrl, testConnection } from './connectionTest';

// "Test connection" against real HTTP servers on 127.0.0.1 standing in for each kind of model server,
// and for each way one can fail.

const servers: ListingServer[] = [];
async function serve(listing: ListingKind): Promise<ListingServer> {
  const server = await startListingServer(listing);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('testConnection: the models a server lists', () => {
  it('lists an OpenAI-compatible server’s models, marking tools only where the listing says', async () => {
    const server = await serve({
      kind: 'openai',
      models: [
        { id: 'router/tools', context_length: 32768, supported_parameters: ['tools', 'temperature'] },
        { id: 'router/plain', supported_parameters: ['temperature'] },
        { id: 'gateway/no', supports_tools: false },
        { id: 'text-embedding-3', type: 'embeddings' },
        { id: 'gpt-plain' },
      ],
    });
    const result = await testConnection({ baseUrl: `${server.baseUrl}/`, api: 'chat', apiKey: 'sk-typed' });
    expect(result).toEqual({
      ok: true,
      url: `${server.baseUrl}/models`,
      sentKey: true,
      models: [
        { id: 'router/tools', tools: 'yes', contextWindow: 32768 },
        { id: 'router/plain', tools: 'no', toolsNote: 'its supported_parameters do not include "tools"' },
        { id: 'gateway/no', tools: 'no', toolsNote: 'supports_tools: false' },
        { id: 'text-embedding-3', tools: 'no', toolsNote: 'it is an embedding model' },
        { id: 'gpt-plain', tools: 'unknown' },
      ],
    });
    expect(server.seen).toEqual([{ method: 'GET', url: '/v1/models', authorization: 'Bearer sk-typed' }]);
  });

  it('asks an Anthropic server at {root}/v1/models with its own headers, whether the base URL ends in /v1 or not', async () => {
    const server = await serve({ kind: 'anthropic', models: [{ id: 'claude-sonnet-4-6', type: 'model', max_input_tokens: 200000 }] });
    for (const baseUrl of [server.origin, `${server.origin}/v1`]) {
      const result = await testConnection({ baseUrl, api: 'anthropic', apiKey: 'sk-ant' });
      expect(result).toMatchObject({
        ok: true,
        url: `${server.origin}/v1/models?limit=1000`,
        models: [{ id: 'claude-sonnet-4-6', tools: 'unknown', contextWindow: 200000 }],
      });
    }
    expect(server.seen[0]).toEqual({ method: 'GET', url: '/v1/models?limit=1000', apiKey: 'sk-ant', anthropicVersion: '2023-06-01' });
    expect(server.seen[0]?.authorization).toBeUndefined();
    // No key: the server's 401 says so, and the message says none was sent.
    const bare = await testConnection({ baseUrl: server.origin, api: 'anthropic' });
    expect(bare).toMatchObject({ ok: false, failure: 'unauthorized', status: 401, sentKey: false });
    expect(bare.ok || bare.message).toMatch(/No API key was sent.*x-api-key header is required/);
  });

  it('asks a local Ollama which models can use tools (/api/show), and leaves the rest unknown', async () => {
    const server = await serve({
      kind: 'ollama',
      models: [
        { id: 'qwen3:8b', capabilities: ['completion', 'tools', 'thinking'] },
        { id: 'gemma3:4b', capabilities: ['completion', 'vision'] },
        { id: 'old:1b', capabilities: [] },
      ],
    });
    const result = await testConnection({ baseUrl: server.baseUrl, api: 'chat' }, { local: 'ollama' });
    expect(result.ok && result.models).toEqual([
      { id: 'qwen3:8b', tools: 'yes' },
      { id: 'gemma3:4b', tools: 'no', toolsNote: 'its capabilities do not include "tools"' },
      { id: 'old:1b', tools: 'unknown' },
    ]);
    // Not a local server: its /models alone, no /api/show.
    const plain = await testConnection({ baseUrl: server.baseUrl, api: 'chat' });
    expect(plain.ok && plain.models.map((m) => m.tools)).toEqual(['unknown', 'unknown', 'unknown']);
  });

  it('reads LM Studio’s own listing: trained for tools, not trained, embedding', async () => {
    const server = await serve({
      kind: 'lmstudio',
      models: [
        { id: 'qwen2.5-coder-7b', trainedForTools: true },
        { id: 'phi-2', trainedForTools: false },
        { id: 'nomic-embed', type: 'embedding' },
        { id: 'mystery' },
      ],
    });
    const result = await testConnection({ baseUrl: server.baseUrl, api: 'chat' }, { local: 'lmstudio' });
    expect(result.ok && result.models).toEqual([
      { id: 'qwen2.5-coder-7b', tools: 'yes', toolsNote: 'trained for tool use' },
      { id: 'phi-2', tools: 'unknown', toolsNote: 'not trained for tool use: calls may fail' },
      { id: 'nomic-embed', tools: 'no', toolsNote: 'it is an embedding model' },
      { id: 'mystery', tools: 'unknown' },
    ]);
  });
});

describe('testConnection: what failed', () => {
  it('refused: nothing listens on the port', async () => {
    for (const port of [await refusedPort(), await refusedPort()]) {
      const result = await testConnection({ baseUrl: `http://127.0.0.1:${port}/v1`, api: 'chat' });
      expect(result).toMatchObject({ ok: false, failure: 'refused', url: `http://127.0.0.1:${port}/v1/models` });
      expect(result.ok || result.message).toContain(`Nothing is listening at 127.0.0.1:${port}`);
    }
  });

  it('dns: a host name that does not resolve', async () => {
    const result = await testConnection({ baseUrl: 'http://no-such-model-host.invalid/v1', api: 'chat' }, { timeoutMs: 5000 });
    expect(result).toMatchObject({ ok: false, failure: 'dns' });
    expect(result.ok || result.message).toMatch(/no-such-model-host\.invalid does not resolve/);
  });

  it('401 and 403: the key refused, or none sent', async () => {
    const refused = await serve({ kind: 'status', status: 401, body: '{"error":{"message":"Incorrect API key provided"}}' });
    const withKey = await testConnection({ baseUrl: refused.baseUrl, api: 'chat', apiKey: 'sk-wrong' });
    expect(withKey).toMatchObject({ ok: false, failure: 'unauthorized', status: 401 });
    expect(withKey.ok || withKey.message).toBe(
      'The API key was refused (401): check it, or type another. The server said: Incorrect API key provided',
    );
    const withoutKey = await testConnection({ baseUrl: refused.baseUrl, api: 'chat' });
    expect(withoutKey.ok || withoutKey.message).toMatch(/^No API key was sent/);
    const forbidden = await serve({ kind: 'status', status: 403, body: '{"error":"forbidden"}' });
    expect(await testConnection({ baseUrl: forbidden.baseUrl, api: 'responses', apiKey: 'k' })).toMatchObject({
      failure: 'unauthorized',
      status: 403,
    });
  });

  it('404: a wrong path, with a hint for each API', async () => {
    const server = await serve({ kind: 'openai', models: [] });
    const missingV1 = await testConnection({ baseUrl: server.origin, api: 'chat' });
    expect(missingV1).toMatchObject({ ok: false, failure: 'not_found', status: 404 });
    expect(missingV1.ok || missingV1.message).toMatch(/does not exist on this server \(404\).*usually end in \/v1/);
    const anthropic = await testConnection({ baseUrl: `${server.origin}/wrong`, api: 'anthropic', apiKey: 'k' });
    expect(anthropic.ok || anthropic.message).toMatch(/lists models at \/v1\/models/);
  });

  it('timeout: a server that never answers', async () => {
    const server = await serve({ kind: 'silent' });
    const started = Date.now();
    const result = await testConnection({ baseUrl: server.baseUrl, api: 'chat' }, { timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, failure: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('not JSON: a web page, or plain text; JSON that is not a listing', async () => {
    const page = await serve({ kind: 'html' });
    const html = await testConnection({ baseUrl: page.baseUrl, api: 'chat' });
    expect(html).toMatchObject({ ok: false, failure: 'not_json' });
    expect(html.ok || html.message).toContain('not with JSON (a web page)');
    const text = await serve({ kind: 'status', status: 200, body: 'OK', contentType: 'text/plain' });
    expect(await testConnection({ baseUrl: text.baseUrl, api: 'chat' })).toMatchObject({ failure: 'not_json' });
    const other = await serve({ kind: 'status', status: 200, body: '{"status":"up"}' });
    expect(await testConnection({ baseUrl: other.baseUrl, api: 'chat' })).toMatchObject({ failure: 'not_a_listing' });
  });

  it('other statuses say what the server said', async () => {
    const server = await serve({ kind: 'status', status: 503, body: '{"error":{"message":"overloaded"}}' });
    const result = await testConnection({ baseUrl: server.baseUrl, api: 'chat' });
    expect(result).toMatchObject({ ok: false, failure: 'http', status: 503 });
    expect(result.ok || result.message).toMatch(/answered 503\. The server said: overloaded/);
  });

  it('tls: https spoken to a plain http server', async () => {
    const server = await serve({ kind: 'openai', models: [] });
    const result = await testConnection({ baseUrl: `https://127.0.0.1:${server.port}/v1`, api: 'chat' });
    expect(result).toMatchObject({ ok: false, failure: 'tls' });
  });

  it('never follows a redirect to another address with the key, and follows one on the same address', async () => {
    const elsewhere = await serve({ kind: 'openai', models: [{ id: 'stolen' }] });
    const redirecting = await serve({ kind: 'redirect', to: `${elsewhere.baseUrl}/models` });
    const result = await testConnection({ baseUrl: redirecting.baseUrl, api: 'chat', apiKey: 'sk-secret' });
    expect(result).toMatchObject({ ok: false, failure: 'redirect', status: 302 });
    expect(result.ok || result.message).toContain(`sends requests on to ${elsewhere.baseUrl}/models`);
    expect(elsewhere.seen).toEqual([]);

    const target = await serve({ kind: 'openai', models: [{ id: 'here' }] });
    const sameOrigin = await serve({ kind: 'redirect', to: `${target.origin}/v1/models` });
    // A different port is a different address too.
    expect(await testConnection({ baseUrl: sameOrigin.baseUrl, api: 'chat', apiKey: 'k' })).toMatchObject({ failure: 'redirect' });
    expect(target.seen).toEqual([]);
  });

  it('puts the listing where each API keeps it', () => {
    expect(listingUrl('https://platform.ai.gloo.com/ai/v2/direct', 'chat')).toBe('https://platform.ai.gloo.com/ai/v2/direct/models');
    expect(listingUrl('https://platform.ai.gloo.com/ai/v2/direct/anthropic', 'anthropic')).toBe(
      'https://platform.ai.gloo.com/ai/v2/direct/anthropic/v1/models?limit=1000',
    );
    expect(listingUrl('https://api.anthropic.com/v1/', 'anthropic')).toBe('https://api.anthropic.com/v1/models?limit=1000');
  });
});

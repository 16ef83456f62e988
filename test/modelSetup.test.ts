import { afterEach, describe, expect, it } from 'vitest';
import { findLocalServers, localPortsFromEnv, localServerAt } from '../src/main/model/localServers';
import { createModelSetupHandlers, keyForTypedAddress, keyVariablesSet } from '../src/main/app/model/modelSetupHandlers';
import type { ModelConfig } from '../src/main/model/config';
import { ConnectionTestRequest } from '../src/shared/modelSetup';
import { refusedPort, startListingServer, type ListingServer } from './support/modelListingServer';

// First run: finding Ollama and LM Studio on this machine, and testing a typed address without
// sending a stored key anywhere it was not saved for.

const servers: ListingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const saved: ModelConfig = { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-stored', model: 'gpt-5.1-codex', api: 'responses' };

describe('local model servers', () => {
  it('finds an Ollama and an LM Studio on their ports of 127.0.0.1, with the models they list', async () => {
    const ollama = await startListingServer({ kind: 'ollama', models: [{ id: 'qwen3:8b', capabilities: ['completion', 'tools'] }] });
    const lmstudio = await startListingServer({ kind: 'lmstudio', models: [{ id: 'qwen2.5-coder-7b' }] });
    servers.push(ollama, lmstudio);
    const found = await findLocalServers({ ollama: ollama.port, lmstudio: lmstudio.port });
    expect(found).toEqual([
      { id: 'ollama', name: 'Ollama', baseUrl: `http://127.0.0.1:${ollama.port}/v1`, models: ['qwen3:8b'] },
      { id: 'lmstudio', name: 'LM Studio', baseUrl: `http://127.0.0.1:${lmstudio.port}/v1`, models: ['qwen2.5-coder-7b'] },
    ]);
  });

  it('finds nothing where nothing answers a listing: a closed port, a web page, a server that hangs', async () => {
    const page = await startListingServer({ kind: 'html' });
    const silent = await startListingServer({ kind: 'silent' });
    servers.push(page, silent);
    const started = Date.now();
    expect(await findLocalServers({ ollama: await refusedPort(), lmstudio: page.port })).toEqual([]);
    expect(await findLocalServers({ ollama: silent.port, lmstudio: await refusedPort() }, { timeoutMs: 200 })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('takes other ports only from the test variable, and only numbers for the two names', () => {
    expect(localPortsFromEnv({})).toEqual({ ollama: 11434, lmstudio: 1234 });
    expect(localPortsFromEnv({ TETHER_TEST_LOCAL_MODEL_PORTS: 'ollama=43001, lmstudio=43002' })).toEqual({
      ollama: 43001,
      lmstudio: 43002,
    });
    expect(localPortsFromEnv({ TETHER_TEST_LOCAL_MODEL_PORTS: 'ollama=abc,evil=80,lmstudio=70000' })).toEqual({
      ollama: 11434,
      lmstudio: 1234,
    });
  });

  it('knows a local server’s address only on 127.0.0.1 or localhost, over http, on its port', () => {
    const ports = { ollama: 11434, lmstudio: 1234 };
    expect(localServerAt('http://127.0.0.1:11434/v1', ports)).toBe('ollama');
    expect(localServerAt('http://localhost:1234/v1', ports)).toBe('lmstudio');
    expect(localServerAt('http://192.168.1.5:11434/v1', ports)).toBeUndefined();
    expect(localServerAt('https://127.0.0.1:11434/v1', ports)).toBeUndefined();
    expect(localServerAt('http://127.0.0.1:8080/v1', ports)).toBeUndefined();
  });
});

describe('Test connection through its handler', () => {
  it('sends the stored key only to the saved server’s own address; elsewhere the provider’s variable or nothing', () => {
    const env = { GLOO_API_KEY: 'gloo-env', OPENAI_API_KEY: 'sk-env' };
    expect(keyForTypedAddress('https://api.openai.com/v1/', saved, env)).toBe('sk-stored');
    expect(keyForTypedAddress('https://platform.ai.gloo.com/ai/v2/direct', saved, env)).toBe('gloo-env');
    expect(keyForTypedAddress('https://evil.example/v1', saved, env)).toBeUndefined();
    expect(keyForTypedAddress('http://api.openai.com/v1', saved, env)).toBeUndefined(); // http: another origin, and no key in clear
    // Another port is another address: not the stored key, but the host's own variable is still OpenAI's.
    expect(keyForTypedAddress('https://api.openai.com:8443/v1', saved, env)).toBe('sk-env');
    expect(keyForTypedAddress('https://api.openai.com:8443/v1', saved, {})).toBeUndefined();
  });

  it('tests a typed address with no key, and with a typed one, never echoing the key back', async () => {
    const server = await startListingServer({ kind: 'openai', models: [{ id: 'm1' }] });
    servers.push(server);
    const handlers = createModelSetupHandlers({ savedModel: () => saved, localPorts: { ollama: 1, lmstudio: 2 }, env: {} });
    const bare = await handlers['model:test']({ baseUrl: server.baseUrl, api: 'chat' });
    expect(bare).toMatchObject({ ok: true, sentKey: false, models: [{ id: 'm1', tools: 'unknown' }] });
    const typed = await handlers['model:test']({ baseUrl: server.baseUrl, api: 'chat', apiKey: 'sk-typed-here' });
    expect(typed.sentKey).toBe(true);
    expect(JSON.stringify(typed)).not.toContain('sk-typed-here');
    expect(server.seen.map((request) => request.authorization)).toEqual([undefined, 'Bearer sk-typed-here']);
  });

  it('refuses anything but an http or https address before any request', () => {
    for (const baseUrl of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://x/v1', 'not a url', '127.0.0.1:11434', '']) {
      expect(ConnectionTestRequest.safeParse({ baseUrl, api: 'chat' }).success, baseUrl).toBe(false);
    }
    expect(ConnectionTestRequest.safeParse({ baseUrl: 'http://127.0.0.1:11434/v1', api: 'chat' }).success).toBe(true);
  });

  it('names the key variables that are set, never their values', () => {
    expect(keyVariablesSet({ GLOO_API_KEY: 'g', OPENAI_API_KEY: ' ', PATH: '/bin' })).toEqual(['GLOO_API_KEY']);
  });
});

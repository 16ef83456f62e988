import { describe, expect, it } from 'vitest';
import type { McpServerView } from '../../src/shared/contract';
import { FakeApi, settle } from './fakeApi';
import { harness } from './storeHarness';

// The settings screen's MCP list in the store: loaded with Settings, kept current by mcp:changed.

const server = (overrides: Partial<McpServerView> = {}): McpServerView => ({
  id: 'user:github',
  name: 'github',
  source: 'user',
  projectId: null,
  file: '/data/settings.json',
  transport: 'stdio',
  target: 'npx -y server-github',
  state: 'idle',
  restarts: 0,
  tools: [],
  stderr: [],
  ...overrides,
});

describe('the MCP servers in the store', () => {
  it('loads them when Settings opens, and replaces an entry on mcp:changed', async () => {
    const api = new FakeApi({
      'settings:get': () => ({
        baseUrl: 'http://x',
        api: 'chat',
        model: 'm',
        hasApiKey: false,
        maxSteps: 50,
        mode: 'ask',
        outsideContent: 'ask',
        modelConfigured: true,
        keyVariables: [],
        keyKept: 'this-process',
      }),
      'rules:list': () => [],
      'mcp:servers': () => [server(), server({ id: 'user:docs', name: 'docs' })],
    });
    const { store } = harness(api);
    store.getState().showSettings();
    await settle();
    expect(store.getState().mcpStatus).toBe('ready');
    expect(store.getState().mcpServers.map((s) => `${s.name}:${s.state}`)).toEqual(['github:idle', 'docs:idle']);

    api.emit('mcp:changed', server({ state: 'failed', error: 'The MCP server "github" could not start.' }));
    api.emit('mcp:changed', server({ id: 'project:/w:repo', name: 'repo', source: 'project', projectId: 'p1', state: 'untrusted' }));
    expect(store.getState().mcpServers.map((s) => `${s.name}:${s.state}`)).toEqual(['github:failed', 'docs:idle', 'repo:untrusted']);
  });

  it("restarts a project's server by name and project, and says so when it still fails", async () => {
    const api = new FakeApi({
      'mcp:restart': () =>
        server({ id: 'project:/w:repo', name: 'repo', source: 'project', projectId: 'p1', state: 'failed', error: 'no' }),
    });
    const { store } = harness(api);
    await store.getState().restartMcpServer(server({ id: 'project:/w:repo', name: 'repo', source: 'project', projectId: 'p1' }));
    expect(api.callsTo('mcp:restart')).toEqual([{ name: 'repo', projectId: 'p1' }]);
    expect(store.getState().mcpRestarting).toEqual([]);
    expect(store.getState().mcpServers[0]?.state).toBe('failed');
    expect(store.getState().toasts.at(-1)?.message).toBe('The MCP server "repo" did not start; its error is shown in Settings.');
  });
});

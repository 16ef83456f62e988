import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayload, McpServerView } from '../src/shared/contract';
import type { AppServices } from '../src/main/app/appServices';
import { createServices } from '../src/main/app/createServices';
import { McpHub } from '../src/main/mcp/mcpHub';
import { memoryKeyStore } from '../src/main/app/model/keyStore';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { alive, processesIn, until } from './support/processes';

// The contract's MCP requests and event, as the settings screen uses them, with a real stdio server.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const flakyBin = path.join(root, 'test/fixtures/mcp/flakyServer.mjs');

const opened: AppServices[] = [];
afterEach(async () => {
  for (const services of opened.splice(0)) await services.close();
  vi.unstubAllEnvs();
  removeTempDirs();
});

function setUp() {
  const dataDir = tempDir('tether-data-');
  const pids = path.join(tempDir('tether-pids-'), 'pids');
  const flaky = { command: process.execPath, args: [flakyBin], env: { FLAKY_PID_FILE: pids } };
  writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ mcpServers: { mine: flaky } }));
  const workspace = fixtureRepo('failing-test');
  mkdirSync(path.join(workspace, '.tether'), { recursive: true });
  // A project's server runs inside the sandbox, where this /tmp is not the one the test reads: no pid file.
  writeFileSync(path.join(workspace, '.tether', 'settings.json'), JSON.stringify({ mcpServers: { theirs: { ...flaky, env: {} } } }));
  const services = createServices({ dataDir, host: 'serve', keyStore: memoryKeyStore('test-key') });
  opened.push(services);
  const changes: McpServerView[] = [];
  services.subscribe(<E extends EventName>(name: E, payload: EventPayload<E>) => {
    if (name === 'mcp:changed') changes.push(payload as McpServerView);
  });
  const lastPid = () => Number(readFileSync(pids, 'utf8').trim().split('\n').at(-1));
  return { services, handlers: services.handlers, workspace, changes, lastPid };
}

describe('mcp:servers, mcp:restart and mcp:changed', () => {
  it("lists the person's and a project's servers; starts one on request and reports each change", async () => {
    const { handlers, workspace, changes } = setUp();
    const project = await handlers['projects:open']({ path: workspace });
    const listed = await handlers['mcp:servers']({});
    expect(listed.map((server) => [server.name, server.source, server.state, server.projectId])).toEqual([
      ['mine', 'user', 'idle', null],
      ['theirs', 'project', 'untrusted', project.id],
    ]);

    const started = await handlers['mcp:restart']({ name: 'mine' });
    expect(started).toMatchObject({ name: 'mine', state: 'ready', tools: [{ name: 'ping', modelName: 'mcp__mine__ping' }] });
    expect(started.stderr[0]).toMatch(/^flaky server \d+ up$/);
    expect(changes.map((change) => `${change.name}:${change.state}`)).toEqual(['mine:starting', 'mine:ready']);
  });

  it("refuses to start an untrusted folder's server; trusting starts it, untrusting stops it", async () => {
    const { handlers, workspace, changes } = setUp();
    const project = await handlers['projects:open']({ path: workspace });
    await expect(handlers['mcp:restart']({ name: 'theirs', projectId: project.id })).rejects.toThrow(
      /belongs to a folder you have not trusted; trust the folder to start it/,
    );

    await handlers['projects:trust']({ projectId: project.id, trusted: true });
    expect(changes.at(-1)).toMatchObject({ name: 'theirs', state: 'idle', projectId: project.id });
    expect(await handlers['mcp:restart']({ name: 'theirs', projectId: project.id })).toMatchObject({ state: 'ready', source: 'project' });
    // Found by its folder: inside the sandbox its own process id is its namespace's.
    const running = () => processesIn(realpathSync(workspace), /flakyServer/);
    expect(running()).toHaveLength(1);

    await handlers['projects:trust']({ projectId: project.id, trusted: false });
    await until(() => running().length === 0);
    expect((await handlers['mcp:servers']({ projectId: project.id })).find((server) => server.name === 'theirs')?.state).toBe('untrusted');
  });

  it('names what is missing for an unknown server', async () => {
    const { handlers } = setUp();
    await expect(handlers['mcp:restart']({ name: 'nope' })).rejects.toThrow(
      'There is no MCP server "nope" in your settings; it may have been removed.',
    );
  });

  it('stops its servers when the host closes', async () => {
    const { services, handlers, lastPid } = setUp();
    await handlers['mcp:restart']({ name: 'mine' });
    const pid = lastPid();
    await services.close();
    opened.splice(0);
    await until(() => !alive(pid));
  });
});

describe('a server the managed policy does not allow', () => {
  function policyAllowing(names: string[]): string {
    const file = path.join(tempDir('tether-policy-'), 'managed-settings.json');
    writeFileSync(file, JSON.stringify({ allowedMcpServers: names }));
    vi.stubEnv('TETHER_MANAGED_SETTINGS', file);
    return file;
  }

  it("cannot be started from Settings' Start button, and Settings says why", async () => {
    const policy = policyAllowing(['github']);
    const { handlers, workspace } = setUp();
    const opened = await handlers['projects:open']({ path: workspace });
    const project = await handlers['projects:trust']({ projectId: opened.id, trusted: true });
    const listed = await handlers['mcp:servers']({});
    const mine = listed.find((server) => server.name === 'mine');
    expect(mine).toMatchObject({
      state: 'failed',
      error: expect.stringContaining(`the managed policy ${policy} allows only the MCP servers github`),
    });
    await expect(handlers['mcp:restart']({ name: 'mine' })).rejects.toThrow(`the managed policy ${policy}`);
    // A trusted project's server is held by the policy too.
    await expect(handlers['mcp:restart']({ name: 'theirs', projectId: project.id })).rejects.toThrow(`the managed policy ${policy}`);
  });

  it('is not started by the hub even when handed a spec that carries no problem', async () => {
    const policy = policyAllowing([]);
    const hub = new McpHub();
    const status = await hub.restart({
      id: 'user:sneaky',
      name: 'sneaky',
      source: 'user',
      file: 'settings.json',
      config: { command: process.execPath, args: [flakyBin] },
    });
    await hub.close();
    expect(status).toMatchObject({ state: 'failed', error: expect.stringContaining(`the managed policy ${policy}`) });
    expect(status.stderr).toEqual([]);
  });
});

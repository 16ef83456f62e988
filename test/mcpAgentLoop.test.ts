import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';
import { eventsOf } from './support/events';

// The real loop and permission engine with a real MCP server (server-everything over stdio),
// configured in the person's settings or the project's, against the scripted model over HTTP.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const everything = {
  command: process.execPath,
  args: [path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

let core: Core | undefined;
let server: ScriptedModel | undefined;

afterEach(async () => {
  await core?.mcp.close();
  core?.close();
  core = undefined;
  await server?.close();
  server = undefined;
  removeTempDirs();
});

async function run(settings: Record<string, unknown>, turns: Turn[], options: { workspace?: string; trust?: boolean } = {}) {
  const dataDir = tempDir('tether-data-');
  writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(settings));
  core = createCore({ dataDir });
  server = await startScriptedModel({ turns });
  const workspace = options.workspace ?? fixtureRepo('failing-test');
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'test-key', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace, task: 'use the tools', model, maxSteps: 10 });
  if (options.trust) {
    const project = core.store.projects.byPath(core.store.sessions.get(sessionId)!.workspace)!;
    core.store.projects.setTrusted(project.id, true);
  }
  const outcome = await core.run(sessionId, {
    model,
    broker: new HeadlessBroker({ unleashed: false }),
    signal: new AbortController().signal,
  });
  const events = core.store.events.list(sessionId);
  return { outcome, events, server };
}

const echo = (message: string): Turn => ({ toolCalls: [{ name: 'mcp__everything__echo', arguments: { message } }] });

describe('an MCP tool in the agent loop', () => {
  it("joins the model's tool list with the server's own schema", async () => {
    const { server } = await run({ mcpServers: { everything } }, [{ text: 'Nothing to do.' }]);
    const tools = server.requests[0]?.tools ?? [];
    const names = tools.map((tool) => String(tool.name));
    expect(names).toContain('read_file');
    expect(names).toContain('mcp__everything__echo');
    const spec = tools.find((tool) => tool.name === 'mcp__everything__echo');
    expect(spec?.parameters).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string', description: 'Message to echo' } },
      required: ['message'],
    });
  });

  it('asks permission for every call by default; headless, that is a denial, and nothing is tainted', async () => {
    const { events, server } = await run({ mcpServers: { everything } }, [echo('hi'), { text: 'I was not allowed.' }]);
    const [asked] = eventsOf(events, 'approval.asked');
    expect(asked).toMatchObject({
      tool: 'mcp__everything__echo',
      risk: 'egress',
      summary: 'everything › echo {"message":"hi"}',
      args: { message: 'hi' },
    });
    expect(asked?.reason).toMatch(/can send data out, and no rule allows it/);
    expect(asked?.allowAlways).toEqual({ rule: 'mcp__everything__echo' });
    expect(eventsOf(events, 'tool.finished')[0]).toMatchObject({ outcome: 'denied' });
    expect(eventsOf(events, 'tool.started')).toHaveLength(0);
    expect(eventsOf(events, 'session.tainted')).toHaveLength(0);
    expect(allToolOutputs(server.requests[1]!)[0]).toMatch(/denies every action that needs approval/);
  });

  it('runs with an allow rule, taints the session, and then the taint gate asks before the next call', async () => {
    const { events, server } = await run({ permissions: { allow: ['mcp__everything__*'] }, mcpServers: { everything } }, [
      echo('first'),
      echo('second'),
      { text: 'Done.' },
    ]);
    const finished = eventsOf(events, 'tool.finished');
    expect(finished[0]).toMatchObject({ name: 'mcp__everything__echo', outcome: 'ok', output: 'Echo: first', title: 'everything › echo' });
    expect(allToolOutputs(server.requests[1]!)).toEqual(['Echo: first']);
    expect(eventsOf(events, 'session.tainted')).toEqual([
      { type: 'session.tainted', callId: finished[0]!.callId, reason: 'results from the MCP server "everything"' },
    ]);

    // Its results are outside content, and an MCP call can send data out: the allow rule no longer suffices.
    const asked = eventsOf(events, 'approval.asked');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.taint).toBe('results from the MCP server "everything"');
    expect(finished[1]).toMatchObject({ outcome: 'denied' });
  });

  it("treats a read-only tool as reading only when the person trusts the server's hints: no ask, and no taint gate", async () => {
    const { events } = await run({ mcpServers: { everything: { ...everything, trustReadOnlyHints: true } } }, [
      echo('first'),
      echo('second'),
      { toolCalls: [{ name: 'mcp__everything__toggle-simulated-logging', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const finished = eventsOf(events, 'tool.finished');
    expect(finished.map((event) => event.outcome)).toEqual(['ok', 'ok', 'denied']);
    expect(eventsOf(events, 'session.tainted')).toHaveLength(1);
    // A tool without readOnlyHint still asks (and, tainted, with no "Allow always").
    expect(eventsOf(events, 'approval.asked').map((event) => event.tool)).toEqual(['mcp__everything__toggle-simulated-logging']);
  });

  it("starts a project's servers only once the folder is trusted", async () => {
    const workspace = fixtureRepo('failing-test');
    mkdirSync(path.join(workspace, '.tether'), { recursive: true });
    writeFileSync(path.join(workspace, '.tether', 'settings.json'), JSON.stringify({ mcpServers: { repoTools: everything } }));
    const untrusted = await run({}, [{ text: 'ok' }], { workspace });
    expect((untrusted.server.requests[0]?.tools ?? []).map((tool) => String(tool.name)).filter((name) => name.startsWith('mcp__'))).toEqual(
      [],
    );
    expect(core!.mcp.pids()).toEqual([]);
    await core!.mcp.close();
    core!.close();
    await server!.close();

    const trusted = await run({}, [{ text: 'ok' }], { workspace, trust: true });
    expect((trusted.server.requests[0]?.tools ?? []).map((tool) => String(tool.name))).toContain('mcp__repoTools__echo');
  });
});

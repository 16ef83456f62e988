import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from './fixtures/scriptedModel';
import { assertCliBuilt, cliSetUp, closeCliModels, runCli } from './support/cli';
import { removeTempDirs, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';
import { alive } from './support/processes';

// `tether run --mcp-config FILE` as a script would use it: the built CLI in a child process, a real
// MCP server over stdio, the scripted model over real HTTP.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const flakyBin = path.join(root, 'test/fixtures/mcp/flakyServer.mjs');

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await closeCliModels();
  removeTempDirs();
});

async function setUp(turns: Turn[], mcpServers: Record<string, unknown>) {
  const base = await cliSetUp(turns);
  const dir = tempDir('tether-mcp-cli-');
  const config = path.join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers }));
  return { ...base, flags: [...base.flags, '--mcp-config', config], dir, config };
}

const ping: Turn = { toolCalls: [{ name: 'mcp__flaky__ping', arguments: {} }] };

describe('tether run --mcp-config', () => {
  it("gives the model the servers' tools, runs a call with --unleashed, and leaves no server process behind", async () => {
    const pidFile = path.join(tempDir('tether-pids-'), 'pids');
    const { env, flags, server } = await setUp([ping, { text: 'Pinged.' }], {
      flaky: { command: process.execPath, args: [flakyBin], env: { FLAKY_PID_FILE: pidFile } },
    });
    const result = await runCli(['run', 'ping the server', '--json', '--unleashed', ...flags], env);
    expect(result.code).toBe(0);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(allToolOutputs(server.requests[1]!)).toEqual([`pong from ${pid}`]);
    expect(result.events.map((stored) => stored.event.type)).toContain('session.tainted');
    expect(alive(pid)).toBe(false);
  });

  it('denies the call headless without --unleashed', async () => {
    const { env, flags, server } = await setUp([ping, { text: 'Not allowed.' }], {
      flaky: { command: process.execPath, args: [flakyBin] },
    });
    const result = await runCli(['run', 'ping the server', '--json', ...flags], env);
    expect(result.code).toBe(0);
    expect(result.events.find((stored) => stored.event.type === 'approval.asked')?.event).toMatchObject({ tool: 'mcp__flaky__ping' });
    expect(allToolOutputs(server.requests[1]!)[0]).toMatch(
      /denies every action that needs approval unless it was started with --unleashed/,
    );
  });

  it('refuses a config with a bad entry before anything runs, naming the file and the server', async () => {
    const { env, flags, config, server } = await setUp([{ text: 'never' }], { broken: { command: 'node', args: 'server.js' } });
    const result = await runCli(['run', 'anything', ...flags], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tether: The MCP server "broken" in ${config} cannot be used: "args" must be a list of strings. Fix it in that file.\n`,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('says on stderr when a server cannot start, and runs on without its tools', async () => {
    const { env, flags, server } = await setUp([{ text: 'Fine without it.' }], { ghost: { command: 'no-such-mcp-server-xyz' } });
    const result = await runCli(['run', 'anything', ...flags], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/tether: The MCP server "ghost" could not start: the program was not found/);
    expect((server.requests[0]?.tools ?? []).map((tool) => String(tool.name)).filter((name) => name.startsWith('mcp__'))).toEqual([]);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMcpConfigFile, sessionMcpServers } from './loadMcpServers';

const made: string[] = [];
function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tether-mcp-load-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setUp() {
  const dataDir = folder();
  const workspace = folder();
  writeFileSync(
    path.join(dataDir, 'settings.json'),
    JSON.stringify({ mode: 'ask', mcpServers: { mine: { command: 'my-server' }, shared: { command: 'user-version' } } }),
  );
  mkdirSync(path.join(workspace, '.tether'));
  writeFileSync(
    path.join(workspace, '.tether', 'settings.json'),
    JSON.stringify({
      permissions: { deny: [] },
      mcpServers: { repo: { command: 'node', args: ['tools/server.js'] }, shared: { command: 'project-version' } },
    }),
  );
  return { dataDir, workspace };
}

describe('which MCP servers a session gets', () => {
  it("takes the person's servers and, in a trusted folder, the project's (the project wins a name clash)", () => {
    const { dataDir, workspace } = setUp();
    const specs = sessionMcpServers({ dataDir, workspace, projectTrusted: true });
    expect(specs.map((spec) => [spec.name, spec.source, spec.untrusted ?? false])).toEqual([
      ['mine', 'user', false],
      ['shared', 'project', false],
      ['repo', 'project', false],
    ]);
    expect(specs.find((spec) => spec.name === 'repo')).toMatchObject({ id: `project:${workspace}:repo`, defaultCwd: workspace, workspace });
  });

  it("marks an untrusted folder's servers as not to be started, and never lets them shadow the person's own", () => {
    const { dataDir, workspace } = setUp();
    const specs = sessionMcpServers({ dataDir, workspace, projectTrusted: false });
    expect(specs.map((spec) => [spec.name, spec.source, spec.untrusted ?? false])).toEqual([
      ['mine', 'user', false],
      ['shared', 'user', false],
      ['repo', 'project', true],
    ]);
    expect(specs[2]?.problem).toBe(
      `Not started: ${workspace} is not trusted, and a project's servers run only in a trusted folder. Trust the folder to start it.`,
    );
  });

  it('adds --mcp-config servers on top, resolving a relative cwd against the file', () => {
    const { dataDir, workspace } = setUp();
    const dir = folder();
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { mine: { command: 'cli-version', cwd: 'sub' } } }));
    const extra = readMcpConfigFile(file, workspace);
    expect(extra).toEqual([
      {
        id: 'cli:mine',
        name: 'mine',
        source: 'cli',
        file,
        defaultCwd: workspace,
        config: { command: 'cli-version', cwd: path.join(dir, 'sub') },
      },
    ]);
    const specs = sessionMcpServers({ dataDir, workspace, projectTrusted: false, extra });
    expect(specs.find((spec) => spec.name === 'mine')?.source).toBe('cli');
  });

  it('refuses an --mcp-config file that is missing, or has a bad entry, naming it', () => {
    const dir = folder();
    expect(() => readMcpConfigFile(path.join(dir, 'none.json'), dir)).toThrow(
      /The MCP config .*none\.json does not exist; check the path given to --mcp-config\./,
    );
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { s: { command: 'node', env: { PORT: 3000 } } } }));
    expect(() => readMcpConfigFile(file, dir)).toThrow(
      `The MCP server "s" in ${file} cannot be used: every env value must be a string. Fix it in that file.`,
    );
    writeFileSync(file, '{"mcpServers": {}}');
    expect(() => readMcpConfigFile(file, dir)).toThrow(/names no servers/);
  });
});

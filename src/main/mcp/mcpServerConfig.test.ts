import { describe, expect, it } from 'vitest';
import { McpConfigError, parseMcpConfigText, parseMcpServers } from './mcpServerConfig';

const file = '/home/me/.tether/settings.json';

describe('reading mcpServers', () => {
  it('reads stdio and streamable HTTP entries in the Claude Desktop / Cursor format', () => {
    const entries = parseMcpServers(
      {
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 't' } },
        docs: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
        typed: { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
        local: { type: 'stdio', command: 'node', args: ['server.js'], cwd: 'tools', autoApprove: ['x'] },
      },
      file,
    );
    expect(entries).toEqual([
      { name: 'github', config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 't' } } },
      { name: 'docs', config: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } } },
      { name: 'typed', config: { type: 'http', url: 'http://127.0.0.1:3000/mcp' } },
      { name: 'local', config: { type: 'stdio', command: 'node', args: ['server.js'], cwd: 'tools', autoApprove: ['x'] } },
    ]);
  });

  it('names the file and the server in every error, and keeps the good entries', () => {
    const entries = parseMcpServers(
      {
        good: { command: 'node' },
        both: { command: 'node', url: 'http://x' },
        neither: { args: ['x'] },
        badArgs: { command: 'node', args: 'server.js' },
        badUrl: { url: 'ftp://example.com' },
        sse: { type: 'sse', url: 'http://127.0.0.1/sse' },
        notObject: 'node server.js',
      },
      file,
    );
    const errors = Object.fromEntries(entries.flatMap((entry) => ('error' in entry ? [[entry.name, entry.error]] : [])));
    expect(entries.filter((entry) => 'config' in entry).map((entry) => entry.name)).toEqual(['good']);
    expect(errors.both).toBe(
      `The MCP server "both" in ${file} has both "command" and "url"; give "command" (and "args") for a local server, or "url" for a streamable HTTP one.`,
    );
    expect(errors.neither).toMatch(/^The MCP server "neither" in .* has neither "command" nor "url"/);
    expect(errors.badArgs).toBe(
      `The MCP server "badArgs" in ${file} cannot be used: "args" must be a list of strings. Fix it in that file.`,
    );
    expect(errors.badUrl).toMatch(/"url" must be an http:\/\/ or https:\/\/ URL/);
    expect(errors.sse).toMatch(/uses the SSE transport, which Tether does not speak/);
    expect(errors.notObject).toMatch(/must be an object with "command" \(stdio\) or "url"/);
  });

  it('skips an entry marked "disabled": true', () => {
    expect(parseMcpServers({ off: { command: 'node', disabled: true } }, file)).toEqual([]);
  });

  it('refuses a whole value that is not an object of servers, naming the file', () => {
    expect(() => parseMcpServers(['node'], file)).toThrow(McpConfigError);
    expect(() => parseMcpServers(['node'], file)).toThrow(`"mcpServers" in ${file} must be an object of servers by name`);
    expect(() => parseMcpConfigText('{ nope', file)).toThrow(/is not valid JSON/);
  });

  it('takes a settings file\'s "mcpServers" only, and a bare file\'s servers when asked', () => {
    expect(parseMcpConfigText('{"model": {"model": "x"}, "permissions": {}}', file)).toEqual([]);
    expect(parseMcpConfigText('{"s": {"command": "node"}}', file, { bare: true })).toEqual([{ name: 's', config: { command: 'node' } }]);
    expect(parseMcpConfigText('{"mcpServers": {"s": {"command": "node"}}}', file, { bare: true })).toEqual([
      { name: 's', config: { command: 'node' } },
    ]);
  });
});

import { z } from 'zod';

/**
 * One entry of an `mcpServers` object, in the format Claude Desktop and Cursor use:
 *   stdio:            { "command": "npx", "args": [...], "env": {...}, "cwd": "..." }
 *   streamable HTTP:  { "url": "https://...", "headers": {...} }
 * Keys other clients add ("disabled", "autoApprove"...) are tolerated; "disabled": true is honoured.
 * `trustReadOnlyHints` is Tether's own: the person vouches for the server's readOnlyHint annotations
 * (see mcpTool.ts for what that changes).
 */

const StringMap = (what: string) =>
  z.record(z.string(), z.string({ error: `every ${what} value must be a string` }), { error: `"${what}" must be an object of strings` });

const Common = {
  disabled: z.boolean({ error: '"disabled" must be true or false' }).optional(),
  trustReadOnlyHints: z.boolean({ error: '"trustReadOnlyHints" must be true or false' }).optional(),
};

export const StdioServerConfig = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string({ error: '"command" must be a string' }).trim().min(1, '"command" is empty; name the program to run'),
  args: z.array(z.string(), { error: '"args" must be a list of strings' }).optional(),
  env: StringMap('env').optional(),
  cwd: z.string({ error: '"cwd" must be a string' }).min(1, '"cwd" is empty').optional(),
  ...Common,
});
export type StdioServerConfig = z.infer<typeof StdioServerConfig>;

export const HttpServerConfig = z.looseObject({
  type: z.enum(['http', 'streamable-http', 'streamableHttp'], { error: '"type" must be "http" for a server with a url' }).optional(),
  url: z.url({ protocol: /^https?$/, error: '"url" must be an http:// or https:// URL' }),
  headers: StringMap('headers').optional(),
  ...Common,
});
export type HttpServerConfig = z.infer<typeof HttpServerConfig>;

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export function isStdio(config: McpServerConfig): config is StdioServerConfig {
  return 'command' in config;
}

/** One entry as read: its config, or why it cannot be used (naming the file and the server). */
export type McpServerEntry = { name: string; config: McpServerConfig } | { name: string; error: string };

/** A whole `mcpServers` value (or a file) that cannot be read at all. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

/**
 * Reads the `mcpServers` value found in `file`. A value that is not an object is an error for the
 * whole file; an entry that is wrong is an error for that server only, so one typo does not take
 * the others down.
 */
export function parseMcpServers(value: unknown, file: string): McpServerEntry[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new McpConfigError(
      `"mcpServers" in ${file} must be an object of servers by name, like {"github": {"command": "npx", "args": ["-y", "server-github"]}}.`,
    );
  }
  const entries: McpServerEntry[] = [];
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const where = `The MCP server "${name}" in ${file}`;
    if (name.trim() === '') {
      entries.push({ name, error: `An MCP server in ${file} has an empty name; give it a name.` });
      continue;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      entries.push({ name, error: `${where} must be an object with "command" (stdio) or "url" (streamable HTTP).` });
      continue;
    }
    const record = raw as Record<string, unknown>;
    if (record.type === 'sse') {
      entries.push({
        name,
        error: `${where} uses the SSE transport, which Tether does not speak; use the server's streamable HTTP URL (type "http") or its stdio command.`,
      });
      continue;
    }
    const hasCommand = 'command' in record;
    const hasUrl = 'url' in record;
    if (hasCommand === hasUrl) {
      entries.push({
        name,
        error: `${where} ${hasCommand ? 'has both "command" and "url"' : 'has neither "command" nor "url"'}; give "command" (and "args") for a local server, or "url" for a streamable HTTP one.`,
      });
      continue;
    }
    const parsed = (hasCommand ? StdioServerConfig : HttpServerConfig).safeParse(record);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => issue.message).join('; ');
      entries.push({ name, error: `${where} cannot be used: ${problems}. Fix it in that file.` });
      continue;
    }
    if (parsed.data.disabled === true) continue;
    entries.push({ name, config: parsed.data });
  }
  return entries;
}

/**
 * The `mcpServers` in a JSON text: `{"mcpServers": {...}}` (a settings file, Claude Desktop's
 * claude_desktop_config.json, Cursor's mcp.json), or, for a file that is only an MCP config
 * (`bare`), the object of servers itself.
 */
export function parseMcpConfigText(text: string, file: string, options: { bare?: boolean } = {}): McpServerEntry[] {
  if (text.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`The MCP config ${file} is not valid JSON (${(error as Error).message}); fix it.`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new McpConfigError(`The MCP config ${file} must be a JSON object like {"mcpServers": {"name": {"command": "..."}}}.`);
  }
  const servers = 'mcpServers' in json || !options.bare ? (json as { mcpServers?: unknown }).mcpServers : json;
  return parseMcpServers(servers, file);
}

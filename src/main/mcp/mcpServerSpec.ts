import type { McpServerConfig } from './mcpServerConfig';

/** Where a server was configured: the person's settings, a project's .tether/settings.json, or `tether run --mcp-config`. */
export type McpServerSource = 'user' | 'project' | 'cli';

/** One configured server, ready for the hub: what to start, or why it cannot be. */
export interface McpServerSpec {
  /** Stable while the configuration says the same: `user:<name>`, `project:<workspace>:<name>`, `cli:<name>`. */
  id: string;
  name: string;
  source: McpServerSource;
  /** The file it was read from, for messages. */
  file: string;
  /** A project server's workspace root. */
  workspace?: string;
  config?: McpServerConfig;
  /** Why it cannot start: a bad entry (naming file and server), or an untrusted folder. */
  problem?: string;
  /** True for a project server whose folder the person has not trusted: listed, never started. */
  untrusted?: boolean;
  /** The folder a stdio server runs in when its entry names none (a relative `cwd` is resolved against it too). */
  defaultCwd?: string;
}

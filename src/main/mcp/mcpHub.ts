import { isDeepStrictEqual } from 'node:util';
import type { McpServerView } from '../../shared/contract';
import type { AnyTool } from '../tools/defineTool';
import { DEFAULT_MCP_TIMINGS, McpConnection, type McpTimings } from './mcpConnection';
import { isStdio } from './mcpServerConfig';
import type { McpServerSpec } from './mcpServerSpec';
import { createMcpTool } from './mcpTool';
import type { ProjectServerFence } from './projectServerFence';
import { McpToolNames } from './mcpToolNames';

/**
 * Owns every MCP client of one host (the app, `tether serve`, one `tether run`). A server starts the
 * first time a session needs the tool list and is shared by the sessions after it; it stops when the
 * host closes, and if the host dies without closing, an exit hook still signals every server process
 * so none is left behind.
 */

export type McpServerStatus = Omit<McpServerView, 'projectId'>;

export class McpHub {
  private readonly connections = new Map<string, McpConnection>();
  /** The model name each server's tools got in the latest session that listed them, by server id. */
  private readonly modelNames = new Map<string, Map<string, string>>();
  private readonly listeners = new Set<(status: McpServerStatus, spec: McpServerSpec) => void>();
  private readonly timings: McpTimings;
  private closed = false;
  private exitHook: (() => void) | undefined;

  /** `fence` starts a project's servers inside the project's sandbox (core.ts gives one; the tests' hubs may not). */
  constructor(
    timings: Partial<McpTimings> = {},
    private readonly fence?: ProjectServerFence,
  ) {
    this.timings = { ...DEFAULT_MCP_TIMINGS, ...timings };
  }

  /**
   * Starts the servers a session may use (those that are not running yet), waits until each is ready
   * or has failed, and returns their tools named for the model. `taken` are the names already in the
   * list (the built-in tools). A server that failed adds no tools; its error is in `status`.
   */
  async sessionTools(specs: McpServerSpec[], taken: readonly string[] = [], sandboxOff?: string): Promise<AnyTool[]> {
    const runnable = specs.filter((spec) => !spec.untrusted && !spec.problem).map((spec) => this.connection(spec));
    // Read when a server starts: the person turned the sandbox off for this run, so its project servers start unfenced too.
    for (const connection of runnable) connection.sandboxOff = sandboxOff;
    await Promise.all(runnable.map((connection) => connection.ensureStarted()));
    const names = new McpToolNames(taken);
    const tools: AnyTool[] = [];
    for (const connection of runnable) {
      if (connection.state !== 'ready') continue;
      const given = new Map<string, string>();
      for (const info of connection.tools) {
        const modelName = names.name(connection.spec.name, info.name);
        given.set(info.name, modelName);
        tools.push(createMcpTool(connection, info, modelName));
      }
      this.modelNames.set(connection.spec.id, given);
    }
    return tools;
  }

  /** What a person sees of each server: its state, error, tools and recent stderr. */
  status(spec: McpServerSpec): McpServerStatus {
    const known = this.connections.get(spec.id);
    const connection = known && isDeepStrictEqual(known.spec, spec) ? known : undefined;
    // The names a session gave them (a clash with another server's or a built-in tool adds `_2`),
    // so a rule written from this list names what the model calls; before any session, the plain ones.
    const given = this.modelNames.get(spec.id);
    const names = new McpToolNames();
    const config = spec.config;
    return {
      id: spec.id,
      name: spec.name,
      source: spec.source,
      file: spec.file,
      transport: config ? (isStdio(config) ? 'stdio' : 'http') : 'unknown',
      target: config ? (isStdio(config) ? [config.command, ...(config.args ?? [])].join(' ') : config.url) : '',
      state: spec.untrusted ? 'untrusted' : spec.problem ? 'failed' : (connection?.state ?? 'idle'),
      ...(spec.problem ? { error: spec.problem } : connection?.error ? { error: connection.error } : {}),
      restarts: connection?.restarts ?? 0,
      tools: (connection?.tools ?? []).map((tool) => ({
        name: tool.name,
        modelName: given?.get(tool.name) ?? names.name(spec.name, tool.name),
        description: tool.description ?? tool.title ?? '',
      })),
      stderr: connection?.stderr.tail() ?? [],
    };
  }

  /** Stops and starts a server again, forgetting its failures. */
  async restart(spec: McpServerSpec): Promise<McpServerStatus> {
    if (spec.untrusted || spec.problem) return this.status(spec);
    await this.connection(spec).restart();
    return this.status(spec);
  }

  /** Stops a project's servers (the person stopped trusting the folder). */
  async stopProject(workspace: string): Promise<void> {
    const stopping = [...this.connections.values()].filter((connection) => connection.spec.workspace === workspace);
    await Promise.all(stopping.map((connection) => connection.stop()));
  }

  /** The process ids of the stdio servers running now. */
  pids(): number[] {
    return [...this.connections.values()].flatMap((connection) => (connection.pid === undefined ? [] : [connection.pid]));
  }

  onChange(listener: (status: McpServerStatus, spec: McpServerSpec) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops every server and waits for them to go. */
  async close(): Promise<void> {
    this.closed = true;
    // A signal first, synchronously: the host may exit right after this call without awaiting it.
    this.signalAll();
    await Promise.all([...this.connections.values()].map((connection) => connection.stop()));
    this.connections.clear();
    if (this.exitHook) process.off('exit', this.exitHook);
    this.exitHook = undefined;
  }

  private connection(spec: McpServerSpec): McpConnection {
    if (this.closed) throw new Error('The MCP servers were stopped because the host is closing; no server can start now.');
    const known = this.connections.get(spec.id);
    if (known && isDeepStrictEqual(known.spec, spec)) return known;
    // The entry changed since it started (the person edited the settings): the old one goes.
    if (known) void known.stop();
    const connection = new McpConnection(
      spec,
      this.timings,
      (changed) => {
        for (const listener of this.listeners) listener(this.status(changed.spec), changed.spec);
      },
      this.fence,
    );
    this.connections.set(spec.id, connection);
    this.installExitHook();
    return connection;
  }

  private installExitHook(): void {
    if (this.exitHook) return;
    this.exitHook = () => this.signalAll();
    process.once('exit', this.exitHook);
  }

  private signalAll(): void {
    for (const pid of this.pids()) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }
}

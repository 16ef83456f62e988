import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Progress, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { isMcpError, loadedMcpSdk, loadMcpSdk } from './mcpSdkLoader';
import { isStdio } from './mcpServerConfig';
import type { McpServerSpec } from './mcpServerSpec';
import { ServerFenceRefusal, type FencedServerProcess, type ProjectServerFence } from './projectServerFence';
import { StderrTail } from './stderrTail';
import { mcpServerRefusal, readManagedPolicy } from '../settings/managedPolicy';

/**
 * One MCP server and the client that talks to it. It starts when first needed, restarts after a
 * crash with exponential backoff (capped) and gives up after `maxRestarts` crashes in a row, saying
 * why. A server that never came up (a bad command, an exit at once, no answer to initialize) fails
 * at once with what it printed on stderr: starting it again would fail the same way.
 */

export type McpServerState = 'idle' | 'starting' | 'ready' | 'failed' | 'stopped';

export interface McpTimings {
  /** How long initialize and the first tools/list may take. */
  startTimeoutMs: number;
  /** The longest one tool call may run without progress. */
  callTimeoutMs: number;
  /** The first restart's delay; each later one doubles, up to `backoffMaxMs`. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Crashes in a row after which it stops restarting. */
  maxRestarts: number;
  /** Up this long, the server counts as healthy again and its crash count is forgotten. */
  stableMs: number;
}

export const DEFAULT_MCP_TIMINGS: McpTimings = {
  startTimeoutMs: 30_000,
  callTimeoutMs: 10 * 60_000,
  backoffBaseMs: 1_000,
  backoffMaxMs: 30_000,
  maxRestarts: 5,
  stableMs: 60_000,
};

export interface McpCallOptions {
  signal: AbortSignal;
  onProgress?(progress: Progress): void;
}

/** A call that could not get an answer from the server (as opposed to a result the server marked isError). */
export class McpCallError extends Error {
  override readonly name = 'McpCallError';
}

const CLIENT_INFO = { name: 'tether', version: '0.1.0' };

export class McpConnection {
  state: McpServerState = 'idle';
  error: string | undefined;
  tools: McpToolInfo[] = [];
  /** Crashes in a row (reset once it has stayed up for `stableMs`). */
  restarts = 0;
  readonly stderr = new StderrTail();

  private client: Client | undefined;
  private transport: Transport | undefined;
  private attempt: Promise<void> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private stableTimer: NodeJS.Timeout | undefined;
  /** Bumped whenever the current client is dropped, so a late close of an old one changes nothing. */
  private generation = 0;
  private readonly waiters = new Set<() => void>();
  /** A project server's sandboxed run while its process lives. */
  private fenced: FencedServerProcess | undefined;
  /** Set when the person turned the sandbox off for the run that starts it (`tether run --no-sandbox`). */
  sandboxOff: string | undefined;

  constructor(
    readonly spec: McpServerSpec,
    private readonly timings: McpTimings,
    private readonly onChange: (connection: McpConnection) => void,
    /** Starts a project's server inside the project's fence; without one, project servers start as the person's do. */
    private readonly fence?: ProjectServerFence,
  ) {
    if (spec.problem) {
      this.state = 'failed';
      this.error = spec.problem;
    }
  }

  /** The stdio server's process id while it runs. */
  get pid(): number | undefined {
    // A transport exists only once the SDK is loaded.
    const transport = this.transport;
    return transport && transport instanceof loadedMcpSdk().StdioClientTransport
      ? ((transport as StdioClientTransport).pid ?? undefined)
      : undefined;
  }

  /** Starts an idle server; resolves once it is ready or has failed (never rejects). */
  ensureStarted(): Promise<void> {
    if (this.state === 'idle') return this.start();
    if (this.state === 'starting') return this.settled();
    return Promise.resolve();
  }

  /** The person asked: forget the failures and start again now. */
  async restart(): Promise<void> {
    if (this.spec.problem) return;
    await this.drop();
    this.restarts = 0;
    await this.start();
  }

  async stop(): Promise<void> {
    await this.drop();
    this.restarts = 0;
    this.error = undefined;
    this.setState('stopped');
  }

  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
    if (this.state === 'idle' || this.state === 'starting') await this.ensureStarted();
    const client = this.client;
    if (this.state !== 'ready' || !client) throw new McpCallError(this.unavailable());
    try {
      const result = await client.callTool({ name, arguments: args }, loadedMcpSdk().CallToolResultSchema, {
        signal: options.signal,
        timeout: this.timings.callTimeoutMs,
        resetTimeoutOnProgress: true,
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      });
      return result as CallToolResult;
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw new McpCallError(this.callFailure(name, error));
    }
  }

  private unavailable(): string {
    const who = this.describe();
    if (this.state === 'stopped') return `The MCP server ${who} is stopped; restart it from Settings, or try another way.`;
    if (this.state === 'failed') return `The MCP server ${who} is not running: ${this.error ?? 'it failed'}`;
    return `The MCP server ${who} is not ready.`;
  }

  private callFailure(tool: string, error: unknown): string {
    const who = this.describe();
    if (isMcpError(error, 'ConnectionClosed')) {
      return `The MCP server ${who} stopped while ${tool} ran, so its outcome is unknown (Tether restarts the server). Check its effects before you call it again.${this.printed()}`;
    }
    if (isMcpError(error, 'RequestTimeout')) {
      return `The MCP server ${who} did not answer ${tool} within ${Math.round(this.timings.callTimeoutMs / 1000)} s; the call was cancelled.`;
    }
    if (isMcpError(error)) return `The MCP server ${who} refused ${tool}: ${error.message}`;
    return `Calling ${tool} on the MCP server ${who} failed: ${(error as Error).message ?? String(error)}`;
  }

  /**
   * The managed policy, read again at the moment a server would start: whatever list the spec came
   * from, a server it does not allow never runs, and a policy that cannot be read starts nothing.
   */
  private policyRefusal(): string | undefined {
    try {
      return mcpServerRefusal(readManagedPolicy(), this.spec.name);
    } catch (error) {
      return (error as Error).message;
    }
  }

  describe(): string {
    return `"${this.spec.name}"`;
  }

  /** What a stdio server printed, for an error message; an HTTP server has no stderr of ours to show. */
  private printed(): string {
    return this.spec.config && isStdio(this.spec.config) ? this.stderr.block() : '';
  }

  private start(): Promise<void> {
    this.attempt ??= this.connect().finally(() => {
      this.attempt = undefined;
    });
    return this.attempt;
  }

  private async connect(): Promise<void> {
    const config = this.spec.config;
    if (!config) return;
    const refusal = this.policyRefusal();
    if (refusal) {
      this.error = refusal;
      this.setState('failed');
      return;
    }
    const generation = ++this.generation;
    const recovering = this.restarts > 0;
    this.setState('starting');
    const { Client, getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport, ToolListChangedNotificationSchema } =
      await loadMcpSdk();
    if (generation !== this.generation) return;
    let transport: Transport;
    if (isStdio(config)) {
      // One tail across restarts, so a crash loop's earlier output stays readable; a line marks each start.
      if (this.stderr.tail().length > 0) this.stderr.push('--- started again ---\n');
      const cwd = config.cwd ?? this.spec.defaultCwd;
      // A folder of the server's own (not a project's) is made when first needed.
      if (cwd && this.spec.source !== 'project' && cwd === this.spec.defaultCwd) fs.mkdirSync(cwd, { recursive: true });
      // Only the SDK's short list of safe variables (PATH, HOME...) plus the entry's own: the app's
      // API keys and tokens never reach a server that did not ask for them.
      let server = { command: config.command, args: config.args ?? [], env: { ...getDefaultEnvironment(), ...config.env } };
      if (this.spec.source === 'project' && this.fence) {
        this.releaseFence();
        try {
          // The entry's own env goes to the server inside the fence only, never to the shell and bwrap that start it.
          this.fenced = await this.fence(
            this.spec,
            { ...server, env: getDefaultEnvironment(), ownEnv: config.env ?? {}, cwd: cwd ?? this.spec.workspace ?? process.cwd() },
            this.sandboxOff,
          );
        } catch (error) {
          if (!(error instanceof ServerFenceRefusal)) throw error;
          if (generation !== this.generation) return;
          this.error = `The MCP server ${this.describe()} was not started. ${error.message}`;
          this.setState('failed');
          return;
        }
        if (generation !== this.generation) return this.releaseFence();
        server = { command: this.fenced.command, args: this.fenced.args, env: this.fenced.env };
      }
      const stdio = new StdioClientTransport({ ...server, ...(cwd ? { cwd } : {}), stderr: 'pipe' });
      stdio.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString('utf8')));
      transport = stdio;
    } else {
      transport = new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers ?? {} } });
    }
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onclose = () => this.closed(generation);
    this.client = client;
    this.transport = transport;
    try {
      await withTimeout(
        client.connect(transport, { timeout: this.timings.startTimeoutMs }),
        this.timings.startTimeoutMs,
        'did not answer initialize',
      );
      const tools = await withTimeout(
        listAllTools(client, this.timings.startTimeoutMs),
        this.timings.startTimeoutMs,
        'did not list its tools',
      );
      if (generation !== this.generation) return;
      this.tools = tools;
      this.error = undefined;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        const fresh = await listAllTools(client, this.timings.startTimeoutMs).catch(() => undefined);
        if (fresh && generation === this.generation) {
          this.tools = fresh;
          this.onChange(this);
        }
      });
      this.stableTimer = setTimeout(() => {
        this.restarts = 0;
      }, this.timings.stableMs);
      this.stableTimer.unref();
      this.setState('ready');
    } catch (error) {
      if (generation !== this.generation) return;
      this.generation++;
      this.client = undefined;
      this.transport = undefined;
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
      this.releaseFence();
      const reason = startFailure(error);
      if (recovering) {
        this.crashed(`it crashed, and starting it again failed: ${reason}`);
      } else {
        this.error = `The MCP server ${this.describe()} could not start: ${reason}.${this.printed()}\n${this.fixHint()}`;
        this.setState('failed');
      }
    }
  }

  private fixHint(): string {
    const config = this.spec.config;
    const what = config && isStdio(config) ? `its command (${[config.command, ...(config.args ?? [])].join(' ')})` : 'its url';
    return `Check ${what} in ${this.spec.file}, then restart it from Settings.`;
  }

  /** The transport closed: a crash unless we dropped it ourselves. */
  private closed(generation: number): void {
    // While connecting, connect() sees the failure and reports it.
    if (generation !== this.generation || this.state === 'starting') return;
    this.generation++;
    this.client = undefined;
    this.transport = undefined;
    clearTimeout(this.stableTimer);
    this.releaseFence();
    this.crashed('it exited unexpectedly');
  }

  private crashed(what: string): void {
    this.restarts++;
    const who = this.describe();
    if (this.restarts > this.timings.maxRestarts) {
      this.error = `The MCP server ${who} crashed ${this.timings.maxRestarts + 1} times in a row and was not restarted again; the last time ${what}.${this.printed()}\n${this.fixHint()}`;
      this.setState('failed');
      return;
    }
    const delay = Math.min(this.timings.backoffBaseMs * 2 ** (this.restarts - 1), this.timings.backoffMaxMs);
    this.error = `The MCP server ${who} stopped: ${what}. Restarting in ${formatDelay(delay)} (attempt ${this.restarts} of ${this.timings.maxRestarts}).`;
    this.setState('starting');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.start();
    }, delay);
    this.restartTimer.unref();
  }

  /** Closes the current client (killing a stdio server) without counting it as a crash. */
  private async drop(): Promise<void> {
    this.generation++;
    clearTimeout(this.restartTimer);
    clearTimeout(this.stableTimer);
    this.restartTimer = undefined;
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    await client?.close().catch(() => {});
    await transport?.close().catch(() => {});
    await this.attempt?.catch(() => {});
    this.releaseFence();
  }

  /** Ends a project server's sandboxed run; what it ran into at the fence joins its stderr, for Settings. */
  private releaseFence(): void {
    const fenced = this.fenced;
    this.fenced = undefined;
    if (!fenced) return;
    const outcome = fenced.release(this.stderr.tail().join('\n'));
    for (const hit of outcome.hits) this.stderr.push(`[fence] ${hit.message}\n`);
  }

  private settled(): Promise<void> {
    return new Promise((resolve) => this.waiters.add(resolve));
  }

  private setState(state: McpServerState): void {
    this.state = state;
    if (state !== 'starting') {
      for (const wake of this.waiters) wake();
      this.waiters.clear();
    }
    this.onChange(this);
  }
}

async function listAllTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function startFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message ?? String(error);
  if (code === 'ENOENT') return `the program was not found (${message})`;
  if (code === 'EACCES') return `the program cannot be run (${message})`;
  if (isMcpError(error, 'ConnectionClosed')) return 'it exited before it answered initialize';
  if (isMcpError(error, 'RequestTimeout')) return 'it did not answer initialize in time';
  // fetch's own message is only "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is in its cause.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (message === 'fetch failed' && cause) return `nothing answered at its url (${cause.code ?? cause.message ?? 'no reason given'})`;
  return message.replace(/\.$/, '');
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it ${what} within ${formatDelay(ms)}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

import fs from 'node:fs';
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import type { CommandSandbox, SandboxRunOutcome } from '../sandbox/commandSandbox';
import { autorunPlaces } from '../workspace/autorunWatch';
import { findTrustedProgram } from '../workspace/programSearchPath';
import type { McpServerSpec } from './mcpServerSpec';

/**
 * A project's MCP servers (`mcpServers` in a trusted folder's `.tether/settings.json`) run code that
 * lives where the agent writes: the server's script, the modules `python -m` or `node` import from
 * its folder, `npx`'s `node_modules/.bin`. So they start inside the same fence as the project's
 * commands, never with the person's full access; the person's own servers (settings.json,
 * `--mcp-config`) start outside, in a folder of their own (loadMcpServers.ts).
 *
 * The fence wraps the server's command line into a shell command and an environment, as it does a
 * hook's; the MCP SDK's stdio transport then starts bash on that command, and the server's stdin and
 * stdout pass through bubblewrap (or Seatbelt) unchanged. With no sandbox to start it in, a project
 * server does not start and says why, unless the person turned the sandbox off for the run.
 */

/** What the stdio transport starts: a program, its arguments, the folder and the environment. */
export interface ServerProcess {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** A project's server as its entry names it: `env` is Tether's short list, `ownEnv` the entry's own. */
export interface ProjectServer extends ServerProcess {
  /**
   * Set for the server alone, inside the fence: given to the shell and bwrap that start it, an entry's
   * `BASH_ENV` or `LD_PRELOAD` naming a workspace file would run that file outside the sandbox.
   */
  ownEnv: Record<string, string>;
}

export interface FencedServerProcess extends ServerProcess {
  /** The server stopped (or never came up): ends its sandboxed run and frees the sandbox. */
  release(output: string): SandboxRunOutcome;
}

/** A project server that may not start: the reason is what the tool list and Settings show. */
export class ServerFenceRefusal extends Error {
  override readonly name = 'ServerFenceRefusal';
}

/** How a host starts a project's server: inside the project's fence, or not at all. */
export type ProjectServerFence = (spec: McpServerSpec, server: ProjectServer, sandboxOff?: string) => Promise<FencedServerProcess>;

/**
 * bash that never reads the person's startup files: the transport's pipes are socket pairs, and a
 * bash whose stdin is a socket and whose SHLVL is low reads ~/.bashrc, whose output would break the
 * server's JSON-RPC on stdout (and a pyenv init there costs seconds). The sandbox's own shells read
 * SHLVL too, hence its value.
 */
const QUIET_SHELL_LEVEL = '8';

function shellPath(): string {
  return fs.existsSync('/bin/bash') ? '/bin/bash' : (findTrustedProgram('bash') ?? 'bash');
}

/**
 * `sandboxFor` makes a sandbox with the fence of the project in `workspace`, with `denyWrite` added
 * (one per server, disposed when it stops). A server runs for as long as the session, not as one
 * command that is looked at after it ends (tools/autorunChanges.ts), so the files the person's tools
 * run by themselves (autorunWatch.ts) are simply not writable for it: read-only where they exist,
 * and moved to Tether's data folder as soon as it makes one that did not (protectedPaths.ts).
 */
export function projectServerFence(sandboxFor: (workspace: string, denyWrite: string[]) => CommandSandbox): ProjectServerFence {
  return async (spec, server, sandboxOff) => {
    if (sandboxOff !== undefined) {
      const { ownEnv, ...unfenced } = server;
      return { ...unfenced, env: { ...server.env, ...ownEnv }, release: () => ({ hits: [], notes: [] }) };
    }
    let sandbox: CommandSandbox;
    try {
      const workspace = spec.workspace ?? server.cwd;
      sandbox = sandboxFor(workspace, autorunPlaces(workspace));
    } catch (error) {
      throw new ServerFenceRefusal(`Not started: the project's sandbox could not be set up (${(error as Error).message}).`);
    }
    const found = sandbox.availability;
    if (!found.available) {
      sandbox.dispose();
      throw new ServerFenceRefusal(
        `Not started: a project's MCP server runs its code from the workspace, so it starts only inside the sandbox, and no sandbox is available here (${found.reason}).`,
      );
    }
    let run: Awaited<ReturnType<CommandSandbox['wrap']>>;
    try {
      const ownEnv = Object.entries(server.ownEnv).map(([name, value]) => `${name}=${value}`);
      const line = ownEnv.length > 0 ? ['env', '--', ...ownEnv, server.command, ...server.args] : [server.command, ...server.args];
      run = await sandbox.wrap(`exec ${quote(line)}`, server.cwd);
    } catch (error) {
      sandbox.dispose();
      throw new ServerFenceRefusal(
        `Not started: a project's MCP server starts only inside the sandbox, and the sandbox could not start (${(error as Error).message}).`,
      );
    }
    let released: SandboxRunOutcome | undefined;
    return {
      command: shellPath(),
      args: ['--norc', '--noprofile', '-c', run.command],
      cwd: server.cwd,
      env: { ...server.env, ...run.env, SHLVL: QUIET_SHELL_LEVEL },
      release(output) {
        if (released) return released;
        released = run.finish(output, null);
        sandbox.dispose();
        return released;
      },
    };
  };
}

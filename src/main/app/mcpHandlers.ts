import type { EventName, EventPayload, Handlers, McpServerView } from '../../shared/contract';
import type { Core } from '../core';
import { RequestError } from '../../shared/requestError';
import { McpConfigError } from '../mcp/mcpServerConfig';
import type { McpServerSpec } from '../mcp/mcpServerSpec';
import type { McpServerStatus } from '../mcp/mcpHub';
import { projectMcpServers, userMcpServers } from '../mcp/loadMcpServers';

type McpRequests = 'mcp:servers' | 'mcp:restart';

export interface McpHandlers {
  handlers: Pick<Handlers, McpRequests>;
  /** The person trusted or stopped trusting a folder: an untrusted folder's servers stop at once. */
  trustChanged(projectId: string, trusted: boolean): Promise<void>;
  dispose(): void;
}

/** The contract's MCP requests and the `mcp:changed` event, for a UI host. */
export function createMcpHandlers(options: {
  core: Core;
  dataDir: string;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
}): McpHandlers {
  const { core, dataDir, emit } = options;
  const projectIdOf = (spec: McpServerSpec): string | null =>
    spec.workspace ? (core.store.projects.byPath(spec.workspace)?.id ?? null) : null;
  const view = (status: McpServerStatus, spec: McpServerSpec): McpServerView => ({ ...status, projectId: projectIdOf(spec) });
  const unsubscribe = core.mcp.onChange((status, spec) => emit('mcp:changed', view(status, spec)));

  const specsFor = (projectId: string | undefined): McpServerSpec[] => {
    const projects = projectId ? [requireProject(projectId)] : core.store.projects.list();
    try {
      return [...userMcpServers(dataDir), ...projects.flatMap((project) => projectMcpServers(project.path, project.trusted))];
    } catch (error) {
      if (error instanceof McpConfigError) throw new RequestError('failed', error.message);
      throw error;
    }
  };
  const requireProject = (projectId: string) => {
    const project = core.store.projects.get(projectId);
    if (!project) throw new RequestError('not_found', `There is no project ${projectId}.`);
    return project;
  };

  return {
    handlers: {
      'mcp:servers': async ({ projectId }) => specsFor(projectId).map((spec) => view(core.mcp.status(spec), spec)),
      'mcp:restart': async ({ name, projectId }) => {
        const specs = projectId ? specsFor(projectId).filter((spec) => spec.source === 'project') : userMcpServers(dataDir);
        const spec = specs.find((candidate) => candidate.name === name);
        if (!spec) {
          throw new RequestError(
            'not_found',
            `There is no MCP server "${name}" in ${projectId ? "that project's .tether/settings.json" : 'your settings'}; it may have been removed.`,
          );
        }
        if (spec.untrusted)
          throw new RequestError(
            'conflict',
            `The MCP server "${name}" belongs to a folder you have not trusted; trust the folder to start it.`,
          );
        if (spec.problem) throw new RequestError('invalid_input', spec.problem);
        return view(await core.mcp.restart(spec), spec);
      },
    },
    async trustChanged(projectId, trusted) {
      const project = core.store.projects.get(projectId);
      if (!project) return;
      if (!trusted) await core.mcp.stopProject(project.path);
      let specs: McpServerSpec[] = [];
      try {
        specs = projectMcpServers(project.path, trusted);
      } catch {
        // A broken settings file is reported when the servers are listed.
      }
      for (const spec of specs) emit('mcp:changed', view(core.mcp.status(spec), spec));
    },
    dispose: unsubscribe,
  };
}

import type { McpServerView } from '../../../shared/contract';
import type { GetState, SetState, StoreDeps } from './appState';
import type { LoadStatus } from './sessionsSlice';
import { errorMessage } from '../lib/errorMessage';

/** The MCP servers the settings screen lists, kept current by `mcp:changed`. */
export interface McpSlice {
  mcpServers: McpServerView[];
  mcpStatus: LoadStatus;
  mcpError?: string;
  /** Ids of servers a restart was asked for and has not answered yet. */
  mcpRestarting: string[];
  loadMcpServers(): Promise<void>;
  restartMcpServer(server: McpServerView): Promise<void>;
  /** An `mcp:changed` event: replaces the server's entry, or adds it. */
  mcpServerChanged(server: McpServerView): void;
}

export function createMcpSlice(deps: StoreDeps, set: SetState, get: GetState): McpSlice {
  const { api } = deps;
  return {
    mcpServers: [],
    mcpStatus: 'idle',
    mcpRestarting: [],

    async loadMcpServers() {
      if (get().mcpStatus !== 'ready') set({ mcpStatus: 'loading' });
      try {
        const mcpServers = await api.request('mcp:servers', {});
        set({ mcpServers, mcpStatus: 'ready', mcpError: undefined });
      } catch (error) {
        set({ mcpStatus: 'error', mcpError: errorMessage(error) });
      }
    },

    async restartMcpServer(server) {
      set((state) => ({ mcpRestarting: [...state.mcpRestarting, server.id] }));
      try {
        const fresh = await api.request('mcp:restart', { name: server.name, ...(server.projectId ? { projectId: server.projectId } : {}) });
        get().mcpServerChanged(fresh);
        if (fresh.state === 'failed') get().notify(`The MCP server "${server.name}" did not start; its error is shown in Settings.`);
      } catch (error) {
        get().notify(`Could not restart the MCP server "${server.name}": ${errorMessage(error)}`);
      } finally {
        set((state) => ({ mcpRestarting: state.mcpRestarting.filter((id) => id !== server.id) }));
      }
    },

    mcpServerChanged(server) {
      set((state) => {
        const index = state.mcpServers.findIndex((known) => known.id === server.id);
        if (index < 0) return { mcpServers: [...state.mcpServers, server] };
        const mcpServers = [...state.mcpServers];
        mcpServers[index] = server;
        return { mcpServers };
      });
    },
  };
}

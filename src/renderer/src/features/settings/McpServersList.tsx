import type { McpServerView } from '../../../../shared/contract';
import { plural } from '../../lib/format';
import { useApp } from '../../stores/useApp';
import './mcp.css';

const STATE_LABEL: Record<McpServerView['state'], string> = {
  idle: 'not started',
  starting: 'starting',
  ready: 'ready',
  failed: 'failed',
  stopped: 'stopped',
  untrusted: 'folder not trusted',
};

/**
 * The MCP servers from the person's settings and each project's .tether/settings.json: their state,
 * tools, errors and last stderr lines, with Restart. A server that is not started yet starts when a
 * session first needs its tools.
 */
export function McpServersList() {
  const servers = useApp((state) => state.mcpServers);
  const status = useApp((state) => state.mcpStatus);
  const error = useApp((state) => state.mcpError);
  const loadMcpServers = useApp((state) => state.loadMcpServers);

  return (
    <section className="mcp-servers" aria-labelledby="mcp-title">
      <h2 id="mcp-title">MCP servers</h2>
      {status === 'error' ? (
        <p className="error-text" role="alert">
          Could not list the MCP servers: {error}{' '}
          <button type="button" onClick={() => void loadMcpServers()}>
            Try again
          </button>
        </p>
      ) : status !== 'ready' ? (
        <p className="faint">Loading…</p>
      ) : servers.length === 0 ? (
        <p className="faint" data-testid="mcp-empty">
          No MCP servers. Add them under <span className="mono">"mcpServers"</span> in your settings file or a project's{' '}
          <span className="mono">.tether/settings.json</span>, as Claude Desktop and Cursor write them.
        </p>
      ) : (
        <ul className="mcp-list" data-testid="mcp-list">
          {servers.map((server) => (
            <McpServerItem key={server.id} server={server} />
          ))}
        </ul>
      )}
    </section>
  );
}

function McpServerItem({ server }: { server: McpServerView }) {
  const projects = useApp((state) => state.projects);
  const restarting = useApp((state) => state.mcpRestarting.includes(server.id));
  const restartMcpServer = useApp((state) => state.restartMcpServer);
  const project = server.projectId ? projects.find((candidate) => candidate.id === server.projectId) : undefined;
  const where =
    server.source === 'project'
      ? `project ${project?.name ?? server.projectId ?? ''}`
      : server.source === 'cli'
        ? '--mcp-config'
        : 'your settings';
  const canRestart = server.state !== 'untrusted' && server.transport !== 'unknown';

  return (
    <li className="mcp-server" data-testid="mcp-server" data-server={server.name} data-state={server.state}>
      <div className="mcp-server-head">
        <span className="mcp-name">{server.name}</span>
        <span className={`mcp-state mcp-state-${server.state}`} data-testid="mcp-state">
          {STATE_LABEL[server.state]}
          {server.restarts > 0 && server.state !== 'failed' ? ` (restart ${server.restarts})` : ''}
        </span>
        <span className="faint mcp-where">from {where}</span>
        {canRestart && (
          <button
            type="button"
            className="mcp-restart"
            data-testid="mcp-restart"
            aria-label={`Restart ${server.name}`}
            disabled={restarting}
            onClick={() => void restartMcpServer(server)}
          >
            {restarting ? 'Restarting…' : server.state === 'idle' || server.state === 'stopped' ? 'Start' : 'Restart'}
          </button>
        )}
      </div>
      <div className="mono faint mcp-target" title={server.file}>
        {server.transport === 'http' ? 'HTTP ' : server.transport === 'stdio' ? '$ ' : ''}
        {server.target}
      </div>
      {server.error && (
        <pre className={`code-block wrap mcp-error${server.state === 'untrusted' ? ' mcp-note' : ''}`} data-testid="mcp-error">
          {server.error}
        </pre>
      )}
      {server.tools.length > 0 && (
        <details className="mcp-tools" open={server.tools.length <= 8}>
          <summary>{plural(server.tools.length, 'tool')}</summary>
          <ul data-testid="mcp-tools">
            {server.tools.map((tool) => (
              <li key={tool.modelName} data-testid="mcp-tool">
                <span className="mono" title={tool.modelName}>
                  {tool.name}
                </span>
                {tool.description && <span className="faint"> — {firstLine(tool.description)}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {server.stderr.length > 0 && (
        <details className="mcp-stderr">
          <summary>Recent stderr ({plural(server.stderr.length, 'line')})</summary>
          <pre className="code-block wrap" data-testid="mcp-stderr">
            {server.stderr.join('\n')}
          </pre>
        </details>
      )}
    </li>
  );
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}

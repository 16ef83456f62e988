import type { ConnectionFailureKind, ConnectionTestResult, ListedModel, ToolSupport } from '../../../../shared/modelSetup';
import './connection.css';

const failureLabel: Record<ConnectionFailureKind, string> = {
  dns: 'The host name does not resolve',
  refused: 'Connection refused',
  timeout: 'No answer (timed out)',
  tls: 'Secure connection failed',
  unauthorized: 'Key refused or missing',
  not_found: 'Wrong path (404)',
  not_json: 'Not a model API (not JSON)',
  not_a_listing: 'Not a model listing',
  redirect: 'Redirects elsewhere',
  http: 'The server answered with an error',
  network: 'Connection failed',
};

const toolsLabel: Record<ToolSupport, string> = { yes: 'tools', no: 'no tools', unknown: 'tools: unknown' };

/** What "Test connection" found: the models (which can use tools, where the server says), or what failed. */
export function ConnectionResult({
  result,
  selectedModel,
  onPick,
}: {
  result: ConnectionTestResult;
  selectedModel?: string;
  onPick?: (model: string) => void;
}) {
  if (!result.ok) {
    return (
      <div className="connection-result connection-failed" role="alert" data-testid="connection-failed" data-failure={result.failure}>
        <strong>{failureLabel[result.failure]}</strong>
        <span className="connection-message">{result.message}</span>
        <span className="faint mono connection-url">GET {result.url}</span>
      </div>
    );
  }
  const noTools = result.models.filter((model) => model.tools === 'no').length;
  return (
    <div className="connection-result connection-ok" role="status" data-testid="connection-ok">
      <strong>
        Connected: {result.models.length} {result.models.length === 1 ? 'model' : 'models'}
        {noTools > 0 ? `, ${noTools} cannot use tools` : ''}
      </strong>
      {result.models.length === 0 ? (
        <span className="faint">The server lists no models. Load or pull one, then test again.</span>
      ) : (
        <ul className="connection-models" data-testid="connection-models" aria-label="Models">
          {result.models.map((model) => (
            <ModelRow key={model.id} model={model} selected={model.id === selectedModel} {...(onPick ? { onPick } : {})} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ModelRow({ model, selected, onPick }: { model: ListedModel; selected: boolean; onPick?: (model: string) => void }) {
  const badge = (
    <span
      className={`badge tools-${model.tools}`}
      title={model.toolsNote ?? (model.tools === 'unknown' ? 'The server’s listing does not say.' : undefined)}
    >
      {toolsLabel[model.tools]}
    </span>
  );
  return (
    <li data-testid="connection-model" data-model={model.id} data-tools={model.tools}>
      {onPick ? (
        <button
          type="button"
          className={`ghost connection-model${selected ? ' selected' : ''}`}
          aria-pressed={selected}
          onClick={() => onPick(model.id)}
        >
          <span className="mono">{model.id}</span>
          {badge}
        </button>
      ) : (
        <span className="connection-model">
          <span className="mono">{model.id}</span>
          {badge}
        </span>
      )}
      {model.tools === 'no' && model.toolsNote && <span className="faint connection-note">{model.toolsNote}</span>}
    </li>
  );
}

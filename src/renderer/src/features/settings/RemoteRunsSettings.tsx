import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { NewRunnerToken, RemoteRunsUpdate, RemoteRunsView } from '../../../../shared/remoteRuns';
import { getApi } from '../../lib/api';
import { errorMessage } from '../../lib/errorMessage';
import { formatAge } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import '../sessions/remoteRuns.css';

/**
 * Settings → Remote runs: whether runs on other machines (`tether run --desk`) may report to this
 * desk, where it listens, the runners' tokens (each shown once, when made) and the rules "Allow
 * always" gave a repository on a runner. Off by default. Kept out of the app store: only this reads it.
 */
export function RemoteRunsSettings() {
  const [view, setView] = useState<RemoteRunsView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [made, setMade] = useState<NewRunnerToken | undefined>();
  const [busy, setBusy] = useState(false);
  const now = useNow(60_000);

  const act = useCallback(async (what: string, work: () => Promise<RemoteRunsView | void>) => {
    setBusy(true);
    setError(undefined);
    try {
      const next = await work();
      setView(next ?? (await getApi().request('remote:get', {})));
    } catch (caught) {
      setError(`Could not ${what}: ${errorMessage(caught)}`);
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    void act('load the remote runs settings', async () => getApi().request('remote:get', {}));
  }, [act]);

  const configure = (update: RemoteRunsUpdate) => act('change remote runs', () => getApi().request('remote:configure', update));

  return (
    <section className="remote-runs-settings" aria-labelledby="remote-runs-title" data-testid="remote-runs-settings">
      <h2 id="remote-runs-title">Remote runs</h2>
      <p className="faint">
        Runs in CI, on build machines or in a cluster (<code>tether run --desk</code>) send their requests here and wait for your answer;
        they run where they are, never on this machine.
      </p>
      {error && (
        <p className="error-text" role="alert" data-testid="remote-runs-error">
          {error}
        </p>
      )}
      {view && (
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              data-testid="remote-runs-enabled"
              checked={view.enabled}
              disabled={busy}
              onChange={(event) => void configure({ enabled: event.target.checked })}
            />
            Accept remote runs
          </label>
          <ListenForm view={view} busy={busy} onSave={(listen) => void configure({ listen })} />
          <Status view={view} />
          <Tokens
            view={view}
            made={made}
            busy={busy}
            now={now}
            onCreate={(name) =>
              act('make the token', async () => {
                setMade(await getApi().request('remote:createToken', { name }));
              })
            }
            onRevoke={(name) =>
              act(`revoke the token of ${name}`, async () => {
                setMade(undefined);
                await getApi().request('remote:revokeToken', { name });
              })
            }
          />
          <RunnerRules
            view={view}
            busy={busy}
            onRevoke={(ruleId) => act('revoke the rule', () => getApi().request('remote:revokeRule', { ruleId }))}
          />
        </>
      )}
    </section>
  );
}

function ListenForm({ view, busy, onSave }: { view: RemoteRunsView; busy: boolean; onSave(listen: RemoteRunsView['listen']): void }) {
  const [host, setHost] = useState(view.listen.host);
  const [port, setPort] = useState(String(view.listen.port));
  const loopback = /^(127\.|localhost$|::1$)/.test(host.trim());
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    onSave({ host: host.trim(), port: Number(port) });
  }
  return (
    <form className="remote-listen" onSubmit={handleSubmit}>
      <label className="field">
        <span>Listen on</span>
        <input data-testid="remote-runs-host" value={host} spellCheck={false} onChange={(event) => setHost(event.target.value)} />
      </label>
      <label className="field">
        <span>Port</span>
        <input data-testid="remote-runs-port" inputMode="numeric" value={port} onChange={(event) => setPort(event.target.value)} />
      </label>
      <button type="submit" disabled={busy || (host.trim() === view.listen.host && Number(port) === view.listen.port)}>
        Save
      </button>
      <p className="faint field-hint">
        {loopback
          ? 'Loopback: only this machine connects. From another machine, tunnel to it: ssh -N -R 7717:127.0.0.1:7717 runner-host.'
          : 'Any other address takes TLS: the desk makes its own certificate; runners pin its fingerprint (--desk-fingerprint).'}
      </p>
    </form>
  );
}

function Status({ view }: { view: RemoteRunsView }) {
  if (view.state === 'failed') {
    return (
      <p className="error-text" data-testid="remote-runs-state" data-state="failed">
        {view.problem}
      </p>
    );
  }
  if (view.state === 'off') {
    return (
      <p className="faint" data-testid="remote-runs-state" data-state="off">
        Off: no run from another machine can reach this desk.
      </p>
    );
  }
  return (
    <div data-testid="remote-runs-state" data-state="listening">
      <p>
        Runners connect to <code data-testid="remote-runs-url">{view.url}</code>
      </p>
      {view.fingerprint && (
        <p className="remote-fingerprint">
          Certificate SHA-256, for <code>--desk-fingerprint</code>: <code data-testid="remote-runs-fingerprint">{view.fingerprint}</code>
        </p>
      )}
    </div>
  );
}

function Tokens({
  view,
  made,
  busy,
  now,
  onCreate,
  onRevoke,
}: {
  view: RemoteRunsView;
  made: NewRunnerToken | undefined;
  busy: boolean;
  now: number;
  onCreate(name: string): void;
  onRevoke(name: string): void;
}) {
  const [name, setName] = useState('');
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (name.trim()) onCreate(name.trim());
    setName('');
  }
  return (
    <div className="remote-tokens">
      <h3>Runner tokens</h3>
      {view.tokens.length === 0 ? (
        <p className="faint">No runner has a token yet.</p>
      ) : (
        <ul className="remote-token-list" data-testid="remote-token-list">
          {view.tokens.map((token) => (
            <li key={token.name} data-testid="remote-token" data-runner={token.name}>
              <span className="mono">{token.name}</span>
              <span className="faint">
                made {formatAge(token.createdAt, now)}
                {token.lastUsedAt ? `, used ${formatAge(token.lastUsedAt, now)}` : ''}
              </span>
              <button type="button" className="ghost danger" disabled={busy} onClick={() => onRevoke(token.name)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {made && (
        <div className="remote-token-made" role="status" data-testid="remote-token-made">
          <p>
            The token of <strong>{made.name}</strong>, shown this once (only its hash is kept):
          </p>
          <code className="mono remote-token-value" data-testid="remote-token-value">
            {made.token}
          </code>
          <p className="faint">
            On the runner: <code>TETHER_DESK_TOKEN=… tether run --desk {view.url ?? 'ws://127.0.0.1:7717'} "task"</code>
          </p>
        </div>
      )}
      <form className="remote-token-form" onSubmit={handleSubmit}>
        <label className="field">
          <span>New runner</span>
          <input data-testid="remote-token-name" placeholder="ci-linux-1" value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" data-testid="remote-token-create" disabled={busy || !name.trim()}>
          Make a token
        </button>
      </form>
    </div>
  );
}

function RunnerRules({ view, busy, onRevoke }: { view: RemoteRunsView; busy: boolean; onRevoke(ruleId: string): void }) {
  if (view.rules.length === 0) return null;
  return (
    <div className="remote-rules">
      <h3>Allowed always on a runner</h3>
      <ul data-testid="remote-rule-list">
        {view.rules.map((rule) => (
          <li key={rule.id} data-testid="remote-rule">
            <span className="mono">{rule.pattern}</span>
            <span className="faint">
              {rule.repository} on {rule.runner}
            </span>
            <button type="button" className="ghost danger" disabled={busy} onClick={() => onRevoke(rule.id)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

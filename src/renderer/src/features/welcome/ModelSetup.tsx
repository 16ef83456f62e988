import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../../shared/contract';
import type { ConnectionTestResult, LocalServerView } from '../../../../shared/modelSetup';
import { PROVIDERS, type ProviderPreset } from '../../../../shared/providers';
import { useApp } from '../../stores/useApp';
import { ConnectionCheck } from '../settings/ConnectionCheck';
import { DeadAddressWarning } from '../settings/DeadAddressWarning';
import { keyKeptText } from '../settings/keyKeptText';
import { ModelFields, type ModelFieldValues } from '../settings/ModelFields';
import { useConnectionTest } from '../settings/useConnectionTest';
import './welcome.css';

type ProviderId = ProviderPreset['id'];

/**
 * First run with no model: the providers by name, the local servers main found running, a key that
 * goes to main (never shown again), "Test connection" and a model picked from what the server lists.
 */
export function ModelSetup({ settings }: { settings: SettingsView }) {
  const findLocalServers = useApp((state) => state.findLocalServers);
  const saveSettings = useApp((state) => state.saveSettings);
  const [local, setLocal] = useState<LocalServerView[] | null>(null);
  const [chosen, setChosen] = useState<ProviderId | null>(null);
  const [fields, setFields] = useState<ModelFieldValues>({ baseUrl: '', api: 'chat', apiKey: '', model: '' });
  const { baseUrl, api, apiKey, model } = fields;
  const editFields = (next: Partial<ModelFieldValues>) => setFields((current) => ({ ...current, ...next }));
  const [saving, setSaving] = useState(false);
  const [deadAddress, setDeadAddress] = useState<ConnectionTestResult | null>(null);
  const connection = useConnectionTest();
  const form = useRef<HTMLFormElement>(null);
  const warning = useRef<HTMLDivElement>(null);

  // The form opens below the providers: bring it into view, as far as it needs.
  useEffect(() => {
    if (chosen) form.current?.scrollIntoView?.({ block: 'nearest' });
  }, [chosen]);

  // The warning for an address that does not answer, and its choices, open below the fold of a small
  // window: bring them into view, where the person who just pressed Use is looking. Focus stays where
  // it is, so a second press of Enter does not use a dead address.
  useEffect(() => {
    if (deadAddress) warning.current?.scrollIntoView?.({ block: 'nearest' });
  }, [deadAddress]);

  useEffect(() => {
    let live = true;
    void findLocalServers().then((found) => {
      if (live) setLocal(found);
    });
    return () => {
      live = false;
    };
  }, [findLocalServers]);

  const found = (id: ProviderId) => local?.find((server) => server.id === id);
  const preset = PROVIDERS.find((provider) => provider.id === chosen);
  const keyFromEnv = preset?.keyEnv && settings.keyVariables.includes(preset.keyEnv) ? preset.keyEnv : undefined;
  const shownResult = connection.resultFor({ baseUrl, api, apiKey, held: settings });

  function choose(provider: ProviderPreset) {
    setChosen(provider.id);
    const server = found(provider.id);
    editFields({
      baseUrl: server?.baseUrl ?? provider.baseUrl,
      api: provider.api,
      model: server?.models[0] ?? provider.suggestedModel ?? '',
    });
    setDeadAddress(null);
    connection.reset();
    if (server) void test(server.baseUrl, provider.api);
  }

  async function test(url = baseUrl, withApi = api) {
    setDeadAddress(null);
    const answer = await connection.run({ baseUrl: url.trim(), api: withApi, apiKey, held: settings });
    // Start from a model that can use tools, where the listing says which.
    if (answer?.ok && answer.models.length > 0) {
      setFields((current) => {
        if (current.model && answer.models.some((listed) => listed.id === current.model)) return current;
        const start =
          answer.models.find((listed) => listed.tools === 'yes') ??
          answer.models.find((listed) => listed.tools !== 'no') ??
          answer.models[0]!;
        return { ...current, model: start.id };
      });
    }
    return answer;
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving || !baseUrl.trim() || !model.trim()) return;
    const tested = shownResult ?? (await test());
    if (!tested) return;
    if (!tested.ok) {
      setDeadAddress(tested);
      return;
    }
    await save();
  }

  async function save() {
    setDeadAddress(null);
    setSaving(true);
    const saved = await saveSettings({ baseUrl: baseUrl.trim(), api, model: model.trim(), ...(apiKey ? { apiKey } : {}) });
    setSaving(false);
    if (saved) editFields({ apiKey: '' });
  }

  return (
    <section className="model-setup" aria-labelledby="model-setup-title" data-testid="model-setup">
      <h2 id="model-setup-title">Set up a model</h2>
      <p className="muted">Tether needs a model that can call tools. Choose where yours runs; you can change it later in Settings.</p>
      <p className="faint local-search" data-testid="local-search" aria-live="polite">
        {local === null
          ? 'Looking for Ollama and LM Studio on this machine…'
          : local.length === 0
            ? 'No Ollama (port 11434) or LM Studio (port 1234) running on this machine.'
            : `Found on this machine: ${local.map((server) => `${server.name} (${server.models.length} ${server.models.length === 1 ? 'model' : 'models'})`).join(', ')}.`}
      </p>
      <div className="provider-list" role="radiogroup" aria-label="Model providers">
        {PROVIDERS.map((provider) => {
          const server = found(provider.id);
          const envKey = provider.keyEnv && settings.keyVariables.includes(provider.keyEnv) ? provider.keyEnv : undefined;
          return (
            <button
              type="button"
              key={provider.id}
              role="radio"
              aria-checked={chosen === provider.id}
              className={`provider${chosen === provider.id ? ' chosen' : ''}${server ? ' found' : ''}`}
              data-testid={`provider-${provider.id}`}
              onClick={() => choose(provider)}
            >
              <span className="provider-name">
                {provider.name}
                {server && <span className="badge provider-found">running here</span>}
                {provider.local && local !== null && !server && <span className="badge">not found</span>}
                {envKey && <span className="badge">{envKey} set</span>}
              </span>
              <span className="provider-blurb faint">{provider.blurb}</span>
            </button>
          );
        })}
      </div>

      {preset && (
        <form ref={form} className="provider-form" onSubmit={handleSubmit} aria-label={`Set up ${preset.name}`} data-testid="provider-form">
          <ModelFields
            idPrefix="setup"
            values={fields}
            onChange={editFields}
            apiChoice={preset.id === 'custom'}
            explained={false}
            autoFocusBaseUrl={preset.id === 'custom'}
            apiKeyField={
              preset.needsKey || preset.id === 'custom'
                ? {
                    label: `API key${preset.needsKey ? '' : ' (if the server wants one)'}`,
                    placeholder: keyFromEnv ? `leave empty to use ${keyFromEnv}` : 'paste the key',
                    note: `Never shown again. ${keyKeptText(settings.keyKept)}${keyFromEnv ? ` ${keyFromEnv} is set in Tether’s environment.` : ''}`,
                  }
                : null
            }
            connectionCheck={
              <ConnectionCheck
                connection={connection}
                baseUrl={baseUrl}
                shownResult={deadAddress ? null : shownResult}
                model={model}
                testId="setup-test"
                onTest={() => void test()}
                onPick={(picked) => editFields({ model: picked })}
              />
            }
          />
          {deadAddress && (
            <DeadAddressWarning
              ref={warning}
              baseUrl={baseUrl}
              result={deadAddress}
              saveLabel="Use it anyway"
              saving={saving}
              testIdPrefix="setup"
              onSave={() => void save()}
              onKeepEditing={() => setDeadAddress(null)}
            />
          )}
          <div className="settings-actions">
            <button
              type="submit"
              className="primary"
              data-testid="setup-save"
              disabled={saving || connection.status === 'testing' || !baseUrl.trim() || !model.trim()}
            >
              {saving ? 'Saving…' : `Use ${preset.name}`}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

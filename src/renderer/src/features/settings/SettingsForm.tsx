import { useState, type FormEvent } from 'react';
import type { SettingsUpdate, SettingsView } from '../../../../shared/contract';
import type { ConnectionTestResult } from '../../../../shared/modelSetup';
import { useApp } from '../../stores/useApp';
import { ConnectionCheck } from './ConnectionCheck';
import { DeadAddressWarning } from './DeadAddressWarning';
import { keyKeptText } from './keyKeptText';
import { belowFloor, ManagedPolicyNotice } from './ManagedPolicyNotice';
import { connectionKey, useConnectionTest } from './useConnectionTest';

type Mode = SettingsView['mode'];
type Outside = SettingsView['outsideContent'];
type Api = SettingsView['api'];

/** Each API's own server, offered when the person switches API while the base URL is still the other's. */
const officialBaseUrl: Record<Api, string> = {
  responses: 'https://api.openai.com/v1',
  chat: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

const apiHint: Record<Api, string> = {
  responses: 'OpenAI’s Responses API. Use Chat Completions for servers that lack it (Ollama, LM Studio, most gateways).',
  chat: 'Chat Completions: Ollama, LM Studio, vLLM, OpenRouter and most gateways.',
  anthropic: 'Claude models through Anthropic Messages; the key may also come from ANTHROPIC_API_KEY.',
};

/**
 * The model and permission defaults. The API key is write-only: the form never shows the stored
 * key, only whether one is stored, and sends a key only when one is typed (or null to forget it).
 */
export function SettingsForm({ settings }: { settings: SettingsView }) {
  const saveSettings = useApp((state) => state.saveSettings);
  const policy = settings.managedPolicy;
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl);
  const [api, setApi] = useState(settings.api);
  const [model, setModel] = useState(settings.model);
  const [apiKey, setApiKey] = useState('');
  const [maxSteps, setMaxSteps] = useState(String(settings.maxSteps));
  const [mode, setMode] = useState<Mode>(settings.mode);
  const [outsideContent, setOutsideContent] = useState<Outside>(settings.outsideContent);
  const [saving, setSaving] = useState(false);
  const connection = useConnectionTest();
  // The failed test of an address about to be saved: shown, and saved only by "Save anyway".
  const [deadAddress, setDeadAddress] = useState<ConnectionTestResult | null>(null);
  const steps = Number(maxSteps);
  const stepsValid = Number.isInteger(steps) && steps > 0;

  const update: SettingsUpdate = {};
  if (baseUrl.trim() !== settings.baseUrl) update.baseUrl = baseUrl.trim();
  if (api !== settings.api) update.api = api;
  if (model.trim() !== settings.model) update.model = model.trim();
  if (stepsValid && steps !== settings.maxSteps) update.maxSteps = steps;
  if (mode !== settings.mode) update.mode = mode;
  if (outsideContent !== settings.outsideContent) update.outsideContent = outsideContent;
  if (apiKey) update.apiKey = apiKey;
  const dirty = Object.keys(update).length > 0;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!dirty || !stepsValid || saving) return;
    // A new address (or API) is asked first: one that does not answer is saved only on purpose.
    if (update.baseUrl !== undefined || update.api !== undefined) {
      setSaving(true);
      const answer = await connection.run({ baseUrl: baseUrl.trim(), api, ...(apiKey ? { apiKey } : {}) });
      if (!answer || !answer.ok) {
        setSaving(false);
        if (answer) setDeadAddress(answer);
        return;
      }
    }
    await save();
  }
  async function save() {
    setDeadAddress(null);
    setSaving(true);
    const saved = await saveSettings(update);
    setSaving(false);
    if (saved) setApiKey('');
  }
  function handleTest() {
    setDeadAddress(null);
    void connection.run({ baseUrl: baseUrl.trim(), api, ...(apiKey ? { apiKey } : {}) });
  }
  const shownResult = connection.result && connection.testedFor === connectionKey(baseUrl, api) ? connection.result : null;
  function handleApiChange(next: Api) {
    if (Object.values(officialBaseUrl).includes(baseUrl.trim().replace(/\/+$/, ''))) setBaseUrl(officialBaseUrl[next]);
    setApi(next);
  }
  async function handleClearKey() {
    setSaving(true);
    await saveSettings({ apiKey: null });
    setSaving(false);
  }

  return (
    <form className="settings-form" onSubmit={handleSubmit} aria-label="Model and permissions">
      {policy && <ManagedPolicyNotice policy={policy} />}
      <h2>Model</h2>
      <label className="field">
        <span>Base URL</span>
        <input
          type="url"
          className="mono"
          data-testid="settings-base-url"
          spellCheck={false}
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
        />
        <small className="faint">
          {api === 'anthropic'
            ? 'Anthropic (https://api.anthropic.com) or a server that speaks its Messages API.'
            : 'Any OpenAI-compatible server: OpenAI, Ollama (http://127.0.0.1:11434/v1), LM Studio (http://127.0.0.1:1234/v1), vLLM…'}
        </small>
      </label>
      <div className="field">
        <ConnectionCheck
          connection={connection}
          baseUrl={baseUrl}
          shownResult={deadAddress ? null : shownResult}
          model={model}
          testId="settings-test-connection"
          hint={
            <small className="faint">
              Lists the models the server offers and which can use tools; uses the key typed below, else the stored one for this address.
            </small>
          }
          onTest={handleTest}
          onPick={setModel}
        />
      </div>
      <label className="field">
        <span>API</span>
        <select data-testid="settings-api" value={api} onChange={(event) => handleApiChange(event.target.value as Api)}>
          <option value="responses">Responses</option>
          <option value="chat">Chat Completions</option>
          <option value="anthropic">Anthropic Messages</option>
        </select>
        <small className="faint" data-testid="settings-api-hint">
          {apiHint[api]}
        </small>
      </label>
      <label className="field">
        <span>Model</span>
        <input
          type="text"
          className="mono"
          data-testid="settings-model"
          spellCheck={false}
          value={model}
          onChange={(event) => setModel(event.target.value)}
        />
        <small className="faint">New sessions use it; a running session keeps the model it started with.</small>
      </label>
      <div className="field">
        <label htmlFor="settings-api-key">API key</label>
        <div className="field-row">
          <input
            id="settings-api-key"
            type="password"
            data-testid="settings-api-key"
            autoComplete="new-password"
            placeholder={settings.hasApiKey ? 'a key is stored; type to replace it' : 'no key stored'}
            value={apiKey}
            onChange={(event) => setApiKey(event.target.value)}
          />
          {settings.hasApiKey && (
            <button type="button" data-testid="settings-clear-key" disabled={saving} onClick={handleClearKey}>
              Forget the stored key
            </button>
          )}
        </div>
        <small className="faint" data-testid="settings-api-key-status">
          {settings.storedKeyFor
            ? `A key is stored for ${settings.storedKeyFor} only: it is not sent to this address.`
            : settings.hasApiKey
              ? 'A key is stored. It is never shown here.'
              : 'No key is stored.'}{' '}
          {keyKeptText(settings.keyKept)}
        </small>
      </div>

      <h2>Agent</h2>
      <label className="field">
        <span>Step limit</span>
        <input
          type="number"
          min={1}
          step={1}
          data-testid="settings-max-steps"
          value={maxSteps}
          aria-invalid={!stepsValid}
          onChange={(event) => setMaxSteps(event.target.value)}
        />
        {!stepsValid && <small className="error-text">A whole number of steps, 1 or more.</small>}
      </label>
      <label className="field">
        <span>Permission mode for new sessions</span>
        <select data-testid="settings-mode" value={mode} onChange={(event) => setMode(event.target.value as Mode)}>
          <option value="ask">ask: edits and commands ask first</option>
          <option value="auto-edit">auto-edit: edits run, commands ask</option>
          <option value="read-only">read-only: nothing changes</option>
        </select>
        <small className="faint">Used by tether run, and in the app where a project has no default of its own (Projects, below).</small>
      </label>
      <label className="field">
        <span>After reading outside content</span>
        <select
          data-testid="settings-outside-content"
          value={outsideContent}
          onChange={(event) => setOutsideContent(event.target.value as Outside)}
        >
          <option value="ask" disabled={belowFloor(policy, 'ask')}>
            ask before anything that can send data out
          </option>
          <option value="block">block anything that can send data out</option>
          <option value="off" disabled={belowFloor(policy, 'off')}>
            off: no extra checks
          </option>
        </select>
        {policy?.outsideContentFloor && (
          <small className="faint" data-testid="settings-outside-content-fixed">
            The managed policy ({policy.file}) sets at least “{policy.outsideContentFloor}”: the choices below it are turned off.
          </small>
        )}
      </label>
      {deadAddress && (
        <DeadAddressWarning
          baseUrl={baseUrl}
          result={deadAddress}
          saveLabel="Save anyway"
          saving={saving}
          testIdPrefix="settings"
          onSave={() => void save()}
          onKeepEditing={() => setDeadAddress(null)}
        />
      )}
      <div className="settings-actions">
        <button type="submit" className="primary" data-testid="settings-save" disabled={!dirty || !stepsValid || saving}>
          {saving ? (connection.status === 'testing' ? 'Checking the address…' : 'Saving…') : 'Save'}
        </button>
      </div>
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import type { SettingsUpdate, SettingsView } from '../../../../shared/contract';
import type { ConnectionTestResult } from '../../../../shared/modelSetup';
import { useApp } from '../../stores/useApp';
import { ConnectionCheck } from './ConnectionCheck';
import { DeadAddressWarning } from './DeadAddressWarning';
import { keyKeptText } from './keyKeptText';
import { belowFloor, ManagedPolicyNotice } from './ManagedPolicyNotice';
import { ModelFields, type ModelFieldValues } from './ModelFields';
import { useConnectionTest } from './useConnectionTest';

type Mode = SettingsView['mode'];
type Outside = SettingsView['outsideContent'];

/**
 * The model and permission defaults. The API key is write-only: the form never shows the stored
 * key, only whether one is stored, and sends a key only when one is typed (or null to forget it).
 */
export function SettingsForm({ settings }: { settings: SettingsView }) {
  const saveSettings = useApp((state) => state.saveSettings);
  const policy = settings.managedPolicy;
  const [fields, setFields] = useState<ModelFieldValues>({
    baseUrl: settings.baseUrl,
    api: settings.api,
    model: settings.model,
    apiKey: '',
  });
  const { baseUrl, api, model, apiKey } = fields;
  const editFields = (next: Partial<ModelFieldValues>) => setFields((current) => ({ ...current, ...next }));
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
      const answer = await connection.run({ baseUrl: baseUrl.trim(), api, apiKey, held: settings });
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
    if (saved) editFields({ apiKey: '' });
  }
  function handleTest() {
    setDeadAddress(null);
    void connection.run({ baseUrl: baseUrl.trim(), api, apiKey, held: settings });
  }
  const shownResult = connection.resultFor({ baseUrl, api, apiKey, held: settings });
  async function handleClearKey() {
    setSaving(true);
    await saveSettings({ apiKey: null });
    setSaving(false);
  }

  return (
    <form className="settings-form" onSubmit={handleSubmit} aria-label="Model and permissions">
      {policy && <ManagedPolicyNotice policy={policy} />}
      <h2>Model</h2>
      <ModelFields
        idPrefix="settings"
        values={fields}
        onChange={editFields}
        apiChoice
        explained
        apiKeyField={{
          label: 'API key',
          placeholder: settings.hasApiKey ? 'a key is stored; type to replace it' : 'no key stored',
          note: (
            <>
              {settings.storedKeyFor
                ? `A key is stored for ${settings.storedKeyFor} only: it is not sent to this address.`
                : settings.hasApiKey
                  ? 'A key is stored. It is never shown here.'
                  : 'No key is stored.'}{' '}
              {keyKeptText(settings.keyKept)}
            </>
          ),
          action: settings.hasApiKey && (
            <button type="button" data-testid="settings-clear-key" disabled={saving} onClick={handleClearKey}>
              Forget the stored key
            </button>
          ),
        }}
        connectionCheck={
          <ConnectionCheck
            connection={connection}
            baseUrl={baseUrl}
            shownResult={deadAddress ? null : shownResult}
            model={model}
            testId="settings-test-connection"
            hint={
              <small className="faint">
                Lists the models the server offers and which can use tools; uses the key typed above, else the stored one for this address.
              </small>
            }
            onTest={handleTest}
            onPick={(picked) => editFields({ model: picked })}
          />
        }
      />

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

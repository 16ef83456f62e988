import type { ReactNode } from 'react';
import type { ModelApi } from '../../../../shared/conversation';

export interface ModelFieldValues {
  baseUrl: string;
  api: ModelApi;
  apiKey: string;
  model: string;
}

/** The API key field as one form shows it; the key is write-only, so the form says what is stored in `note`. */
interface ApiKeyField {
  label: string;
  placeholder: string;
  /** What is stored or where a key would come from, and where a typed one is kept. */
  note: ReactNode;
  /** Beside the input: Settings' "Forget the stored key". */
  action?: ReactNode;
}

/** Each API's own server, offered when the person switches API while the base URL is still the other's. */
const officialBaseUrl: Record<ModelApi, string> = {
  responses: 'https://api.openai.com/v1',
  chat: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

const apiHint: Record<ModelApi, string> = {
  responses: 'OpenAI’s Responses API. Use Chat Completions for servers that lack it (Ollama, LM Studio, most gateways).',
  chat: 'Chat Completions: Ollama, LM Studio, vLLM, OpenRouter and most gateways.',
  anthropic: 'Claude models through Anthropic Messages; the key may also come from ANTHROPIC_API_KEY.',
};

/** The base URL to keep when the API changes: one official server is swapped for the other's, any other address is the person's. */
export function baseUrlForApi(baseUrl: string, api: ModelApi): string {
  return Object.values(officialBaseUrl).includes(baseUrl.trim().replace(/\/+$/, '')) ? officialBaseUrl[api] : baseUrl;
}

/**
 * The fields that say which model to use (base URL, API, key, model) and the connection check
 * between them, in the order they are filled: the check uses the address, API and key above it,
 * and the model is picked from what it lists. Settings and the first run's setup both draw them;
 * `idPrefix` (`settings`, `setup`) names the test ids the e2e specs find each field by.
 */
export function ModelFields({
  idPrefix,
  values,
  onChange,
  apiChoice,
  explained,
  apiKeyField,
  autoFocusBaseUrl,
  connectionCheck,
}: {
  idPrefix: 'settings' | 'setup';
  values: ModelFieldValues;
  onChange(next: Partial<ModelFieldValues>): void;
  /** Whether the API can be chosen here: the first run fixes it by the provider, except for a custom server. */
  apiChoice: boolean;
  /** Settings says under each field what it does; the first run's provider blurbs already have. */
  explained: boolean;
  /** null: no key field (a local server needs none). */
  apiKeyField: ApiKeyField | null;
  autoFocusBaseUrl?: boolean;
  connectionCheck: ReactNode;
}) {
  const { baseUrl, api, apiKey, model } = values;
  return (
    <>
      <label className="field">
        <span>Base URL</span>
        <input
          type="url"
          className="mono"
          data-testid={`${idPrefix}-base-url`}
          spellCheck={false}
          placeholder={api === 'anthropic' ? 'https://…' : 'https://…/v1'}
          value={baseUrl}
          onChange={(event) => onChange({ baseUrl: event.target.value })}
          autoFocus={autoFocusBaseUrl}
        />
        {explained && (
          <small className="faint">
            {api === 'anthropic'
              ? 'Anthropic (https://api.anthropic.com) or a server that speaks its Messages API.'
              : 'Any OpenAI-compatible server: OpenAI, Ollama (http://127.0.0.1:11434/v1), LM Studio (http://127.0.0.1:1234/v1), vLLM…'}
          </small>
        )}
      </label>
      {apiChoice && (
        <label className="field">
          <span>API</span>
          <select
            data-testid={`${idPrefix}-api`}
            value={api}
            onChange={(event) => {
              const next = event.target.value as ModelApi;
              onChange({ api: next, baseUrl: baseUrlForApi(baseUrl, next) });
            }}
          >
            <option value="chat">Chat Completions (most servers)</option>
            <option value="responses">Responses</option>
            <option value="anthropic">Anthropic Messages</option>
          </select>
          {explained && (
            <small className="faint" data-testid={`${idPrefix}-api-hint`}>
              {apiHint[api]}
            </small>
          )}
        </label>
      )}
      {apiKeyField && (
        <div className="field">
          <label htmlFor={`${idPrefix}-api-key`}>{apiKeyField.label}</label>
          <div className="field-row">
            <input
              id={`${idPrefix}-api-key`}
              type="password"
              data-testid={`${idPrefix}-api-key`}
              autoComplete="new-password"
              placeholder={apiKeyField.placeholder}
              value={apiKey}
              onChange={(event) => onChange({ apiKey: event.target.value })}
            />
            {apiKeyField.action}
          </div>
          <small className="faint" data-testid={`${idPrefix}-api-key-status`}>
            {apiKeyField.note}
          </small>
        </div>
      )}
      <div className="field">{connectionCheck}</div>
      <label className="field">
        <span>Model</span>
        <input
          type="text"
          className="mono"
          data-testid={`${idPrefix}-model`}
          spellCheck={false}
          placeholder="pick one above, or type its id"
          value={model}
          onChange={(event) => onChange({ model: event.target.value })}
        />
        {explained && <small className="faint">New sessions use it; a running session keeps the model it started with.</small>}
      </label>
    </>
  );
}

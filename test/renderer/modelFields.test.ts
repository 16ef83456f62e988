import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { baseUrlForApi, ModelFields, type ModelFieldValues } from '../../src/renderer/src/features/settings/ModelFields';

// The model fields Settings and the first run both draw: the test ids the e2e specs find them by,
// labels a screen reader reads with their inputs, the order they are filled in, and what each form
// leaves out.

type Props = Parameters<typeof ModelFields>[0];
const values: ModelFieldValues = { baseUrl: 'http://127.0.0.1:11434/v1', api: 'chat', apiKey: '', model: 'qwen3:8b' };
const html = (props: Partial<Props> & Pick<Props, 'idPrefix'>) =>
  renderToStaticMarkup(
    createElement(ModelFields, {
      values,
      onChange: () => undefined,
      apiChoice: true,
      explained: true,
      apiKeyField: { label: 'API key', placeholder: 'no key stored', note: 'No key is stored.' },
      connectionCheck: createElement('button', { type: 'button', 'data-testid': 'check' }, 'Test connection'),
      ...props,
    }),
  );
const testIds = (markup: string) => [...markup.matchAll(/data-testid="([^"]+)"/g)].map((match) => match[1]);

describe('ModelFields', () => {
  it('draws the fields in the order they are filled, the check between the key it uses and the model it lists', () => {
    expect(testIds(html({ idPrefix: 'settings' }))).toEqual([
      'settings-base-url',
      'settings-api',
      'settings-api-hint',
      'settings-api-key',
      'settings-api-key-status',
      'check',
      'settings-model',
    ]);
  });

  it('names each form’s fields by its own prefix, and ties the key’s label to its input', () => {
    const setup = html({ idPrefix: 'setup' });
    expect(testIds(setup)).toEqual(expect.arrayContaining(['setup-base-url', 'setup-api', 'setup-api-key', 'setup-model']));
    expect(setup).not.toContain('settings-');
    expect(setup).toContain('<label for="setup-api-key">API key</label>');
    expect(setup).toMatch(/<input id="setup-api-key" type="password"[^>]*autoComplete="new-password"/i);
    // Base URL, API and Model are named by the label that wraps them.
    for (const name of ['Base URL', 'API', 'Model']) expect(setup).toContain(`<label class="field"><span>${name}</span>`);
  });

  it('leaves out what a form does not ask: the API of a named provider, the key of a local server, the hints of the first run', () => {
    const local = html({ idPrefix: 'setup', apiChoice: false, apiKeyField: null, explained: false });
    expect(testIds(local)).toEqual(['setup-base-url', 'check', 'setup-model']);
    expect(local).not.toContain('<small');
  });

  it('shows the key as typed only, with the form’s words about what is stored and its own action beside it', () => {
    const markup = html({
      idPrefix: 'settings',
      values: { ...values, apiKey: 'sk-typed' },
      apiKeyField: {
        label: 'API key',
        placeholder: 'a key is stored; type to replace it',
        note: 'A key is stored. It is never shown here.',
        action: createElement('button', { type: 'button', 'data-testid': 'settings-clear-key' }, 'Forget the stored key'),
      },
    });
    expect(markup).toContain('value="sk-typed"');
    expect(markup).toContain('placeholder="a key is stored; type to replace it"');
    expect(markup).toMatch(/data-testid="settings-api-key"[^>]*\/><button[^>]*data-testid="settings-clear-key"/);
    expect(markup).toContain('data-testid="settings-api-key-status">A key is stored. It is never shown here.</small>');
  });
});

describe('baseUrlForApi', () => {
  it('swaps one official server for the other’s when the API changes, however its address ends', () => {
    expect(baseUrlForApi('https://api.openai.com/v1', 'anthropic')).toBe('https://api.anthropic.com');
    expect(baseUrlForApi('https://api.openai.com/v1/', 'anthropic')).toBe('https://api.anthropic.com');
    expect(baseUrlForApi(' https://api.anthropic.com ', 'responses')).toBe('https://api.openai.com/v1');
    expect(baseUrlForApi('https://api.anthropic.com', 'anthropic')).toBe('https://api.anthropic.com');
  });

  it('keeps any other address as the person typed it', () => {
    for (const typed of ['http://127.0.0.1:11434/v1', 'https://platform.ai.gloo.com/ai/v2/direct', 'https://api.openai.com.evil/v1', ''])
      expect(baseUrlForApi(typed, 'anthropic')).toBe(typed);
  });
});

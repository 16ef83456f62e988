import { describe, expect, it } from 'vitest';
import type { Input } from '../../src/shared/contract';
import type { ConnectionTestResult } from '../../src/shared/modelSetup';
import { createConnectionTests, type ConnectionTarget } from '../../src/renderer/src/features/settings/connectionTests';
import { FakeApi } from './fakeApi';
import { harness } from './storeHarness';

// "Test connection" in Settings and the first run's setup: an answer shows only for what it was asked
// about, the key typed and the key main holds included, so a "Key refused" from before a key was
// pasted (or a listing made with a key since forgotten) never stands for the form as it is now.

const KEY = 'sk-pasted-after-the-test-0123456789';
const refused: ConnectionTestResult = {
  ok: false,
  url: 'https://api.example.test/v1/models',
  failure: 'unauthorized',
  status: 401,
  message: 'https://api.example.test refused the key (401).',
  sentKey: false,
};
const listed: ConnectionTestResult = {
  ok: true,
  url: 'https://api.example.test/v1/models',
  models: [{ id: 'm1', tools: 'yes' }],
  sentKey: true,
};

const held: ConnectionTarget['held'] = { baseUrl: '', hasApiKey: false, keyVariables: [] };
const form: ConnectionTarget = { baseUrl: 'https://api.example.test/v1', api: 'chat', apiKey: '', held };

/** The form's test, over the app store, against a main that refuses every request without KEY. */
function setup(answer?: (request: Input<'model:test'>) => Promise<ConnectionTestResult>) {
  const api = new FakeApi({
    'model:test': answer ?? (async (request) => (request.apiKey === KEY ? listed : refused)),
  });
  const { store } = harness(api);
  return { api, tests: createConnectionTests(store.getState().testConnection) };
}

describe('connection tests', () => {
  it('does not show "Key refused" once a key is pasted, and shows the new answer once tested with it', async () => {
    const { api, tests } = setup();
    expect(await tests.run(form)).toEqual(refused);
    expect(tests.resultFor(form)).toEqual(refused);

    const withKey = { ...form, apiKey: KEY };
    expect(tests.resultFor(withKey)).toBeNull();
    expect(await tests.run(withKey)).toEqual(listed);
    expect(tests.resultFor(withKey)).toEqual(listed);
    // The key went to main with the test, as typed.
    expect(api.callsTo('model:test')).toEqual([
      { baseUrl: form.baseUrl, api: 'chat' },
      { baseUrl: form.baseUrl, api: 'chat', apiKey: KEY },
    ]);
  });

  it('does not show a listing made with a key once that key is changed or cleared, and shows it again for the same key', async () => {
    const { tests } = setup();
    await tests.run({ ...form, apiKey: KEY });
    expect(tests.resultFor({ ...form, apiKey: `${KEY}x` })).toBeNull();
    expect(tests.resultFor({ ...form, apiKey: '' })).toBeNull();
    expect(tests.resultFor({ ...form, apiKey: undefined })).toBeNull();
    expect(tests.resultFor({ ...form, apiKey: KEY })).toEqual(listed);
  });

  it('does not show an answer once the key main holds changed: saved, forgotten, moved to another address, or a variable set', async () => {
    const { tests } = setup(async () => listed);
    const stored: ConnectionTarget = { ...form, held: { baseUrl: form.baseUrl, hasApiKey: true, keyVariables: [] } };
    await tests.run(stored);
    expect(tests.resultFor(stored)).toEqual(listed);
    expect(tests.resultFor({ ...stored, held: { ...stored.held, hasApiKey: false } })).toBeNull();
    expect(tests.resultFor({ ...stored, held: { ...stored.held, storedKeyFor: 'https://other.example.test' } })).toBeNull();
    expect(tests.resultFor({ ...stored, held: { ...stored.held, baseUrl: 'https://other.example.test/v1' } })).toBeNull();
    expect(tests.resultFor({ ...stored, held: { ...stored.held, keyVariables: ['OPENAI_API_KEY'] } })).toBeNull();
  });

  it('keeps an answer for the address as typed with spaces or a trailing slash, and not for another API or address', async () => {
    const { tests } = setup();
    await tests.run(form);
    expect(tests.resultFor({ ...form, baseUrl: ' https://api.example.test/v1/ ' })).toEqual(refused);
    expect(tests.resultFor({ ...form, api: 'responses' })).toBeNull();
    expect(tests.resultFor({ ...form, baseUrl: 'https://api.example.test/v2' })).toBeNull();
  });

  it('files an answer under the key it was asked with, even when the key changed while it was on its way', async () => {
    let answer!: (result: ConnectionTestResult) => void;
    const { tests } = setup(() => new Promise((resolve) => (answer = resolve)));
    const asked = tests.run(form);
    expect(tests.state().status).toBe('testing');
    answer(refused);
    await asked;
    expect(tests.resultFor({ ...form, apiKey: KEY })).toBeNull();
    expect(tests.resultFor(form)).toEqual(refused);
  });

  it('lets the latest test win over a slower earlier one', async () => {
    const answers: Array<(result: ConnectionTestResult) => void> = [];
    const { tests } = setup(() => new Promise((resolve) => answers.push(resolve)));
    const first = tests.run(form);
    const second = tests.run({ ...form, apiKey: KEY });
    answers[1]!(listed);
    await second;
    answers[0]!(refused);
    await first;
    expect(tests.resultFor(form)).toBeNull();
    expect(tests.resultFor({ ...form, apiKey: KEY })).toEqual(listed);
    expect(tests.state().status).toBe('done');
  });

  it('says why an address cannot be tested without asking main, and forgets the answer before it', async () => {
    const { api, tests } = setup();
    await tests.run(form);
    expect(await tests.run({ ...form, baseUrl: 'ftp://api.example.test' })).toBeNull();
    expect(tests.state().invalid).toMatch(/http/);
    expect(tests.resultFor(form)).toBeNull();
    expect(api.callsTo('model:test')).toHaveLength(1);
  });

  it('forgets its answer on reset, and drops the answer of a test reset while on its way', async () => {
    let answer!: (result: ConnectionTestResult) => void;
    const { tests } = setup(() => new Promise((resolve) => (answer = resolve)));
    const asked = tests.run(form);
    tests.reset();
    answer(refused);
    await asked;
    expect(tests.resultFor(form)).toBeNull();
    expect(tests.state().status).toBe('idle');
  });

  it('never keeps the typed key in the state a component or a devtool reads', async () => {
    const { tests } = setup();
    const seen: string[] = [];
    tests.subscribe(() => seen.push(JSON.stringify(tests.state())));
    await tests.run({ ...form, apiKey: KEY });
    expect(seen.length).toBeGreaterThan(0);
    for (const state of seen) expect(state).not.toContain(KEY);
  });
});

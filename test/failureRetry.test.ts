import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServices } from '../src/main/app/createServices';
import { memoryKeyStore } from '../src/main/app/model/keyStore';
import { foldEvents } from '../src/shared/session';
import { closeServices, openServices } from './support/appServices';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';

// A provider that fails: the log says how (retries with their count, the failure's kind), the
// failure notice's Retry runs the session again with no new message, and earlier failures stay.

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeServices();
  removeTempDirs();
});

describe('model failures through the app services', () => {
  it('logs each retry with the next try and the policy’s count, then the response', async () => {
    const app = await openServices({ turns: [{ error: { status: 503 } }, { text: 'Fine now.' }] });
    const { sessionId } = await app.handlers['session:start']({ workspace: fixtureRepo('failing-test'), task: 'hello' });
    await app.waitForEvent('session.finished');
    const retrying = app.events.find((stored) => stored.event.type === 'model.retrying')?.event;
    expect(retrying).toMatchObject({ type: 'model.retrying', attempt: 1, maxAttempts: 5 });
    const state = foldEvents(app.events.filter((stored) => stored.sessionId === sessionId));
    expect(state.status).toBe('done');
    expect(state.retrying).toBeUndefined();
  });

  it('records what kind of model failure ended a run; Retry runs it again with no new message and the failure stays', async () => {
    const app = await openServices({ turns: [{ error: { status: 401 } }] });
    const { sessionId } = await app.handlers['session:start']({ workspace: fixtureRepo('failing-test'), task: 'hello' });
    const finished = await app.waitForEvent('session.finished');
    expect(finished.event).toMatchObject({ status: 'failed', modelFailure: { kind: 'auth', status: 401 } });
    expect(finished.event.type === 'session.finished' && finished.event.reason).toMatch(/401 from .*the API key was refused/);

    app.server.push({ text: 'Answered on the retry.' });
    await app.handlers['session:retry']({ sessionId });
    await app.waitForCount('session.finished', 2);
    const log = app.events.filter((stored) => stored.sessionId === sessionId);
    expect(log.filter((stored) => stored.event.type === 'user.messaged')).toHaveLength(1);
    const state = foldEvents(log);
    expect(state.status).toBe('done');
    expect(state.endings).toEqual([expect.objectContaining({ status: 'failed', atItem: 1, modelFailure: { kind: 'auth', status: 401 } })]);
    expect(state.items.at(-1)).toMatchObject({ type: 'assistant', text: 'Answered on the retry.' });
    // The model was asked with the same conversation: the task, once.
    expect(app.server.requests).toHaveLength(2);
  });

  it('refuses Retry for a session that answered, and for one that does not exist', async () => {
    const app = await openServices({ turns: [{ text: 'Done.' }] });
    const { sessionId } = await app.handlers['session:start']({ workspace: fixtureRepo('failing-test'), task: 'hello' });
    await app.waitForEvent('session.finished');
    await expect(app.handlers['session:retry']({ sessionId })).rejects.toThrow(/finished with an answer; send a message/);
    await expect(app.handlers['session:retry']({ sessionId: 'nope' })).rejects.toThrow(/There is no session nope/);
  });

  it('says whether a model is set up, and which key variables exist, never a key', async () => {
    const app = await openServices();
    const view = await app.handlers['settings:get']({});
    expect(view.modelConfigured).toBe(true);
    expect(Array.isArray(view.keyVariables)).toBe(true);
    expect(JSON.stringify(view)).not.toContain('test-key');
  });

  it('says no model is set up on a first run with no settings and no key, until one is saved', async () => {
    for (const name of ['TETHER_BASE_URL', 'TETHER_API_KEY', 'OPENAI_API_KEY', 'GLOO_API_KEY', 'ANTHROPIC_API_KEY']) vi.stubEnv(name, '');
    vi.stubEnv('GLOO_API_KEY', 'gloo-secret');
    const services = createServices({ dataDir: tempDir('tether-data-'), host: 'serve', keyStore: memoryKeyStore(undefined) });
    try {
      const first = await services.handlers['settings:get']({});
      expect(first).toMatchObject({ modelConfigured: false, hasApiKey: false, keyVariables: ['GLOO_API_KEY'] });
      expect(JSON.stringify(first)).not.toContain('gloo-secret');
      const saved = await services.handlers['settings:update']({
        baseUrl: 'https://platform.ai.gloo.com/ai/v2/direct',
        api: 'chat',
        model: 'gloo-model',
      });
      // Gloo's own variable is its key; no other is sent there.
      expect(saved).toMatchObject({ modelConfigured: true, hasApiKey: true });
    } finally {
      await services.close();
    }
  });

  it('sends a key typed into the app only to the address it was saved with', async () => {
    for (const name of ['TETHER_BASE_URL', 'TETHER_API_KEY', 'OPENAI_API_KEY', 'GLOO_API_KEY', 'ANTHROPIC_API_KEY']) vi.stubEnv(name, '');
    const app = await openServices({ turns: [{ text: 'Hi.' }, { text: 'Hi again.' }] });
    const other = await openServices();
    // The harness keeps 'test-key' with no origin (settings from before origins were recorded): it goes where settings point.
    expect(await app.handlers['settings:get']({})).toMatchObject({ hasApiKey: true, keyKept: 'this-process' });
    // A key typed now belongs to this address.
    await app.handlers['settings:update']({ apiKey: 'sk-typed-for-first' });
    const { sessionId } = await app.handlers['session:start']({ workspace: fixtureRepo('failing-test'), task: 'hello' });
    await app.waitForEvent('session.finished');
    expect(new Set(app.server.received.map((request) => request.headers.authorization))).toEqual(new Set(['Bearer sk-typed-for-first']));

    // Pointed at another server, the key stays home, and Settings says why.
    const moved = await app.handlers['settings:update']({ baseUrl: other.server.baseUrl });
    expect(moved).toMatchObject({ hasApiKey: false, storedKeyFor: new URL(app.server.baseUrl).origin });
    expect(JSON.stringify(moved)).not.toContain('sk-typed-for-first');
    other.server.push({ text: 'From the other one.' });
    await app.handlers['session:send']({ sessionId, text: 'again' });
    await app.waitForCount('session.finished', 2);
    expect(other.server.received.length).toBeGreaterThan(0);
    // (The SDK's stand-in for "no key" is all that goes.)
    expect(new Set(other.server.received.map((request) => request.headers.authorization ?? 'none'))).toEqual(new Set(['Bearer no-key']));
    expect(JSON.stringify(other.server.received)).not.toContain('sk-typed-for-first');

    // Back at its own address it is used again; forgetting it forgets where it was for.
    expect(await app.handlers['settings:update']({ baseUrl: app.server.baseUrl })).toMatchObject({ hasApiKey: true });
    expect(await app.handlers['settings:update']({ apiKey: null })).not.toHaveProperty('storedKeyFor');
  });
});

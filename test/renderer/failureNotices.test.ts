import { describe, expect, it } from 'vitest';
import { endingHeadline, retryLabel } from '../../src/renderer/src/features/chat/failureText';
import { appendToLog, emptySessionLog } from '../../src/renderer/src/stores/pagedSessionLog';
import { FakeApi, storedEvents } from './fakeApi';
import { harness } from './storeHarness';

describe('the retry countdown', () => {
  const retrying = { nextAttempt: 2, maxAttempts: 5, delayMs: 4000, reason: 'Could not reach http://x (connection refused).' };

  it('says which try, out of how many, and the seconds left, rounding up', () => {
    expect(retryLabel(retrying, 4000)).toBe('Retrying (2/5) in 4 s');
    expect(retryLabel(retrying, 3001)).toBe('Retrying (2/5) in 4 s');
    expect(retryLabel(retrying, 2999)).toBe('Retrying (2/5) in 3 s');
    expect(retryLabel(retrying, 1)).toBe('Retrying (2/5) in 1 s');
  });

  it('says "now" once the wait is over, and leaves the count out when the log has none', () => {
    expect(retryLabel(retrying, 0)).toBe('Retrying (2/5) now…');
    expect(retryLabel(retrying, -500)).toBe('Retrying (2/5) now…');
    expect(retryLabel({ nextAttempt: 3, delayMs: 2000, reason: '' }, 2000)).toBe('Retrying (try 3) in 2 s');
  });
});

describe('failure notices', () => {
  it('name what failed for each model failure, with its status, and for the other stops', () => {
    expect(endingHeadline({ status: 'failed', modelFailure: { kind: 'connection' } })).toBe('Could not reach the model server');
    expect(endingHeadline({ status: 'failed', modelFailure: { kind: 'auth', status: 401 } })).toBe(
      'The model server refused the API key (401)',
    );
    expect(endingHeadline({ status: 'failed', modelFailure: { kind: 'not_found', status: 404 } })).toBe(
      'The model or its address was not found (404)',
    );
    expect(endingHeadline({ status: 'failed', modelFailure: { kind: 'unsupported' } })).toBe('This model cannot use tools');
    expect(endingHeadline({ status: 'failed' })).toBe('The session failed');
    expect(endingHeadline({ status: 'max_steps' })).toBe('Stopped at the step limit');
    expect(endingHeadline({ status: 'aborted' })).toBe('Stopped');
  });

  it('keep earlier failures in the page’s fold after the person sends again, and Retry asks main', async () => {
    const api = new FakeApi({ 'session:retry': () => undefined });
    const { store } = harness(api);
    const events = storedEvents('s1', [
      { type: 'session.started', workspace: '/w', model: 'm', api: 'chat', baseUrl: 'http://x/v1', maxSteps: 5 },
      { type: 'user.messaged', text: 'go' },
      { type: 'model.requested', step: 1 },
      { type: 'model.retrying', attempt: 1, delayMs: 900, reason: 'refused', maxAttempts: 5 },
      { type: 'session.finished', status: 'failed', reason: 'refused, gave up', modelFailure: { kind: 'connection' } },
      { type: 'session.resumed' },
      { type: 'user.messaged', text: 'again' },
      { type: 'model.requested', step: 2 },
      { type: 'model.retrying', attempt: 1, delayMs: 900, reason: 'refused', maxAttempts: 5 },
    ]);
    // Event by event, as the page receives them.
    let log = emptySessionLog;
    for (const stored of events) log = appendToLog(log, [stored]).log;
    const state = log.state;
    expect(state?.endings.map((ending) => ending.reason)).toEqual(['refused, gave up']);
    expect(state?.retrying).toMatchObject({ nextAttempt: 2, maxAttempts: 5 });
    await store.getState().retrySession('s1');
    expect(api.callsTo('session:retry')).toEqual([{ sessionId: 's1' }]);
  });

  it('say so in a toast when main refuses the retry', async () => {
    const api = new FakeApi({
      'session:retry': () => {
        throw new Error('This session finished with an answer; send a message to go on.');
      },
    });
    const { store } = harness(api);
    await store.getState().retrySession('s1');
    expect(store.getState().toasts.at(-1)?.message).toBe('Could not retry: This session finished with an answer; send a message to go on.');
  });
});

describe('Test connection and the local search in the store', () => {
  it('hands back main’s answer, or null and a toast when the request fails; no local servers when the search fails', async () => {
    const api = new FakeApi({
      'model:test': (input) => ({
        ok: true,
        url: `${input.baseUrl}/models`,
        models: [{ id: 'm', tools: 'unknown' }],
        sentKey: input.apiKey !== undefined,
      }),
      'model:findLocal': () => {
        throw new Error('socket closed');
      },
    });
    const { store } = harness(api);
    expect(await store.getState().testConnection({ baseUrl: 'http://127.0.0.1:9/v1', api: 'chat' })).toMatchObject({
      ok: true,
      sentKey: false,
    });
    expect(await store.getState().findLocalServers()).toEqual([]);
    api.handlers['model:test'] = () => {
      throw new Error('Type a full http:// or https:// address.');
    };
    expect(await store.getState().testConnection({ baseUrl: 'ftp://x', api: 'chat' })).toBeNull();
    expect(store.getState().toasts.at(-1)?.message).toMatch(/Could not test the connection/);
  });
});

import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/main/host/dispatch';
import { StoreError } from '../../src/main/store/storeError';
import { requests, type RequestName } from '../../src/shared/contract';
import { recordingHandlers, sampleInputs, sampleOutputs } from './contractSamples';

const names = Object.keys(requests) as RequestName[];

interface FakeSender {
  url: string;
}
const app: FakeSender = { url: 'file:///app/index.html' };
const stranger: FakeSender = { url: 'https://evil.example/' };

function setUp(overrides: Parameters<typeof recordingHandlers>[0] = {}) {
  const recorded = recordingHandlers(overrides);
  const logged: string[] = [];
  const dispatch = createDispatcher<FakeSender>({
    handlers: recorded.handlers,
    isTrustedSender: (sender) => sender.url === app.url,
    log: (message) => logged.push(message),
  });
  return { dispatch, calls: recorded.calls, logged };
}

describe('createDispatcher', () => {
  it('checks the sender of every request in the contract and never runs one for a stranger', async () => {
    const { dispatch, calls } = setUp();
    for (const name of names) {
      const reply = await dispatch(stranger, name, sampleInputs[name]);
      expect(reply, name).toEqual({
        ok: false,
        error: { code: 'failed', message: expect.stringMatching(/Refused the request .*own window/) },
      });
    }
    expect(calls).toEqual([]);
  });

  it('holds the input of every request in the contract to its schema before the handler runs', async () => {
    const { dispatch, calls } = setUp();
    for (const name of names) {
      for (const bad of [42, null, 'text', [], { ...(sampleInputs[name] as object), unexpected: { nested: true } }]) {
        const reply = await dispatch(app, name, bad);
        // A non-strict schema may ignore an extra key; it must never see a non-object.
        if (reply.ok) {
          expect(typeof bad, `${name} accepted ${JSON.stringify(bad)}`).toBe('object');
          continue;
        }
        expect(reply.error.code, `${name} with ${JSON.stringify(bad)}`).toBe('invalid_input');
        expect(reply.error.message.startsWith(`${name}: `)).toBe(true);
      }
    }
    // What got through is the parsed input: objects only, and never a key the schema lacks.
    expect(calls.every((call) => typeof call.input === 'object' && call.input !== null && !('unexpected' in call.input))).toBe(true);
  });

  it('runs every request in the contract with its parsed input and returns the contract-shaped output', async () => {
    const { dispatch, calls } = setUp();
    for (const name of names) {
      const reply = await dispatch(app, name, sampleInputs[name]);
      expect(reply, name).toEqual({ ok: true, output: sampleOutputs[name] });
    }
    expect(calls.map((call) => call.name)).toEqual(names);
  });

  it('hands the handler the parsed input (trimmed text) and names the field a refusal is about', async () => {
    const { dispatch, calls } = setUp();
    await dispatch(app, 'session:send', { sessionId: 's1', text: '  run it  ' });
    expect(calls).toEqual([{ name: 'session:send', input: { sessionId: 's1', text: 'run it' } }]);

    const reply = await dispatch(app, 'session:start', { workspace: '/w', task: '   ' });
    expect(reply).toEqual({ ok: false, error: { code: 'invalid_input', message: 'session:start: task: Type a task first.' } });
  });

  it('refuses names that are not in the contract, including ones every object inherits', async () => {
    const { dispatch, calls } = setUp();
    for (const name of ['nope', 'session:hack', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 42, undefined]) {
      const reply = await dispatch(app, name, {});
      expect(reply.ok, String(name)).toBe(false);
      if (!reply.ok) expect(reply.error.code).toBe('invalid_input');
    }
    expect(calls).toEqual([]);
  });

  it('keeps the not_found, conflict and invalid_input codes of thrown errors and reports others as failed', async () => {
    const { dispatch, logged } = setUp({
      'session:stop': async () => {
        throw new StoreError('not_found', 'There is no session s9.');
      },
      'approval:answer': async () => {
        throw Object.assign(new Error('Already answered.'), { code: 'conflict' });
      },
      'rules:revoke': async () => {
        throw new StoreError('invalid', 'A project rule needs its project.');
      },
      'session:delete': async () => {
        throw new Error('disk full while deleting s1');
      },
      'diff:files': async () => {
        throw Object.assign(new Error('spawn git ENOENT'), { code: 'ENOENT' });
      },
    });
    expect(await dispatch(app, 'session:stop', sampleInputs['session:stop'])).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'There is no session s9.' },
    });
    expect(await dispatch(app, 'approval:answer', sampleInputs['approval:answer'])).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'Already answered.' },
    });
    expect(await dispatch(app, 'rules:revoke', sampleInputs['rules:revoke'])).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'A project rule needs its project.' },
    });
    expect(await dispatch(app, 'session:delete', sampleInputs['session:delete'])).toEqual({
      ok: false,
      error: { code: 'failed', message: 'disk full while deleting s1' },
    });
    expect(await dispatch(app, 'diff:files', sampleInputs['diff:files'])).toEqual({
      ok: false,
      error: { code: 'failed', message: 'spawn git ENOENT' },
    });
    expect(logged).toEqual(['session:delete failed: disk full while deleting s1', 'diff:files failed: spawn git ENOENT']);
  });

  it('turns an answer the contract does not allow into a failure and logs the details', async () => {
    const { dispatch, logged } = setUp({ 'app:info': async () => ({ version: 1 }) as never });
    const reply = await dispatch(app, 'app:info', {});
    expect(reply).toEqual({ ok: false, error: { code: 'failed', message: expect.stringContaining('malformed answer') } });
    expect(logged[0]).toMatch(/^app:info returned an answer the contract does not allow: /);
  });

  it('sends only the fields the contract declares, so a stray secret in an answer never reaches the UI', async () => {
    const { dispatch } = setUp({ 'settings:get': async () => ({ ...sampleOutputs['settings:get'], apiKey: 'sk-secret' }) as never });
    const reply = await dispatch(app, 'settings:get', {});
    expect(reply.ok).toBe(true);
    expect(JSON.stringify(reply)).not.toContain('sk-secret');
  });

  it('treats a sender check that throws as a refusal', async () => {
    const { handlers, calls } = recordingHandlers();
    const dispatch = createDispatcher<FakeSender>({
      handlers,
      isTrustedSender: () => {
        throw new Error('frame destroyed');
      },
    });
    const reply = await dispatch(app, 'app:info', {});
    expect(reply.ok).toBe(false);
    expect(calls).toEqual([]);
  });
});

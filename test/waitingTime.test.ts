import { expect, it } from 'vitest';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import type { Broker } from '../src/main/permissions/broker';
import { startScriptedModel } from './fixtures/scriptedModel';
import { eventsOf } from './support/events';
import { closedAfterEach } from './support/loopLifetime';
import { tempDir } from './support/tempDirs';

// A call's duration is its own: the time it waited for the person is kept apart (issue 18: an edit
// "took" 40 s because the person read the diff for 40 s).

const loop = closedAfterEach();

it('keeps the time a call waited for the person out of its duration, and records it apart', async () => {
  const core = (loop.core = createCore({ dataDir: tempDir('tether-data-') }));
  const server = (loop.server = await startScriptedModel({
    turns: [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { text: 'Done.' },
    ],
  }));
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace: tempDir('tether-ws-'), task: 'write notes', model, maxSteps: 5 });
  const slowPerson: Broker = {
    decide: () => new Promise((resolve) => setTimeout(() => resolve({ action: 'allow', scope: 'once', by: 'person' }), 700)),
  };
  await core.run(sessionId, { model, broker: slowPerson, signal: new AbortController().signal });

  const [written, read] = eventsOf(core.store.events.list(sessionId), 'tool.finished');
  expect(written).toMatchObject({ name: 'write_file', outcome: 'ok' });
  expect(written!.waitedMs).toBeGreaterThanOrEqual(690);
  expect(written!.durationMs).toBeLessThan(500);
  // A call nobody was asked about waited for nobody.
  expect(read).toMatchObject({ name: 'read_file', outcome: 'ok' });
  expect(read!.waitedMs).toBeUndefined();
});

import { afterEach, expect, it } from 'vitest';
import type { ScriptedRequestBody } from './fixtures/scriptedModel';
import { closeServices, openServices } from './support/appServices';
import { fixtureRepo, removeTempDirs } from './support/tempDirs';

// "Compact now" through the contract handler, as the UI sends it: queued for the next turn while the
// agent works, at once when it does not.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

const isSummary = (body: ScriptedRequestBody) =>
  Array.isArray(body.messages) && body.messages[0]?.role === 'system' && String(body.messages[0]?.content).startsWith('You summarise');

it('compacts a working session before its next request, and an idle one at once', async () => {
  const { handlers, events, server, waitForEvent: waitFor } = await openServices();

  server.push(
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/price.js' } }] },
    // The person presses "Compact now" while this response is on its way.
    { toolCalls: [{ name: 'list_files', arguments: {} }], delayMs: 1_500 },
    { text: 'SUMMARY: read price.js, listed the files.' },
    { text: 'The discount is a percentage.' },
  );
  const { sessionId } = await handlers['session:start']({ workspace: fixtureRepo('failing-test'), task: 'explain the discount' });
  await waitFor((stored) => stored.event.type === 'model.requested' && stored.event.step === 2);
  expect(await handlers['session:compact']({ sessionId })).toEqual({ when: 'next_turn' });
  await waitFor((stored) => stored.event.type === 'session.finished');

  // The turn in flight was not cut: the summary went out after it, before the next request.
  expect(server.requests.map(isSummary)).toEqual([false, false, true, false]);
  const types = events.map((stored) => stored.event.type);
  expect(types.indexOf('context.compacted')).toBeGreaterThan(types.lastIndexOf('tool.finished'));
  const last = server.requests.at(-1)!.messages!;
  expect(last.some((message) => String(message.content).includes('SUMMARY: read price.js'))).toBe(true);

  // Idle now: "Compact now" runs at once, on its own.
  server.push({ text: 'SUMMARY: the discount was explained.' });
  expect(await handlers['session:compact']({ sessionId })).toEqual({ when: 'now' });
  await waitFor((stored) => stored.event.type === 'context.compacted' && stored.event.summary.includes('explained'));
  expect(server.requests.at(-1)).toSatisfy(isSummary);
  expect((await handlers['sessions:list']({}))[0]).toMatchObject({ id: sessionId, status: 'done' });
});

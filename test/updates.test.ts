import { afterEach, describe, expect, it } from 'vitest';
import type { EventName, EventPayload, UpdateView } from '../src/shared/contract';
import type { Turn } from './fixtures/scriptedModel';
import { closeServices, openServices } from './support/appServices';
import { FakeUpdater } from './support/fakeUpdater';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';

// The app services with an updater, as the packaged app has them: a ready update is announced, and
// "Restart to update" is refused while a real session waits for the person, allowed once it is done.

afterEach(async () => {
  await closeServices();
  removeTempDirs();
});

const editTurns: Turn[] = [
  {
    toolCalls: [
      { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'cents * percent;', new_string: 'cents * percent / 100;' } },
    ],
  },
  { text: 'Edited.' },
];

describe('updating the desktop app while sessions run', () => {
  it('never restarts while a session waits for approval; does once it finished', async () => {
    const updater = new FakeUpdater();
    const { services, handlers, waitForEvent } = await openServices({ dataDir: tempDir('tether-data-'), turns: editTurns, updater });
    const announced: UpdateView[] = [];
    services.subscribe(<E extends EventName>(name: E, payload: EventPayload<E>) => {
      if (name === 'app:updateChanged') announced.push(payload as UpdateView);
    });

    const { sessionId } = await handlers['session:start']({ workspace: fixtureRepo('failing-test'), task: 'fix the discount' });
    const asked = await waitForEvent('approval.asked');
    updater.fire('update-downloaded', { version: '0.2.0' });
    expect(announced).toEqual([{ state: 'ready', version: '0.2.0' }]);
    expect(await handlers['app:update']({})).toEqual({
      state: 'ready',
      version: '0.2.0',
      blockedBy: expect.stringContaining('1 session waits for your answer'),
    });
    expect(await handlers['app:restartToUpdate']({})).toEqual({
      restarted: false,
      reason: expect.stringMatching(/^Not restarting: 1 session waits for your answer/),
    });
    expect(updater.installs).toBe(0);

    const approvalId = asked.event.type === 'approval.asked' ? asked.event.approvalId : '';
    await handlers['approval:answer']({ approvalId, action: 'allow', scope: 'once' });
    await waitForEvent('session.finished');
    expect((await handlers['sessions:list']({})).find((session) => session.id === sessionId)?.status).toBe('done');
    expect(await handlers['app:restartToUpdate']({})).toEqual({ restarted: true });
    expect(updater.installs).toBe(1);
  });

  it('has no update to offer under `tether serve`', async () => {
    const { handlers } = await openServices({ dataDir: tempDir('tether-data-') });
    expect(await handlers['app:update']({})).toEqual({ state: 'unavailable' });
    expect(await handlers['app:restartToUpdate']({})).toEqual({
      restarted: false,
      reason: expect.stringContaining('only the packaged desktop app'),
    });
  });
});

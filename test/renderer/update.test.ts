import { describe, expect, it } from 'vitest';
import { FakeApi, settle } from './fakeApi';
import { harness } from './storeHarness';

// The update banner's state in the store: loaded at start, kept current by app:updateChanged, and a
// refused restart is said, not swallowed.

describe('the desktop update in the store', () => {
  it('starts unavailable (serve, development) and follows app:updateChanged', async () => {
    const api = new FakeApi({ 'app:update': () => ({ state: 'unavailable' }) });
    const { store } = harness(api);
    await store.getState().loadUpdate();
    expect(store.getState().update).toEqual({ state: 'unavailable' });
    api.emit('app:updateChanged', { state: 'ready', version: '0.2.0' });
    expect(store.getState().update).toEqual({ state: 'ready', version: '0.2.0' });
  });

  it('shows why a restart was refused and reloads what holds it back', async () => {
    let asked = 0;
    const api = new FakeApi({
      'app:restartToUpdate': () => ({ restarted: false, reason: 'Not restarting: 1 session is working.' }),
      'app:update': () => (asked++, { state: 'ready', version: '0.2.0', blockedBy: '1 session is working' }),
    });
    const { store } = harness(api);
    await store.getState().restartToUpdate();
    await settle();
    expect(store.getState().toasts.map((toast) => toast.message)).toContain('Not restarting: 1 session is working.');
    expect(asked).toBe(1);
    expect(store.getState().update).toEqual({ state: 'ready', version: '0.2.0', blockedBy: '1 session is working' });
    expect(store.getState().restartingToUpdate).toBe(false);
  });
});

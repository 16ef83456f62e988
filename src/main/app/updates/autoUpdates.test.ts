import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpdateView } from '../../../shared/contract';
import type { SessionStatus } from '../../../shared/session';
import { FakeUpdater } from '../../../../test/support/fakeUpdater';
import { restartBlocker, startAutoUpdates, updatesEnabled, type AutoUpdates } from './autoUpdates';

describe('updates of the desktop app', () => {
  let running: AutoUpdates | undefined;
  afterEach(() => {
    running?.stop();
    vi.useRealTimers();
  });

  function start(statuses: SessionStatus[] = []) {
    const updater = new FakeUpdater();
    const announced: UpdateView[] = [];
    const logged: string[] = [];
    const current = { statuses };
    running = startAutoUpdates({
      updater,
      sessionStatuses: () => current.statuses,
      announce: (view) => announced.push(view),
      log: (line) => logged.push(line),
      firstCheckAfterMs: 1000,
      checkEveryMs: 60_000,
    });
    return { updater, announced, logged, current, updates: running };
  }

  it('downloads in the background and installs on quit, never on its own', () => {
    const { updater } = start();
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    updater.fire('update-downloaded', { version: '0.2.0' });
    expect(updater.installs).toBe(0);
  });

  it('looks after start-up has passed, then on a schedule', async () => {
    vi.useFakeTimers();
    const { updater } = start();
    expect(updater.checks).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(updater.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(updater.checks).toBe(3);
  });

  it('tells the UI when an update is ready', () => {
    const { updater, announced, updates } = start();
    expect(updates.view()).toEqual({ state: 'idle' });
    updater.fire('update-downloaded', { version: '0.2.0' });
    expect(announced).toEqual([{ state: 'ready', version: '0.2.0' }]);
    expect(updates.view()).toEqual({ state: 'ready', version: '0.2.0' });
  });

  it('restarts when the person asks and no session needs Tether', () => {
    const { updater, updates } = start(['done', 'failed', 'new', 'aborted', 'max_steps']);
    updater.fire('update-downloaded', { version: '0.2.0' });
    expect(updates.restart()).toEqual({ restarted: true });
    expect(updater.installs).toBe(1);
  });

  it('refuses to restart while a session works or waits for an answer, and says which', () => {
    const { updater, updates, current } = start(['working', 'waiting', 'waiting', 'done']);
    updater.fire('update-downloaded', { version: '0.2.0' });
    const refused = updates.restart();
    expect(refused.restarted).toBe(false);
    expect(refused.reason).toBe(
      'Not restarting: 1 session is working and 2 sessions wait for your answer; restart once they are done, or quit Tether to install the update then.',
    );
    expect(updates.view()).toMatchObject({ state: 'ready', blockedBy: expect.stringContaining('1 session is working') });
    expect(updater.installs).toBe(0);

    current.statuses = ['done'];
    expect(updates.view()).toEqual({ state: 'ready', version: '0.2.0' });
    expect(updates.restart().restarted).toBe(true);
  });

  it('has nothing to restart for before an update is downloaded', () => {
    const { updater, updates } = start();
    expect(updates.restart()).toEqual({ restarted: false, reason: 'No update is ready to install.' });
    expect(updater.installs).toBe(0);
  });

  it('logs a failed look (offline, no feed) and carries on', async () => {
    vi.useFakeTimers();
    const { updater, logged, updates } = start();
    updater.failNextCheck = new Error('net::ERR_INTERNET_DISCONNECTED');
    await vi.advanceTimersByTimeAsync(1000);
    updater.fire('error', new Error('Cannot find latest-linux.yml'));
    expect(logged).toEqual([
      'tether: looking for an update failed: net::ERR_INTERNET_DISCONNECTED',
      'tether: looking for an update failed: Cannot find latest-linux.yml',
    ]);
    expect(updates.view()).toEqual({ state: 'idle' });
  });
});

describe('when updates run at all', () => {
  it('only in a packaged app, and not when TETHER_DISABLE_UPDATES=1', () => {
    expect(updatesEnabled(false, {})).toBe(false);
    expect(updatesEnabled(true, {})).toBe(true);
    expect(updatesEnabled(true, { TETHER_DISABLE_UPDATES: '1' })).toBe(false);
  });

  it('words what holds a restart back', () => {
    expect(restartBlocker([])).toBeUndefined();
    expect(restartBlocker(['working'])).toBe('1 session is working; restart once it is done, or quit Tether to install the update then');
    expect(restartBlocker(['waiting'])).toBe(
      '1 session waits for your answer; restart once it is done, or quit Tether to install the update then',
    );
  });
});

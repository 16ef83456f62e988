import type { RestartToUpdate, UpdateView } from '../../../shared/contract';
import { plural } from '../../../shared/costs';
import type { SessionStatus } from '../../../shared/session';

/**
 * Updates for the packaged app. An update is downloaded in the background and installed when the
 * person quits, or when they press "Restart to update"; Tether never restarts by itself, and a
 * restart the person asks for is refused while a session works or waits for their answer (it would
 * cut a command short or drop a question). The Electron host hands in electron-updater's
 * autoUpdater; everything here is plain and tested without Electron.
 */

/** The part of electron-updater's AppUpdater this uses. */
export interface Updater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(): void;
}

export interface AutoUpdatesOptions {
  updater: Updater;
  /** The status of every session, read when a restart is asked for. */
  sessionStatuses: () => SessionStatus[];
  /** Tells the UI what changed. */
  announce: (view: UpdateView) => void;
  /** How often to look for an update after the first look. */
  checkEveryMs?: number;
  /** How long after start the first look waits (start-up is not slowed by it). */
  firstCheckAfterMs?: number;
  log?: (message: string) => void;
}

export interface AutoUpdates {
  view(): UpdateView;
  restart(): RestartToUpdate;
  stop(): void;
}

export const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;
export const FIRST_CHECK_AFTER_MS = 30 * 1000;

/** Why a restart must wait, in words, or undefined when nothing would be cut short. */
export function restartBlocker(statuses: SessionStatus[]): string | undefined {
  const working = statuses.filter((status) => status === 'working').length;
  const waiting = statuses.filter((status) => status === 'waiting').length;
  const parts = [
    working > 0 ? `${plural(working, 'session')} ${working === 1 ? 'is' : 'are'} working` : undefined,
    waiting > 0 ? `${plural(waiting, 'session')} ${waiting === 1 ? 'waits' : 'wait'} for your answer` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length === 0
    ? undefined
    : `${parts.join(' and ')}; restart once ${working + waiting === 1 ? 'it is' : 'they are'} done, or quit Tether to install the update then`;
}

/** Whether this run should look for updates at all: only a packaged app, and not when turned off. */
export function updatesEnabled(packaged: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return packaged && env.TETHER_DISABLE_UPDATES !== '1';
}

export function startAutoUpdates(options: AutoUpdatesOptions): AutoUpdates {
  const { updater } = options;
  let view: UpdateView = { state: 'idle' };
  updater.autoDownload = true;
  // Installing on a quit the person chose is not restarting on our own.
  updater.autoInstallOnAppQuit = true;

  const set = (next: UpdateView) => {
    view = next;
    options.announce(view);
  };
  updater.on('update-downloaded', (info) => set({ state: 'ready', version: info.version }));
  updater.on('error', (error) => options.log?.(`tether: looking for an update failed: ${error.message}`));

  const check = () => {
    updater
      .checkForUpdates()
      .catch((error: unknown) =>
        options.log?.(`tether: looking for an update failed: ${error instanceof Error ? error.message : String(error)}`),
      );
  };
  const first = setTimeout(check, options.firstCheckAfterMs ?? FIRST_CHECK_AFTER_MS);
  const every = setInterval(check, options.checkEveryMs ?? CHECK_EVERY_MS);
  first.unref?.();
  every.unref?.();

  return {
    view: () => {
      if (view.state !== 'ready') return view;
      const blockedBy = restartBlocker(options.sessionStatuses());
      return blockedBy ? { ...view, blockedBy } : view;
    },
    restart: () => {
      if (view.state !== 'ready') return { restarted: false, reason: 'No update is ready to install.' };
      const blockedBy = restartBlocker(options.sessionStatuses());
      if (blockedBy) return { restarted: false, reason: `Not restarting: ${blockedBy}.` };
      updater.quitAndInstall();
      return { restarted: true };
    },
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}

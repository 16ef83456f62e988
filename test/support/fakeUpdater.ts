import type { Updater } from '../../src/main/app/updates/autoUpdates';

/** Stands in for electron-updater's autoUpdater: records what Tether asks of it, and fires its events. */
export class FakeUpdater implements Updater {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  installs = 0;
  failNextCheck: Error | undefined;
  private readonly listeners = new Map<string, Array<(value: never) => void>>();

  on(event: 'update-downloaded' | 'error', listener: (value: never) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  fire(event: 'update-downloaded', info: { version: string }): void;
  fire(event: 'error', error: Error): void;
  fire(event: string, value: unknown): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (value: unknown) => void)(value);
  }
  async checkForUpdates() {
    this.checks++;
    const failure = this.failNextCheck;
    this.failNextCheck = undefined;
    if (failure) throw failure;
    return null;
  }
  quitAndInstall() {
    this.installs++;
  }
}

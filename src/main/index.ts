import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, dialog, ipcMain, Notification, safeStorage, shell } from 'electron';
import type { AppServices } from './app/appServices';
import { createNativeNotifications } from './app/nativeNotifications';
import { cliArgumentsOf, nodeModeEnv } from './cli/cliFromApp';
import { bindIpc, broadcastTo } from './ipc';
import { createServices } from './app/createServices';
import type { KeyStore } from './app/model/keyStore';
import { defaultDataDir } from './store/dataDir';
import { updatesEnabled, type Updater } from './app/updates/autoUpdates';
import { createMainWindow, guardWebContents, pickFolder, type MainWindow } from './window';
import { keepWebAssemblyOnBaseline } from './shell/webAssemblyTier';
import { guardProgramSearchPath } from './workspace/programSearchPath';

// Electron host, kept thin: it builds the same services `tether serve` hosts, binds them to IPC and
// opens the window. Everything that can be tested without Electron lives in host/.

const devServer = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const appUrl = devServer ?? pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).href;
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');

const cliArguments = cliArgumentsOf(process.argv, app.isPackaged);
if (cliArguments) runCli(cliArguments);
else {
  // Before anything is spawned: no program Tether starts itself is looked up where a command could plant one.
  guardProgramSearchPath();
  keepWebAssemblyOnBaseline();
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, appUrl));
  // A second instance would open a second store writer and window; it hands over to the first.
  if (!app.requestSingleInstanceLock()) app.quit();
  else void start();
}

/** `--cli …`: the command line, run by this same binary in Node mode; no window, no second store. */
function runCli(args: string[]): void {
  const cli = join(import.meta.dirname, 'cli.js');
  const child = spawn(process.execPath, [cli, ...args], { stdio: 'inherit', env: nodeModeEnv(process.env) });
  child.on('exit', (code, signal) => app.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
  child.on('error', (error) => {
    process.stderr.write(`tether: could not start the command line: ${error.message}\n`);
    app.exit(1);
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  let services: AppServices;
  try {
    const dataDir = defaultDataDir();
    const updater = await desktopUpdater();
    services = createServices({ dataDir, host: 'electron', keyStore: safeStorageKeyStore(dataDir), ...(updater ? { updater } : {}) });
  } catch (error) {
    dialog.showErrorBox('Tether could not start', error instanceof Error ? error.message : String(error));
    app.exit(1);
    return;
  }

  let main: MainWindow | undefined;
  const emit = broadcastTo(() => main?.window.webContents);
  const notifications = createNativeNotifications({
    Notification,
    platform: process.platform,
    bringToFront: () => {
      if (!main) return open();
      if (main.window.isMinimized()) main.window.restore();
      main.window.show();
      main.window.focus();
    },
    answer: services.handlers['approval:answer'],
    emit,
    log: (message) => console.error(message),
  });
  // The requests only Electron can answer: the OS's folder picker and its own notifications.
  const handlers = {
    ...services.handlers,
    'folders:pick': async () => pickFolder(main?.window),
    'notification:show': notifications.show,
    'session:openSandboxTemp': async (input: { sessionId: string }) => {
      const { path, exists } = await services.handlers['session:sandboxTemp'](input);
      // openPath answers with an error message, empty when it opened.
      return { opened: exists && (await shell.openPath(path)) === '' };
    },
  };
  const unbind = bindIpc(ipcMain, handlers, (frame) => main?.isTrustedSender(frame) ?? false);
  const unsubscribe = services.subscribe(emit);

  const open = () => {
    const opened = createMainWindow({ preloadPath, appUrl, ...(devServer ? { devServer } : {}) });
    opened.window.on('closed', () => {
      if (main === opened) main = undefined;
    });
    main = opened;
  };
  open();

  app.on('second-instance', () => {
    if (!main) return open();
    if (main.window.isMinimized()) main.window.restore();
    main.window.focus();
  });
  app.on('activate', () => {
    if (!main) open();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Running sessions are stopped and the store closed before the process ends.
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    unsubscribe();
    unbind();
    notifications.dispose();
    void Promise.resolve()
      .then(() => services.close())
      .catch((error: unknown) => console.error('tether: closing the services failed', error))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}

/** electron-updater's updater for a packaged app (the feed is electron-builder.yml's `publish`); none in development. */
async function desktopUpdater(): Promise<Updater | undefined> {
  if (!updatesEnabled(app.isPackaged)) return undefined;
  const { autoUpdater } = await import('electron-updater');
  return autoUpdater;
}

/**
 * The API key, encrypted by the OS keychain (safeStorage) in a file of its own: never in SQLite, never
 * sent to the renderer. Where the OS offers no encryption, the key is kept for this run only.
 */
function safeStorageKeyStore(dataDir: string): KeyStore {
  const file = join(dataDir, 'api-key.enc');
  let inMemory: string | undefined = process.env.TETHER_API_KEY;
  const encrypted = safeStorage.isEncryptionAvailable();
  return {
    persistence: encrypted ? 'os-keychain' : 'this-process',
    get() {
      if (!encrypted || !existsSync(file)) return inMemory;
      try {
        return safeStorage.decryptString(readFileSync(file));
      } catch {
        return inMemory;
      }
    },
    set(key) {
      inMemory = key ?? undefined;
      if (!encrypted) return;
      if (key === null) {
        rmSync(file, { force: true });
        return;
      }
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(file, safeStorage.encryptString(key), { mode: 0o600 });
    },
  };
}

import { BrowserWindow, dialog, shell, webContents, type Session, type WebContents, type WebFrameMain } from 'electron';
import { isAppUrl } from './host/appUrl';
import { contentSecurityPolicy } from './host/contentSecurityPolicy';
import { externalLinkTarget } from './host/externalLink';

/**
 * The one window. Its page is the app and nothing else: it cannot navigate away, open windows,
 * embed webviews or use the camera, and a link opens in the person's browser only after they say
 * so. The bridge answers only this window's top frame while it shows the app's own page.
 */

export interface MainWindowOptions {
  /** The built preload script (out/preload/index.cjs). */
  preloadPath: string;
  /** The page: the built index.html as a file URL, or Vite's dev server in development. */
  appUrl: string;
  /** Vite's dev server origin, when `appUrl` is it; it needs a looser policy for hot reload. */
  devServer?: string;
}

export interface MainWindow {
  window: BrowserWindow;
  /** True only for this window's top frame showing the app's page. */
  isTrustedSender(frame: WebFrameMain | null): boolean;
}

export function createMainWindow({ preloadPath, appUrl, devServer }: MainWindowOptions): MainWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Tether',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  });
  secureSession(window.webContents.session, appUrl, contentSecurityPolicy(devServer ? { devServer } : {}));
  guardWebContents(window.webContents, appUrl);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(appUrl);

  return {
    window,
    isTrustedSender(frame) {
      if (frame === null || window.isDestroyed()) return false;
      return frame.parent === null && webContents.fromFrame(frame) === window.webContents && isAppUrl(frame.url, appUrl);
    },
  };
}

const guarded = new WeakSet<WebContents>();

/**
 * Keeps any web contents on the app's page: navigation elsewhere and new windows are refused
 * (an http(s) link is offered to the person's browser instead), and webviews never attach.
 * index.ts applies it to every web contents Electron creates, not only the window's.
 */
export function guardWebContents(contents: WebContents, appUrl: string): void {
  if (guarded.has(contents)) return;
  guarded.add(contents);
  contents.setWindowOpenHandler(({ url }) => {
    void offerInBrowser(contents, url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url, appUrl)) return;
    event.preventDefault();
    void offerInBrowser(contents, url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, appUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

const securedSessions = new WeakSet<Session>();

function secureSession(session: Session, appUrl: string, csp: string): void {
  if (securedSessions.has(session)) return;
  securedSessions.add(session);

  // Copying to the clipboard is the one permission the UI uses; camera, microphone,
  // notifications, geolocation, devices and the rest are refused without asking anyone.
  // The app's own page may copy text and show a system notification (a session waiting for approval);
  // nothing else, and no other page, gets any permission.
  const granted = new Set(['clipboard-sanitized-write', 'notifications']);
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(granted.has(permission) && isAppUrl(details.requestingUrl, appUrl));
  });
  session.setPermissionCheckHandler((contents, permission, _requestingOrigin, details) => {
    // A file page's origin is opaque ("file:///"), so the page's full address decides.
    const requestingUrl = details.requestingUrl ?? contents?.getURL() ?? '';
    return granted.has(permission) && isAppUrl(requestingUrl, appUrl);
  });
  session.setDevicePermissionHandler(() => false);

  // index.html carries the policy in a meta tag too; the header also covers the dev server.
  session.webRequest.onHeadersReceived((details, callback) => {
    const responseHeaders = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy'),
    );
    callback({ responseHeaders: { ...responseHeaders, 'Content-Security-Policy': [csp] } });
  });
}

let offering = false;

async function offerInBrowser(contents: WebContents, href: string): Promise<void> {
  const target = externalLinkTarget(href);
  // One question at a time: a page cannot bury the person in dialogs.
  if (target === null || offering) return;
  offering = true;
  try {
    const options = {
      type: 'question' as const,
      buttons: ['Open in Browser', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      message: `Open ${target.host} in your browser?`,
      detail: target.href,
    };
    const parent = BrowserWindow.fromWebContents(contents);
    const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
    if (response === 0) await shell.openExternal(target.href);
  } catch (error) {
    console.error(`tether: could not open ${target.href}`, error);
  } finally {
    offering = false;
  }
}

/** The OS's folder picker for "Open a folder…", over the window when there is one; null when cancelled. */
export async function pickFolder(parent: BrowserWindow | undefined): Promise<{ path: string | null }> {
  const options = { title: 'Open a folder', properties: ['openDirectory' as const, 'createDirectory' as const] };
  const { canceled, filePaths } = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return { path: canceled ? null : (filePaths[0] ?? null) };
}

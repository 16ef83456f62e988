import { join } from 'node:path';
import { app, BrowserWindow } from 'electron';

// Electron host. Kept thin: it opens the window; the core it will host is the same one `tether run`
// builds (core.ts). The contract bridge arrives with the desktop app (issue 4).
function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Tether',
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  const devServer = process.env.ELECTRON_RENDERER_URL;
  if (devServer) void window.loadURL(devServer);
  else void window.loadFile(join(__dirname, '../renderer/index.html'));
}

void app.whenReady().then(createWindow);
app.on('window-all-closed', () => app.quit());

import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge';

// Sandboxed and context-isolated: the page gets `window.tether` (the contract) and nothing else.
contextBridge.exposeInMainWorld('tether', createBridge(ipcRenderer));

// The bridge is generated from src/shared/contract.ts when the desktop app lands (issue 4). Until then
// the renderer gets nothing: no raw ipcRenderer, no generic invoke.
export {};

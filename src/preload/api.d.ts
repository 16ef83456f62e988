import type { TetherApi } from '../shared/contract';

// What the preload puts on `window` in Electron. Under `tether serve` it is absent, so the
// renderer reaches the host through lib/api.ts (`getApi()`), never through this directly.
declare global {
  interface Window {
    readonly tether?: TetherApi;
  }
}

export {};

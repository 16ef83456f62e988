import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppState, StoreDeps } from './appState';
import { createDiffSlice } from './diffSlice';
import { createHistorySlice } from './historySlice';
import { createInboxSlice } from './inboxSlice';
import { createLayoutSlice } from './layoutSlice';
import { createLiveSlice } from './liveSlice';
import { createLogsSlice } from './logsSlice';
import { createMcpSlice } from './mcpSlice';
import { createRewindSlice } from './rewindSlice';
import { createSessionsSlice } from './sessionsSlice';
import { createSettingsSlice } from './settingsSlice';
import { createUiSlice } from './uiSlice';
import { createUpdateSlice } from './updateSlice';

export type AppStore = StoreApi<AppState>;

/** One store for the window; built from the api it talks through, so tests can hand it a fake. */
export function createAppStore(deps: StoreDeps): AppStore {
  return createStore<AppState>()((set, get) => ({
    ...createSessionsSlice(deps, set, get),
    ...createLogsSlice(deps, set, get),
    ...createLiveSlice(deps, set, get),
    ...createInboxSlice(deps, set, get),
    ...createSettingsSlice(deps, set, get),
    ...createDiffSlice(deps, set, get),
    ...createUiSlice(deps, set, get),
    ...createMcpSlice(deps, set, get),
    ...createRewindSlice(deps, set, get),
    ...createUpdateSlice(deps, set, get),
    ...createLayoutSlice(deps, set, get),
    ...createHistorySlice(deps, set, get),
  }));
}

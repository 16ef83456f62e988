import type { TetherApi } from '../../../shared/contract';
import type { DiffSlice } from './diffSlice';
import type { HistorySlice } from './historySlice';
import type { InboxSlice } from './inboxSlice';
import type { Schedule } from './liveBatcher';
import type { LayoutSlice } from './layoutSlice';
import type { LiveSlice } from './liveSlice';
import type { LogsSlice } from './logsSlice';
import type { McpSlice } from './mcpSlice';
import type { RewindSlice } from './rewindSlice';
import type { SessionsSlice } from './sessionsSlice';
import type { SettingsSlice } from './settingsSlice';
import type { UiSlice } from './uiSlice';
import type { UpdateSlice } from './updateSlice';

/** The whole renderer state: one store, one slice per concern, actions beside their state. */
export type AppState = SessionsSlice &
  LogsSlice &
  LiveSlice &
  InboxSlice &
  SettingsSlice &
  DiffSlice &
  UiSlice &
  McpSlice &
  RewindSlice &
  UpdateSlice &
  LayoutSlice &
  HistorySlice;

/** What the store needs from outside; tests pass a fake api and a synchronous schedule. */
export interface StoreDeps {
  api: TetherApi;
  /** Once per frame in the window (requestAnimationFrame). */
  schedule: Schedule;
  /** How long to wait for more tool.finished events before asking for the diff again. */
  diffDebounceMs: number;
}

export type SetState = (partial: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
export type GetState = () => AppState;

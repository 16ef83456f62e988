import type { LiveEvent } from '../../../shared/events';
import type { GetState, SetState, StoreDeps } from './appState';
import { emptyTerminalFeed, feedChunk, type TerminalFeed } from './terminalFeed';
import { without } from './sessionsSlice';

/**
 * What streams and is not stored: the text and reasoning of the response being written, and the
 * terminal's bytes. A response's live text goes when the response is stored (model.responded) or
 * voided (model.retrying); from then on the log draws it.
 */
export interface LiveSlice {
  liveText: Record<string, string>;
  liveReasoning: Record<string, string>;
  terminals: Record<string, TerminalFeed>;
  /** A frame's worth of live events, applied in one update. */
  applyLive(batch: readonly LiveEvent[]): void;
  clearLive(sessionId: string): void;
}

export function createLiveSlice(_deps: StoreDeps, set: SetState, get: GetState): LiveSlice {
  return {
    liveText: {},
    liveReasoning: {},
    terminals: {},

    applyLive(batch) {
      if (batch.length === 0) return;
      const state = get();
      let liveText = state.liveText;
      let liveReasoning = state.liveReasoning;
      let terminals = state.terminals;
      for (const event of batch) {
        const id = event.sessionId;
        switch (event.type) {
          case 'model.text_delta':
            if (liveText === state.liveText) liveText = { ...liveText };
            liveText[id] = (liveText[id] ?? '') + event.text;
            break;
          case 'model.reasoning_delta':
            if (liveReasoning === state.liveReasoning) liveReasoning = { ...liveReasoning };
            liveReasoning[id] = (liveReasoning[id] ?? '') + event.text;
            break;
          case 'tool.output':
            if (terminals === state.terminals) terminals = { ...terminals };
            terminals[id] = feedChunk(terminals[id] ?? emptyTerminalFeed, event.callId, event.chunk);
            break;
        }
      }
      set({ liveText, liveReasoning, terminals });
    },

    clearLive(sessionId) {
      const state = get();
      if (!(sessionId in state.liveText) && !(sessionId in state.liveReasoning)) return;
      set({ liveText: without(state.liveText, sessionId), liveReasoning: without(state.liveReasoning, sessionId) });
    },
  };
}

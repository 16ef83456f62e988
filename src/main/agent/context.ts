import type { ConversationItem } from '../../shared/conversation';
import type { SessionState } from '../../shared/session';
import systemPrompt from './prompts/system.txt?raw';
import { trimMiddle } from './trim';

/** What goes to the model each turn: the system prompt and the conversation, tool outputs trimmed. */

export interface ContextOptions {
  /** The most characters of one tool output the model sees. */
  maxToolOutputChars: number;
}

export const defaultContextOptions: ContextOptions = { maxToolOutputChars: 24_000 };

export function buildInstructions(workspace: string, now: Date = new Date()): string {
  // The date, not the time: the prompt prefix must stay byte-identical across turns for caching.
  return systemPrompt
    .replaceAll('{{workspace}}', workspace)
    .replaceAll('{{platform}}', `${process.platform} (${process.arch})`)
    .replaceAll('{{date}}', now.toISOString().slice(0, 10))
    .trimEnd();
}

/**
 * The conversation as the model should see it. Every tool call gets exactly one result right after
 * the response that asked for it: APIs refuse a call without a result, and the log may hold results in
 * the order they finished.
 */
export function buildModelItems(state: SessionState, options: ContextOptions = defaultContextOptions): ConversationItem[] {
  const results = new Map<string, ConversationItem>();
  for (const item of state.items) {
    if (item.type === 'tool_result') {
      results.set(item.callId, { ...item, output: trimMiddle(item.output, { maxChars: options.maxToolOutputChars }) });
    }
  }
  const out: ConversationItem[] = [];
  let owed: string[] = [];
  const payDebts = () => {
    for (const callId of owed) {
      out.push(results.get(callId) ?? { type: 'tool_result', callId, output: 'No result was recorded for this call.', isError: true });
    }
    owed = [];
  };
  for (const item of state.items) {
    if (item.type === 'tool_result') continue;
    if (item.type === 'tool_call') {
      out.push(item);
      owed.push(item.callId);
      continue;
    }
    payDebts();
    out.push(item);
  }
  payDebts();
  return out;
}

import type { ConversationItem } from '../../shared/conversation';
import type { SessionState } from '../../shared/session';
import { modelProfile, type ModelOverride, type ModelPrice } from '../model/modelCatalog';
import type { ToolSpec } from '../model/provider';
import { buildModelItems, defaultContextOptions, instructionsMessage, type ContextOptions } from './context';
import { itemTokens, requestTokens } from './tokenCount';
import { trimMiddle } from './trim';

/** How much of the model's context a session may use, and when it is compacted. */
export interface ContextBudget {
  contextWindow: number;
  /** False when the window is a fallback guess: then an over-long request is sent anyway and the provider decides. */
  windowKnown: boolean;
  /** The share of the window past which the conversation is compacted before the next request (default 0.85). */
  compactAt: number;
  /** The share of the window kept as recent turns, word for word, when compacting (default 0.25). */
  keepRecent: number;
  price?: ModelPrice;
}

export const DEFAULT_COMPACT_AT = 0.85;
export const DEFAULT_KEEP_RECENT = 0.25;

/**
 * The next request's size in tokens. The provider's own count for the last response (input plus
 * output) is the base; what came after it (tool results, messages, notes) is counted with the
 * tokenizer. Without such a base (the first request, or right after a compaction) the whole request
 * is counted.
 */
export function estimateNextRequest(
  state: SessionState,
  request: { instructions: string; tools: readonly ToolSpec[] },
  options: ContextOptions = defaultContextOptions,
): number {
  const { basis } = state.context;
  if (!basis) return requestTokens({ ...request, items: buildModelItems(state, options) });
  let tokens = basis.tokens;
  for (const item of state.items.slice(basis.items)) tokens += itemTokens(forModel(item, options));
  for (const note of state.instructions.notes.slice(basis.notes)) tokens += itemTokens(instructionsMessage(note.files));
  return tokens;
}

/** A tool result as the model sees it (trimmed), so a huge output is counted at the size that is sent. */
export function forModel(item: ConversationItem, options: ContextOptions = defaultContextOptions): ConversationItem {
  return item.type === 'tool_result' ? { ...item, output: trimMiddle(item.output, { maxChars: options.maxToolOutputChars }) } : item;
}

/** The budget for `model` from the person's settings (`models`, `compactAt`) over the built-in defaults. */
export function contextBudgetFor(model: string, settings: { models?: Record<string, ModelOverride>; compactAt?: number }): ContextBudget {
  const profile = modelProfile(model, settings.models);
  return {
    contextWindow: profile.contextWindow,
    windowKnown: profile.contextWindowKnown,
    compactAt: settings.compactAt ?? DEFAULT_COMPACT_AT,
    keepRecent: DEFAULT_KEEP_RECENT,
    ...(profile.price ? { price: profile.price } : {}),
  };
}

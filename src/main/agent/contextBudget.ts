import type { ConversationItem } from '../../shared/conversation';
import type { SessionState } from '../../shared/session';
import { modelProfile, type ModelOverride, type ModelPrice } from '../model/modelCatalog';
import type { ToolSpec } from '../model/provider';
import { buildModelItems, defaultContextOptions, instructionsMessage, type ContextOptions } from './context';
import { itemsTokens, loadTokenizer, requestTokens, textTokens, textTokensAtMost, textTokensRoughly, type TextCounter } from './tokenCount';
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

/** The share of the exact-count line from which the tokenizer loads in the background, a few steps before it is needed. */
const PRELOAD_FROM = 0.75;

/**
 * The next request's size in tokens. The provider's own count for the last response (input plus
 * output) is the base; what came after it (tool results, messages, notes) is counted with the
 * tokenizer. Without such a base (the first request, or right after a compaction) the whole request
 * is counted.
 *
 * Only a size that could reach `exactFrom` (the compaction line) is counted exactly: when even one
 * token a byte keeps the request below it, nothing depends on the exact count, and the size is
 * estimated from the bytes (about four a token), so a run far from its budget never loads the
 * tokenizer's tables. Nearing the line they start loading in the background. 0 (the default)
 * counts exactly.
 */
export function estimateNextRequest(
  state: SessionState,
  request: { instructions: string; tools: readonly ToolSpec[] },
  options: ContextOptions = defaultContextOptions,
  exactFrom = 0,
): number {
  const next = partsOfNextRequest(state, request, options);
  if (exactFrom > 0) {
    const atMost = next.size(textTokensAtMost);
    if (atMost < exactFrom) {
      if (atMost >= exactFrom * PRELOAD_FROM) void loadTokenizer().catch(() => undefined);
      return next.size(textTokensRoughly);
    }
  }
  return next.size(textTokens);
}

/** What the next request adds up from: the whole request, or the provider's base and what came after it. */
function partsOfNextRequest(state: SessionState, request: { instructions: string; tools: readonly ToolSpec[] }, options: ContextOptions) {
  const { basis } = state.context;
  if (!basis) {
    const items = buildModelItems(state, options);
    return { size: (count: TextCounter) => requestTokens({ ...request, items }, count) };
  }
  const added = [
    ...state.items.slice(basis.items).map((item) => forModel(item, options)),
    ...state.instructions.notes.slice(basis.notes).map((note) => instructionsMessage(note.files)),
  ];
  return { size: (count: TextCounter) => basis.tokens + itemsTokens(added, count) };
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

import type { ConversationItem } from './conversation';
import type { EventOf, InstructionFile, TouchedFile } from './events';
import type { PlanStep } from './plan';

/**
 * The conversation as the fold (session.ts) holds it, and what belongs to a place in it: the part
 * of the session's state a conversation rewind (rewinds.ts) takes back and puts back. Every `atItem`
 * counts items of the whole conversation.
 */
export interface ConversationState {
  /** The conversation in order, tool results holding their whole output: all of it, or (a window) from item `itemsFrom` on. */
  items: ConversationItem[];
  /**
   * The index in the whole conversation of `items[0]`: 0 for a fold of the whole log. A snapshot (sessionWindow.ts) holds
   * only the latest items, so a long session opens without its whole history; every `atItem` and mark counts whole-conversation items.
   */
  itemsFrom: number;
  plan: PlanStep[];
  instructions: InstructionsState;
  context: ContextState;
  compactions: CompactionView[];
  /** Changes the person reverted from the live diff, each where it happened in the conversation (the model is told there). */
  reverts: RevertView[];
}

/** How many items the whole conversation has (the state may hold only its latest ones). */
export function itemCount(state: Pick<ConversationState, 'items' | 'itemsFrom'>): number {
  return state.itemsFrom + state.items.length;
}

/**
 * A revert from the live diff, or (`undone`) the person's undoing of one; `atItem` is how many
 * conversation items there were when it happened.
 */
export type RevertView = Omit<EventOf<'changes.reverted'>, 'type'> & { atItem: number; undone?: true };

/** Instruction files found in a folder the agent worked in, given to the model before item `atItem`. */
export interface InstructionNote {
  atItem: number;
  files: InstructionFile[];
}

/** The instruction files the session loaded, for the model (texts) and for the person (paths, caps). */
export interface InstructionsState {
  /** The workspace root's files in the system prompt; null until the first run has looked for them. */
  system: InstructionFile[] | null;
  /** Files found later, each at its place in the conversation. */
  notes: InstructionNote[];
  warnings: string[];
  /** Files looked at and left out (see the warnings): not looked at again. */
  skipped: string[];
}

/** One compaction: where it happened, what it kept, and what it said about the rest. */
export interface CompactionView {
  /** How many conversation items there were when it happened: where the UI marks it. */
  atItem: number;
  keptFromItem: number;
  summary: string;
  tokensBefore: number;
  tokensAfter: number;
  files: TouchedFile[];
  plan: PlanStep[];
}

/** How full the model's context is, as the meter shows it and the loop budgets it. */
export interface ContextState {
  /** The size of the conversation in tokens: the last estimate or the last reported usage, whichever is newer. */
  tokens: number;
  /** The model's context window, when known. */
  window?: number;
  /** A provider-reported size (input + output of the last response) and the item count it covers: the base of the next estimate. */
  basis: { tokens: number; items: number; notes: number } | null;
  compacting: boolean;
  /** Why the last compaction did not happen, until one does. */
  warning?: string;
}

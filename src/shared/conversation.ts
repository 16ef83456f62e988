import { z } from 'zod';
import { Json } from './json';

/**
 * The provider-neutral conversation. Every provider turns its wire format into these items and back,
 * so a session can be stored, resumed and replayed without knowing which API produced it.
 */

/** What the person asked. */
export const UserItem = z.object({ type: z.literal('user'), text: z.string() });
export type UserItem = z.infer<typeof UserItem>;

/** Text the model said. */
export const AssistantItem = z.object({ type: z.literal('assistant'), text: z.string() });
export type AssistantItem = z.infer<typeof AssistantItem>;

/** The wire formats Tether speaks: OpenAI Responses, Chat Completions, Anthropic Messages. */
export const ModelApi = z.enum(['responses', 'chat', 'anthropic']);
export type ModelApi = z.infer<typeof ModelApi>;

/**
 * The model's reasoning. `summary` is what a person may read; `replay` is the provider's own item,
 * kept byte for byte so it can be passed back (encrypted content, signatures) on the next turn.
 */
export const ReasoningItem = z.object({
  type: z.literal('reasoning'),
  /** Which wire format `replay` is in; another provider ignores it. */
  api: ModelApi,
  summary: z.string(),
  replay: Json.optional(),
});
export type ReasoningItem = z.infer<typeof ReasoningItem>;

/** A tool the model asked for. `arguments` is the raw JSON text the model wrote, even if it is invalid. */
export const ToolCallItem = z.object({
  type: z.literal('tool_call'),
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type ToolCallItem = z.infer<typeof ToolCallItem>;

/** What a tool call produced, as it is sent back to the model. */
export const ToolResultItem = z.object({
  type: z.literal('tool_result'),
  callId: z.string(),
  output: z.string(),
  isError: z.boolean(),
});
export type ToolResultItem = z.infer<typeof ToolResultItem>;

export const ConversationItem = z.discriminatedUnion('type', [UserItem, AssistantItem, ReasoningItem, ToolCallItem, ToolResultItem]);
export type ConversationItem = z.infer<typeof ConversationItem>;

/** Token counts as the provider reported them. */
export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

export const zeroUsage: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

import { createRequire } from 'node:module';
import type { ConversationItem } from '../../shared/conversation';
import type { ToolSpec } from '../model/provider';

/**
 * Token counts estimated before the provider reports them, with OpenAI's o200k tokenizer. Other
 * models' tokenizers differ by a few percent, which the compaction threshold leaves room for.
 *
 * The tokenizer costs tens of megabytes and a hundred milliseconds or more to load, so a request far
 * from its budget is sized from its bytes instead (see estimateNextRequest): `textTokensAtMost`
 * bounds the count from above, `textTokensRoughly` is about what the tokenizer would say.
 */

/** What each message costs beyond its text (role markers, call ids), roughly as the APIs count it. */
const PER_ITEM = 4;

// Text from files and commands may contain special-token strings ("<|endoftext|>"): count them as text.
const asText = { disallowedSpecial: new Set<string>() };

/**
 * BPE is quadratic in the length of one unbroken run of characters (20,000 "=" take seconds), so the
 * text is counted in slices; a cut costs at most a token, well under 1% on real text.
 */
const SLICE = 1024;

/** Counts the tokens of one text: exactly (textTokens), or from its size (textTokensAtMost, textTokensRoughly). */
export type TextCounter = (text: string) => number;

/** UTF-8 bytes per o200k token, about, in prose, code and JSON schemas (4.2 in Tether's own prompt and tool list). */
const BYTES_PER_TOKEN = 4;

type Tokenizer = typeof import('gpt-tokenizer');

let tokenizer: Tokenizer | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the tokenizer in the background, for a count that will soon be needed (a request nearing
 * its budget). Counting before it is loaded loads it there and then, synchronously.
 */
export function loadTokenizer(): Promise<void> {
  loading ??= import('gpt-tokenizer').then((loaded) => {
    tokenizer ??= loaded;
  });
  return loading;
}

function countTokens(text: string, options: typeof asText): number {
  tokenizer ??= createRequire(import.meta.url)('gpt-tokenizer') as Tokenizer;
  return tokenizer.countTokens(text, options);
}

export function textTokens(text: string): number {
  let total = 0;
  for (let start = 0; start < text.length; start += SLICE) total += countTokens(text.slice(start, start + SLICE), asText);
  return total;
}

/** More than the tokenizer can count, never less: every o200k token stands for at least one byte of UTF-8. */
export function textTokensAtMost(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** About what the tokenizer would count (within a fifth or so), from the size alone; never more than textTokensAtMost. */
export function textTokensRoughly(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

export function itemTokens(item: ConversationItem, count: TextCounter = textTokens): number {
  switch (item.type) {
    case 'user':
    case 'assistant':
      return PER_ITEM + count(item.text);
    case 'reasoning':
      return PER_ITEM + count(item.summary);
    case 'tool_call':
      return PER_ITEM + count(item.name) + count(item.arguments);
    case 'tool_result':
      return PER_ITEM + count(item.output);
  }
}

export function itemsTokens(items: readonly ConversationItem[], count: TextCounter = textTokens): number {
  let total = 0;
  for (const item of items) total += itemTokens(item, count);
  return total;
}

/** A whole request: system prompt, tool definitions and conversation. */
export function requestTokens(
  request: { instructions: string; tools: readonly ToolSpec[]; items: readonly ConversationItem[] },
  count: TextCounter = textTokens,
): number {
  return (
    count(request.instructions) + (request.tools.length > 0 ? count(JSON.stringify(request.tools)) : 0) + itemsTokens(request.items, count)
  );
}

import { createRequire } from 'node:module';
import type { ConversationItem } from '../../shared/conversation';
import type { ToolSpec } from '../model/provider';

/**
 * Token counts estimated before the provider reports them, with OpenAI's o200k tokenizer. Other
 * models' tokenizers differ by a few percent, which the compaction threshold leaves room for.
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

type Tokenizer = typeof import('gpt-tokenizer');

let tokenizer: Tokenizer | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the tokenizer in the background (its tables take a hundred milliseconds or more to load and
 * tens of megabytes): a run starts this first and awaits it before its first request, so the load
 * overlaps the run's setup. Counting before it is loaded loads it there and then, synchronously.
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

export function itemTokens(item: ConversationItem): number {
  switch (item.type) {
    case 'user':
    case 'assistant':
      return PER_ITEM + textTokens(item.text);
    case 'reasoning':
      return PER_ITEM + textTokens(item.summary);
    case 'tool_call':
      return PER_ITEM + textTokens(item.name) + textTokens(item.arguments);
    case 'tool_result':
      return PER_ITEM + textTokens(item.output);
  }
}

export function itemsTokens(items: readonly ConversationItem[]): number {
  let total = 0;
  for (const item of items) total += itemTokens(item);
  return total;
}

/** A whole request: system prompt, tool definitions and conversation. */
export function requestTokens(request: { instructions: string; tools: readonly ToolSpec[]; items: readonly ConversationItem[] }): number {
  return (
    textTokens(request.instructions) +
    (request.tools.length > 0 ? textTokens(JSON.stringify(request.tools)) : 0) +
    itemsTokens(request.items)
  );
}

/**
 * The tokenizer builds its tables on first use (tens of milliseconds, more on a busy machine): a host
 * calls this when it starts, so a session's first request does not wait for it.
 */
export async function warmUpTokenizer(): Promise<void> {
  await loadTokenizer();
  textTokens('warm up');
}

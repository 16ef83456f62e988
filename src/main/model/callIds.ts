import { randomBytes } from 'node:crypto';
import type { ConversationItem } from '../../shared/conversation';

/**
 * Hands out the tool call ids a response will be stored under. The loop's ledger is keyed by call
 * id, but some OpenAI-compatible servers send no id, or the same short id ("0") in every response,
 * so an id that is missing or already used in the conversation is replaced by a fresh one. The
 * replacement goes back to the server in both the call and its result, which is all it matches on.
 */
export class CallIdAllocator {
  private readonly used = new Set<string>();

  constructor(conversation: readonly ConversationItem[]) {
    for (const item of conversation) {
      if (item.type === 'tool_call') this.used.add(item.callId);
    }
  }

  claim(wanted: string | undefined): string {
    const id = wanted !== undefined && wanted.trim() !== '' && !this.used.has(wanted) ? wanted : freshCallId();
    this.used.add(id);
    return id;
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id in OpenAI's `call_` + 24 characters shape. */
export function freshCallId(): string {
  const bytes = randomBytes(24);
  let id = 'call_';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

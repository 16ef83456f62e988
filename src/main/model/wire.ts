import type { Json } from '../../shared/json';

/**
 * Readers for JSON that came off the wire. OpenAI-compatible servers disagree on which fields they
 * send and what type they give them, so the providers read every field through these guards instead
 * of trusting the SDK's types.
 */

export type WireObject = { readonly [key: string]: unknown };

export function asObject(value: unknown): WireObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireObject) : undefined;
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A count of tokens: non-negative integers only, anything else is 0. */
export function asCount(value: unknown): number {
  const n = asNumber(value);
  return n !== undefined && n >= 0 ? Math.floor(n) : 0;
}

/** A parsed JSON value as the log can hold it (it came from JSON.parse, so it is one). */
export function asJson(value: unknown): Json {
  return value as Json;
}

/** True when `text` is one complete JSON value (used to tell a repeated tool call from a continued one). */
export function isCompleteJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

import { looksBinary } from '../workspace/looksBinary';

/** Why bytes cannot be handled as text without changing them. */
export type NotExactText = 'binary' | 'not exact UTF-8';

/**
 * The bytes as text, when cutting the file into lines and writing it back gives the very same bytes:
 * not binary (a NUL where git looks, so the review agrees with git and the file tools), valid UTF-8,
 * and encoding the text again gives the same bytes (a BOM is kept as text, not dropped). Otherwise why not,
 * so a refusal can say which.
 */
export function exactText(bytes: Buffer): { text: string } | { notText: NotExactText } {
  if (looksBinary(bytes)) return { notText: 'binary' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { notText: 'not exact UTF-8' };
  }
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { notText: 'not exact UTF-8' };
}

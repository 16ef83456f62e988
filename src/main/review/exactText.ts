import { looksBinary } from '../workspace/looksBinary';

/** Why bytes cannot be handled as text without changing them. */
export type NotExactText = 'binary' | 'not exact UTF-8';

/**
 * Strict UTF-8 that keeps a BOM as text: valid UTF-8 decodes to exactly one text and encodes back to the
 * very same bytes, so once this decodes, the text is exact; anything else (an overlong form, a lone
 * surrogate, a cut sequence) throws.
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The bytes as text, when cutting the file into lines and writing it back gives the very same bytes:
 * not binary (a NUL where git looks, so the review agrees with git and the file tools) and valid UTF-8.
 * Otherwise why not, so a refusal can say which.
 */
export function exactText(bytes: Buffer): { text: string } | { notText: NotExactText } {
  if (looksBinary(bytes)) return { notText: 'binary' };
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { notText: 'not exact UTF-8' };
  }
}

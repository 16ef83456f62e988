/**
 * How many leading bytes decide whether read_file, edit_file and write_file treat a file as
 * binary: the window git uses. (search_code is stricter: any NUL byte, see tools/search/searchQuery.ts.)
 */
export const BINARY_SNIFF_BYTES = 8000;

/** A file is binary when a NUL byte appears in its first BINARY_SNIFF_BYTES bytes. */
export function looksBinary(head: Uint8Array): boolean {
  const end = Math.min(head.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (head[i] === 0) return true;
  return false;
}

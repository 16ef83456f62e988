/**
 * Where edit_file's old_string occurs in a file: exactly, except that its line breaks match LF or
 * CRLF, so one old_string fits either kind of file. The edit and its request's preview both use it,
 * so the preview shows the places the edit will change.
 */
export function findOccurrences(text: string, oldString: string): { index: number; length: number }[] {
  const pattern = new RegExp(oldString.split(/\r?\n/).map(escapeRegExp).join('\\r?\\n'), 'g');
  const found: { index: number; length: number }[] = [];
  for (const match of text.matchAll(pattern)) found.push({ index: match.index, length: match[0].length });
  return found;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';

/** A change to one file, as a person reviews it. */
export interface FileDiff {
  /** A unified diff with three lines of context, `---`/`+++` headers naming the file. */
  patch: string;
  additions: number;
  deletions: number;
}

/**
 * Diffs two versions of a file. Line endings are compared as LF so a CRLF file's diff stays
 * readable; callers preserve the real endings on disk.
 */
export function unifiedDiff(relative: string, before: string, after: string): FileDiff {
  const patch = structuredPatch(relative, relative, before.replace(/\r\n/g, '\n'), after.replace(/\r\n/g, '\n'), undefined, undefined, {
    context: 3,
  });
  let additions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions++;
      else if (line.startsWith('-')) deletions++;
    }
  }
  return { patch: patch.hunks.length ? formatPatch(patch, FILE_HEADERS_ONLY) : '', additions, deletions };
}

import { z } from 'zod';

/**
 * What an edit or a write would change, captured when the request is asked: the file's current
 * text around the change, so the request can show the change as a diff against what is there now
 * (with line numbers and context), for the model's version and for the person's edit of it. The
 * call checks `hash` before it runs: a file that changed meanwhile is not written, since the diff
 * the person allowed is no longer what would be applied.
 */
export const FileChange = z.object({
  /** The file, relative to the workspace. */
  path: z.string(),
  /**
   * `new`: no such file yet (every line is added); `text`: `segments` hold its text around the
   * change; `binary` and `too-large`: no diff can be shown, only that it is replaced.
   */
  file: z.enum(['new', 'text', 'binary', 'too-large']),
  /**
   * With `text` and `new`: kept text, replaced text, kept text, … kept text (odd indexes are what the
   * call replaces; the new text goes in each). Line endings as LF.
   */
  segments: z.array(z.string()).optional(),
  /** The line number of the first line of `segments[0]` in the file. */
  firstLine: z.number().int().positive(),
  /** The file's size and line count now (0 for a new file). */
  bytes: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
  /** The file's line endings are CRLF: the call writes new text with them. */
  crlf: z.boolean().optional(),
  /** sha256 of the file's bytes when asked, or `absent` for a new file. */
  hash: z.string(),
});
export type FileChange = z.infer<typeof FileChange>;

/** The whole old and new text of the region a change covers, with the new text put in place of each replaced segment. */
export function changeTexts(change: Pick<FileChange, 'segments'>, newText: string): { before: string; after: string } | undefined {
  const segments = change.segments;
  if (!segments || segments.length % 2 === 0) return undefined;
  const replacement = newText.replace(/\r\n/g, '\n');
  let before = '';
  let after = '';
  segments.forEach((segment, index) => {
    before += segment;
    after += index % 2 === 1 ? replacement : segment;
  });
  return { before, after };
}

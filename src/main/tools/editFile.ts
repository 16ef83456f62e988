import fs from 'node:fs';
import { z } from 'zod';
import { defineTool, ToolError } from './defineTool';
import description from './editFile.txt?raw';
import { dominantLineEnding, withLineEnding } from './files/lineEndings';
import { looksBinary } from '../workspace/looksBinary';
import { missingPathError } from './files/missingPathError';
import { resolvePath } from './files/resolvePath';
import { unifiedDiff } from '../workspace/unifiedDiff';
import { escapeRegExp, findOccurrences } from './files/findOccurrences';
import { assertUnchanged, editChange, readCurrent } from './files/fileChangePreview';

/** Line numbers listed in a "occurs N times" error. */
const MAX_LINES_LISTED = 20;
/** Lines of the near match shown in a "not found" error. */
const MAX_NEAR_MATCH_LINES = 20;
/** Whitespace-insensitive matching is skipped for a bigger old_string (the regex gets slow). */
const MAX_FUZZY_CHARS = 5000;
const MAX_DIFF_LINES = 400;

const parameters = z.object({
  path: z.string().describe('The file to change, relative to the workspace root.'),
  old_string: z
    .string()
    .describe('The exact text to replace, copied from the file (without line numbers), with enough surrounding lines to occur only once.'),
  new_string: z.string().describe('The text to put in its place (empty to delete old_string).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string instead of requiring exactly one. Default false.'),
});

export const editFile = defineTool({
  name: 'edit_file',
  description,
  risk: 'edit',
  parameters,
  subject: ({ path, old_string, new_string, replace_all = false }) => ({
    kind: 'paths',
    access: 'write',
    paths: [path],
    after: (current) => (current === null ? undefined : replaced(current, old_string, new_string, replace_all)),
  }),
  summarize: ({ path, old_string, new_string, replace_all }) =>
    `Edit ${path}: replace ${lineCount(old_string)} line${lineCount(old_string) === 1 ? '' : 's'} with ${lineCount(new_string)}${replace_all ? ' (every occurrence)' : ''}`,
  async preview({ path, old_string, replace_all = false }, workspace) {
    if (old_string === '') return undefined;
    const file = resolvePath('edit_file', workspace, path);
    const bytes = await readCurrent(file.absolute);
    if (!bytes) return undefined;
    const matches = findOccurrences(bytes.toString('utf8'), old_string);
    if (matches.length === 0 || (matches.length > 1 && !replace_all)) return undefined;
    return editChange(file.relative, bytes, matches);
  },
  async execute({ path, old_string, new_string, replace_all = false }, ctx) {
    const file = resolvePath('edit_file', ctx.workspace, path);
    if (old_string === '') {
      throw new ToolError(
        'edit_file: old_string is empty. To add text, put a neighbouring line in old_string and the same line plus your text in new_string; to create a file, use write_file.',
      );
    }
    if (old_string === new_string) {
      throw new ToolError(
        `edit_file: old_string and new_string are the same, so the edit would change nothing in ${file.relative}; give the new text in new_string.`,
      );
    }

    const { text: before, bytes } = await readEditableText(file.absolute, file.relative, ctx.workspace);
    assertUnchanged('edit_file', file.relative, ctx.approvedFile?.hash, bytes);
    const ending = dominantLineEnding(before);
    const matches = findOccurrences(before, old_string);
    if (matches.length === 0) throw notFoundError(file.relative, before, old_string);
    if (matches.length > 1 && !replace_all) {
      const lines = matches.map((match) => lineOf(before, match.index));
      const listed = lines.slice(0, MAX_LINES_LISTED).join(', ') + (lines.length > MAX_LINES_LISTED ? ', …' : '');
      throw new ToolError(
        `edit_file: old_string occurs ${matches.length} times in ${file.relative} (lines ${listed}); ` +
          'include more surrounding lines so it matches once, or set replace_all to replace every occurrence.',
      );
    }

    const after = spliced(before, matches, withLineEnding(new_string, ending));
    // Writing in place keeps the file's mode, owner and hard links.
    await fs.promises.writeFile(file.absolute, after);

    const diff = unifiedDiff(file.relative, before, after);
    const count = `${matches.length} occurrence${matches.length === 1 ? '' : 's'}`;
    const crlf = ending === '\r\n' ? ' (CRLF line endings kept)' : '';
    return {
      title: `Edited ${file.relative}`,
      output: `Replaced ${count} in ${file.relative}${crlf}.\n\n${clip(diff.patch)}`,
      metadata: { path: file.relative, additions: diff.additions, deletions: diff.deletions, replacements: matches.length },
    };
  },
});

/** The text with each match replaced. */
function spliced(text: string, matches: readonly { index: number; length: number }[], replacement: string): string {
  let result = '';
  let cursor = 0;
  for (const match of matches) {
    result += text.slice(cursor, match.index) + replacement;
    cursor = match.index + match.length;
  }
  return result + text.slice(cursor);
}

/** What the file would hold after the edit, or undefined where the edit would fail (no match, or several without replace_all). */
function replaced(current: string, oldString: string, newString: string, replaceAll: boolean): string | undefined {
  if (oldString === '') return undefined;
  const matches = findOccurrences(current, oldString);
  if (matches.length === 0 || (matches.length > 1 && !replaceAll)) return undefined;
  return spliced(current, matches, withLineEnding(newString, dominantLineEnding(current)));
}

/** Reads a file edit_file may change: it exists, is a regular file, is text, and is UTF-8 (so writing it back loses nothing). */
async function readEditableText(
  absolute: string,
  relative: string,
  workspace: Parameters<typeof missingPathError>[1],
): Promise<{ text: string; bytes: Buffer }> {
  let bytes: Buffer;
  try {
    const stat = await fs.promises.stat(absolute);
    if (stat.isDirectory())
      throw new ToolError(`edit_file: ${relative} is a folder, not a file; give the path of a file in it (list_files shows them).`);
    if (!stat.isFile()) throw new ToolError(`edit_file: ${relative} is not a regular file; edit_file only changes files.`);
    bytes = await fs.promises.readFile(absolute);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw missingPathError('edit_file', workspace, absolute, 'To create a new file, use write_file.');
    throw new ToolError(`edit_file: ${relative} cannot be read (${code ?? (error as Error).message}); check its permissions.`);
  }
  if (looksBinary(bytes))
    throw new ToolError(`edit_file: ${relative} looks like a binary file (it has NUL bytes); edit_file only changes text files.`);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), bytes };
  } catch {
    throw new ToolError(
      `edit_file: ${relative} is not valid UTF-8 text, so rewriting it could corrupt characters; change it with run_command (for example iconv or sed) instead.`,
    );
  }
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\r?\n$/, '').split('\n').length;
}

function notFoundError(relative: string, content: string, old: string): ToolError {
  const lines = old.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length > 0 && lines.every((line) => /^\s*\d+\t/.test(line))) {
    return new ToolError(
      `edit_file: old_string was not found in ${relative}. It seems to start each line with a line number and a tab from read_file's output; ` +
        'leave those out and copy only the text after the tab.',
    );
  }
  const compact = [...old].filter((char) => !/\s/.test(char));
  if (compact.length > 0 && compact.length <= MAX_FUZZY_CHARS) {
    const near = new RegExp(compact.map(escapeRegExp).join('\\s*')).exec(content);
    if (near) {
      const first = lineOf(content, near.index);
      const last = lineOf(content, near.index + near[0].length);
      const shown = content
        .split('\n')
        .slice(first - 1, Math.min(last, first + MAX_NEAR_MATCH_LINES - 1))
        .map((line, i) => `${String(first + i).padStart(6)}\t${line.replace(/\r$/, '')}`)
        .join('\n');
      const where = first === last ? `line ${first}` : `lines ${first}-${last}`;
      return new ToolError(
        `edit_file: old_string was not found exactly in ${relative}, but text that differs only in whitespace (indentation, spaces or line breaks) is at ${where}:\n` +
          `${shown}\nCopy old_string exactly from these lines (without the line numbers) and try again.`,
      );
    }
  }
  return new ToolError(
    `edit_file: old_string was not found in ${relative}. Read the file again with read_file and copy the text exactly, including indentation; ` +
      'the file may have changed since you last read it.',
  );
}

function clip(patch: string): string {
  const lines = patch.split('\n');
  if (lines.length <= MAX_DIFF_LINES) return patch;
  return `${lines.slice(0, MAX_DIFF_LINES).join('\n')}\n… [diff cut: ${lines.length - MAX_DIFF_LINES} more lines]`;
}

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FileChange } from '../../../shared/fileChange';
import { ToolError } from '../defineTool';
import { dominantLineEnding } from './lineEndings';
import { looksBinary } from '../../workspace/looksBinary';

/**
 * What the request shows for a write or an edit: the file as it is now around the change (see
 * FileChange), and the hash the call checks before it writes, so what runs is what was shown.
 */

/** The most text a request carries for its diff; a bigger file (or region) is named, not diffed. */
export const MAX_PREVIEW_BYTES = 256 * 1024;
/** Lines of context around an edit, as in a unified diff. */
const CONTEXT_LINES = 3;

/** The hash a FileChange records: sha256 of the bytes, or `absent` when there is no file. */
export function fileHash(bytes: Uint8Array | null): string {
  return bytes === null ? 'absent' : createHash('sha256').update(bytes).digest('hex');
}

/** The file's bytes now, or null when it does not exist; undefined when it is not a regular file (the call will say why). */
export async function readCurrent(absolute: string): Promise<Buffer | null | undefined> {
  try {
    const stat = await fs.promises.stat(absolute);
    if (!stat.isFile()) return undefined;
    return await fs.promises.readFile(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
}

/** What write_file's request shows: the whole file now, replaced by the new content. */
export function writeChange(relative: string, bytes: Buffer | null): FileChange {
  if (bytes === null) return { path: relative, file: 'new', segments: ['', '', ''], firstLine: 1, bytes: 0, lines: 0, hash: 'absent' };
  const shape = described(relative, bytes);
  if (shape.file !== 'text') return shape;
  return { ...shape, segments: ['', normalised(bytes.toString('utf8')), ''] };
}

/**
 * What edit_file's request shows: each place old_string matches, with three lines around the
 * first and the last. Undefined when the edit would fail anyway (no match, or several without
 * replace_all): the tool's own error says why.
 */
export function editChange(relative: string, bytes: Buffer, matches: readonly { index: number; length: number }[]): FileChange | undefined {
  const shape = described(relative, bytes);
  if (shape.file !== 'text') return shape;
  const first = matches[0];
  const last = matches.at(-1);
  if (!first || !last) return undefined;
  const text = bytes.toString('utf8');
  const start = lineStartBefore(text, first.index, CONTEXT_LINES);
  const end = lineEndAfter(text, last.index + last.length, CONTEXT_LINES);
  if (end - start > MAX_PREVIEW_BYTES) return { ...shape, file: 'too-large' };
  const segments: string[] = [];
  let cursor = start;
  for (const match of matches) {
    segments.push(normalised(text.slice(cursor, match.index)), normalised(text.slice(match.index, match.index + match.length)));
    cursor = match.index + match.length;
  }
  segments.push(normalised(text.slice(cursor, end)));
  return { ...shape, segments, firstLine: lineNumberAt(text, start) };
}

/**
 * Refuses to write a file that changed after the person was shown a diff against it: the change
 * they allowed is no longer the one this call would make.
 */
export function assertUnchanged(tool: string, relative: string, approvedHash: string | undefined, bytes: Uint8Array | null): void {
  if (approvedHash === undefined || fileHash(bytes) === approvedHash) return;
  const what = approvedHash === 'absent' ? 'was created' : bytes === null ? 'was deleted' : 'changed';
  throw new ToolError(
    `${tool}: ${relative} ${what} while the request waited for the person, so the diff they allowed is no longer what this call would do; nothing was written. Read the file again and make the change against what it holds now.`,
  );
}

function described(relative: string, bytes: Buffer): FileChange {
  const hash = fileHash(bytes);
  const base = { path: relative, firstLine: 1, bytes: bytes.length, hash };
  if (looksBinary(bytes)) return { ...base, file: 'binary', lines: 0 };
  const text = bytes.toString('utf8');
  const lines = countLines(text);
  const crlf = dominantLineEnding(text) === '\r\n';
  if (bytes.length > MAX_PREVIEW_BYTES) return { ...base, file: 'too-large', lines, ...(crlf ? { crlf } : {}) };
  return { ...base, file: 'text', lines, ...(crlf ? { crlf } : {}) };
}

function normalised(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** Where the line `count` lines above the one holding `index` starts. */
function lineStartBefore(text: string, index: number, count: number): number {
  let start = text.lastIndexOf('\n', index - 1) + 1;
  for (let i = 0; i < count && start > 0; i++) {
    const before = start - 2;
    start = before < 0 ? 0 : text.lastIndexOf('\n', before) + 1;
  }
  return start;
}

/** Just past the line break ending the line `count` lines below the one holding `index` (or the text's end). */
function lineEndAfter(text: string, index: number, count: number): number {
  // A match that ends with its line break ends there: the next line is the first line after it.
  let end = index > 0 && text[index - 1] === '\n' ? index : text.indexOf('\n', index) + 1 || text.length;
  for (let i = 0; i < count && end < text.length; i++) end = text.indexOf('\n', end) + 1 || text.length;
  return end;
}

function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

import fs from 'node:fs';
import { z } from 'zod';
import { defineTool, ToolError, type ToolResult } from './defineTool';
import description from './readFile.txt?raw';
import { BINARY_SNIFF_BYTES, looksBinary } from '../workspace/looksBinary';
import { missingPathError } from './files/missingPathError';
import { resolvePath } from './files/resolvePath';

const DEFAULT_LIMIT = 2000;
/** What one read may return; the model pages through the rest with offset. */
const MAX_OUTPUT_BYTES = 256 * 1024;
const MAX_LINE_CHARS = 2000;
/** Bytes kept of one line: enough for MAX_LINE_CHARS characters of up to 4 bytes each. */
const MAX_LINE_BYTES = MAX_LINE_CHARS * 4 + 4;
/** Past the requested lines, keep counting lines to report the total only in files up to this size. */
const MAX_COUNTED_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

const parameters = z.object({
  path: z.string().describe('The file to read, relative to the workspace root.'),
  offset: z.number().int().min(1).optional().describe('The first line to return, counting from 1. Default 1.'),
  limit: z.number().int().min(1).optional().describe(`How many lines to return. Default ${DEFAULT_LIMIT}.`),
});

export const readFile = defineTool({
  name: 'read_file',
  description,
  risk: 'read',
  parameters,
  subject: ({ path }) => ({ kind: 'paths', access: 'read', paths: [path] }),
  summarize: ({ path, offset, limit }) =>
    offset || limit ? `Read ${path} (lines ${offset ?? 1}-${(offset ?? 1) + (limit ?? DEFAULT_LIMIT) - 1})` : `Read ${path}`,
  async execute({ path, offset = 1, limit = DEFAULT_LIMIT }, ctx) {
    const file = resolvePath('read_file', ctx.workspace, path);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file.absolute, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw missingPathError('read_file', ctx.workspace, file.absolute);
      if (code === 'EISDIR') throw folderError(file.relative);
      throw new ToolError(
        `read_file: ${file.relative} cannot be opened (${code ?? (error as Error).message}); check the path and its permissions.`,
      );
    }
    try {
      const stat = await handle.stat();
      if (stat.isDirectory()) throw folderError(file.relative);
      if (!stat.isFile())
        throw new ToolError(`read_file: ${file.relative} is not a regular file (a device, socket or pipe); read_file only reads files.`);
      const head = Buffer.alloc(Math.min(BINARY_SNIFF_BYTES, stat.size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      if (looksBinary(head.subarray(0, bytesRead))) {
        throw new ToolError(
          `read_file: ${file.relative} looks like a binary file (${stat.size} bytes with NUL bytes in them); read_file only reads text. ` +
            'Use run_command with a suitable tool (file, xxd, unzip -l) if you need to inspect it.',
        );
      }
      const read = await readLines(handle, offset, limit, stat.size);
      return describeRead(file.relative, offset, read);
    } finally {
      await handle.close();
    }
  },
});

function folderError(relative: string): ToolError {
  return new ToolError(`read_file: ${relative} is a folder, not a file; use list_files to see what is in it.`);
}

interface LinesRead {
  /** The numbered lines, joined. */
  text: string;
  /** How many lines were returned. */
  count: number;
  /** The file's line count, or null when it was too big to count. */
  totalLines: number | null;
  /** The output hit MAX_OUTPUT_BYTES before `limit` lines. */
  capped: boolean;
  /** Lines exist after the returned ones. */
  more: boolean;
}

/**
 * Streams the file line by line, so a huge file costs only what is returned; a line longer than
 * MAX_LINE_BYTES is not held in full.
 */
async function readLines(handle: fs.promises.FileHandle, offset: number, limit: number, size: number): Promise<LinesRead> {
  const out: string[] = [];
  let outBytes = 0;
  let lineNumber = 0;
  let capped = false;
  /** False once the requested lines are in: from then on lines are only counted. */
  let collecting = true;
  let counted = true;
  let kept: Buffer[] = [];
  let keptBytes = 0;
  let lineBytes = 0;
  let lastByte = 10;

  const keep = (part: Buffer) => {
    lineBytes += part.length;
    if (keptBytes >= MAX_LINE_BYTES || part.length === 0) return;
    const piece = Buffer.from(part.subarray(0, MAX_LINE_BYTES - keptBytes));
    kept.push(piece);
    keptBytes += piece.length;
  };
  const finishLine = () => {
    lineNumber++;
    if (collecting && lineNumber >= offset) {
      if (out.length >= limit) {
        collecting = false;
      } else {
        const formatted = formatLine(lineNumber, Buffer.concat(kept, keptBytes), lineBytes);
        const bytes = Buffer.byteLength(formatted) + 1;
        if (outBytes + bytes > MAX_OUTPUT_BYTES && out.length > 0) {
          capped = true;
          collecting = false;
        } else {
          out.push(formatted);
          outBytes += bytes;
        }
      }
    }
    kept = [];
    keptBytes = 0;
    lineBytes = 0;
  };

  const buffer = Buffer.alloc(CHUNK_BYTES);
  let position = 0;
  for (;;) {
    if (!collecting && size > MAX_COUNTED_BYTES) {
      counted = false;
      break;
    }
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = buffer.subarray(0, bytesRead);
    let start = 0;
    for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
      if (collecting) keep(data.subarray(start, end));
      finishLine();
      start = end + 1;
    }
    if (collecting) keep(data.subarray(start));
    lastByte = data[bytesRead - 1] ?? 10;
  }
  // A last line without a final newline is still a line.
  if (counted && lastByte !== 10) finishLine();

  const totalLines = counted ? lineNumber : null;
  return { text: out.join('\n'), count: out.length, totalLines, capped, more: !collecting };
}

function formatLine(lineNumber: number, bytes: Buffer, fullLength: number): string {
  let end = bytes.length;
  if (fullLength === bytes.length && end > 0 && bytes[end - 1] === 13) end--;
  let text = bytes.toString('utf8', 0, end);
  if (lineNumber === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length > MAX_LINE_CHARS || fullLength > bytes.length) {
    let cut = Math.min(MAX_LINE_CHARS, text.length);
    if (/[\ud800-\udbff]/.test(text.charAt(cut - 1))) cut--;
    text = `${text.slice(0, cut)} … [line cut at ${MAX_LINE_CHARS} characters; it is ${fullLength} bytes long]`;
  }
  return `${String(lineNumber).padStart(6)}\t${text}`;
}

function describeRead(relative: string, offset: number, read: LinesRead): ToolResult {
  const total = read.totalLines;
  if (total === 0) {
    return {
      title: `Read ${relative} (empty)`,
      output: `(${relative} is empty)`,
      metadata: { path: relative, startLine: 0, endLine: 0, totalLines: 0, truncated: false },
    };
  }
  if (read.count === 0) {
    throw new ToolError(
      `read_file: offset ${offset} is past the end of ${relative}, which has ${total} line${total === 1 ? '' : 's'}; use an offset from 1 to ${total}.`,
    );
  }
  const last = offset + read.count - 1;
  const of = total === null ? '' : ` of ${total}`;
  let output = read.text;
  if (read.capped) {
    output += `\n\n[Output stopped at 256 KB after line ${last}${of}. Continue with offset=${last + 1}, or read a smaller range with limit.]`;
  } else if (read.more) {
    output += `\n\n[Showing lines ${offset}-${last}${of}${total === null ? '; the file continues' : ''}. Continue with offset=${last + 1}.]`;
  }
  return {
    title: `Read ${relative} (lines ${offset}-${last}${of})`,
    output,
    metadata: { path: relative, startLine: offset, endLine: last, totalLines: total, truncated: read.capped || read.more },
  };
}

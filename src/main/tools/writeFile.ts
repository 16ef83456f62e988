import fs from 'node:fs';
import nodePath from 'node:path';
import { z } from 'zod';
import { plural } from '../../shared/costs';
import { defineTool, ToolError } from './defineTool';
import description from './writeFile.txt?raw';
import { dominantLineEnding, withLineEnding } from './files/lineEndings';
import { looksBinary } from '../workspace/looksBinary';
import { resolvePath } from './files/resolvePath';
import { unifiedDiff } from '../workspace/unifiedDiff';
import { assertUnchanged, readCurrent, writeChange } from './files/fileChangePreview';

const MAX_DIFF_LINES = 400;

const parameters = z.object({
  path: z.string().describe('The file to create or overwrite, relative to the workspace root.'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeFile = defineTool({
  name: 'write_file',
  description,
  risk: 'edit',
  parameters,
  subject: ({ path, content }) => ({ kind: 'paths', access: 'write', paths: [path], after: () => content }),
  summarize: ({ path, content }) => `Write ${path} (${plural(countLines(content), 'line')}, ${plural(Buffer.byteLength(content), 'byte')})`,
  async preview({ path }, workspace) {
    if (/[/\\]$/.test(path)) return undefined;
    const file = resolvePath('write_file', workspace, path);
    const bytes = await readCurrent(file.absolute);
    return bytes === undefined ? undefined : writeChange(file.relative, bytes);
  },
  async execute({ path, content }, ctx) {
    if (/[/\\]$/.test(path)) {
      throw new ToolError(
        `write_file: ${JSON.stringify(path)} ends with a slash, so it names a folder; give the path of the file to write.`,
      );
    }
    const file = resolvePath('write_file', ctx.workspace, path);

    let before: string | null = null;
    let existed = false;
    let beforeBytes = 0;
    try {
      const stat = await fs.promises.stat(file.absolute);
      if (stat.isDirectory()) {
        throw new ToolError(`write_file: ${file.relative} is a folder; give the path of a file (for example ${file.relative}/index.ts).`);
      }
      if (!stat.isFile()) throw new ToolError(`write_file: ${file.relative} exists and is not a regular file; choose another path.`);
      existed = true;
      const old = await fs.promises.readFile(file.absolute);
      assertUnchanged('write_file', file.relative, ctx.approvedFile?.hash, old);
      beforeBytes = old.length;
      if (!looksBinary(old)) before = old.toString('utf8');
    } catch (error) {
      if (error instanceof ToolError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') {
        throw new ToolError(
          `write_file: ${file.relative} cannot be checked (${code ?? (error as Error).message}); a parent may be a file rather than a folder.`,
        );
      }
      assertUnchanged('write_file', file.relative, ctx.approvedFile?.hash, null);
    }

    let text = content;
    let keptCrlf = false;
    if (before !== null && dominantLineEnding(before) === '\r\n' && !content.includes('\r\n') && content.includes('\n')) {
      text = withLineEnding(content, '\r\n');
      keptCrlf = true;
    }

    if (existed && before === text) {
      return {
        title: `Left ${file.relative} unchanged`,
        output: `${file.relative} already has exactly this content; nothing was written.`,
        metadata: { path: file.relative, created: false, bytes: beforeBytes, lines: countLines(text), additions: 0, deletions: 0 },
      };
    }

    try {
      await fs.promises.mkdir(nodePath.dirname(file.absolute), { recursive: true });
      // Writing in place keeps an existing file's mode, owner and hard links.
      await fs.promises.writeFile(file.absolute, text);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of its folder path is a file, not a folder' : (code ?? (error as Error).message);
      throw new ToolError(`write_file: cannot write ${file.relative}: ${why}. Choose another path.`);
    }

    const bytes = Buffer.byteLength(text);
    const lines = countLines(text);
    const size = `${plural(bytes, 'byte')}, ${plural(lines, 'line')}`;
    if (!existed) {
      return {
        title: `Created ${file.relative}`,
        output: `Created ${file.relative} (${size}).`,
        metadata: { path: file.relative, created: true, bytes, lines, additions: lines, deletions: 0 },
      };
    }
    const crlf = keptCrlf ? ' CRLF line endings were kept.' : '';
    if (before === null) {
      return {
        title: `Overwrote ${file.relative}`,
        output: `Overwrote ${file.relative} (${size}); it was a binary file of ${plural(beforeBytes, 'byte')}, so no diff is shown.`,
        metadata: { path: file.relative, created: false, bytes, lines, additions: lines, deletions: 0 },
      };
    }
    const diff = unifiedDiff(file.relative, before, text);
    return {
      title: `Overwrote ${file.relative}`,
      output: `Overwrote ${file.relative} (${size}; it had ${plural(beforeBytes, 'byte')}, ${plural(countLines(before), 'line')}).${crlf}\n\n${clip(diff.patch)}`,
      metadata: { path: file.relative, created: false, bytes, lines, additions: diff.additions, deletions: diff.deletions },
    };
  },
});

function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

function clip(patch: string): string {
  const lines = patch.split('\n');
  if (lines.length <= MAX_DIFF_LINES) return patch;
  return `${lines.slice(0, MAX_DIFF_LINES).join('\n')}\n… [diff cut: ${lines.length - MAX_DIFF_LINES} more lines]`;
}

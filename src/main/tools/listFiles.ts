import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from './defineTool';
import description from './listFiles.txt?raw';
import { missingPathError } from './files/missingPathError';
import { resolvePath } from './files/resolvePath';
import { IgnoreRules } from './search/ignoreRules';

const DEFAULT_DEPTH = 3;
const MAX_DEPTH = 10;
const MAX_ENTRIES = 1000;
/** Past the shown entries, keep counting up to this many so the note can say how many were left out. */
const MAX_COUNTED = 100_000;
const IGNORED_NAMES_SHOWN = 10;

const parameters = z.object({
  path: z.string().optional().describe('The folder to list, relative to the workspace root. Default: the root.'),
  depth: z
    .number()
    .int()
    .min(1)
    .max(MAX_DEPTH)
    .optional()
    .describe(`How many levels of folders to descend. Default ${DEFAULT_DEPTH}, at most ${MAX_DEPTH}.`),
});

interface Entry {
  name: string;
  /** Relative to the workspace root. */
  relative: string;
  kind: 'folder' | 'file' | 'link' | 'other';
  level: number;
  linkTarget?: string;
  children?: Entry[];
  /** For a folder at the last level: how many entries it holds. */
  hiddenCount?: number;
}

export const listFiles = defineTool({
  name: 'list_files',
  description,
  risk: 'read',
  parameters,
  subject: ({ path }) => ({ kind: 'paths', access: 'read', paths: [path ?? '.'] }),
  summarize: ({ path: folder, depth }) => `List ${folder ?? 'the workspace'}${depth ? ` (${depth} levels)` : ''}`,
  async execute({ path: given = '.', depth = DEFAULT_DEPTH }, ctx) {
    const folder = resolvePath('list_files', ctx.workspace, given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(folder.absolute);
    } catch {
      throw missingPathError('list_files', ctx.workspace, folder.absolute);
    }
    if (!stat.isDirectory()) {
      throw new ToolError(`list_files: ${folder.relative} is a file, not a folder; use read_file to read it, or list its folder.`);
    }
    const rules = new IgnoreRules(ctx.workspace.root);
    const useRules = !rules.ignoresPathOrParent(folder.relative, true);
    const isIgnored = (relative: string) => useRules && rules.ignores(relative);
    const ignoredNames: string[] = [];
    let ignoredCount = 0;

    /** The folder's entries, sorted; `record` notes ignored ones for the summary. */
    const readFolder = async (relative: string, level: number, record = true): Promise<Entry[]> => {
      let dirents: fs.Dirent[];
      try {
        dirents = await fs.promises.readdir(path.join(ctx.workspace.root, relative), { withFileTypes: true });
      } catch {
        return [];
      }
      const entries: Entry[] = [];
      for (const dirent of dirents) {
        if (dirent.name === '.git') continue;
        const childRelative = relative === '.' ? dirent.name : `${relative}/${dirent.name}`;
        const kind = dirent.isDirectory() ? 'folder' : dirent.isSymbolicLink() ? 'link' : dirent.isFile() ? 'file' : 'other';
        if (isIgnored(kind === 'folder' ? `${childRelative}/` : childRelative)) {
          if (!record) continue;
          ignoredCount++;
          if (ignoredNames.length < IGNORED_NAMES_SHOWN) ignoredNames.push(kind === 'folder' ? `${childRelative}/` : childRelative);
          continue;
        }
        const entry: Entry = { name: dirent.name, relative: childRelative, kind, level };
        if (kind === 'link' && record) {
          try {
            entry.linkTarget = await fs.promises.readlink(path.join(ctx.workspace.root, childRelative));
          } catch {
            entry.linkTarget = '?';
          }
        }
        entries.push(entry);
      }
      return entries.sort((a, b) =>
        (a.kind === 'folder') !== (b.kind === 'folder') ? (a.kind === 'folder' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
    };

    // Breadth first, so a capped listing still shows the top levels in full.
    const top: Entry[] = await readFolder(folder.relative, 1);
    let shown = 0;
    let leftOut = 0;
    let countingCapped = false;
    let queue: Entry[] = top;
    const kept = new Set<Entry>();
    while (queue.length) {
      ctx.signal.throwIfAborted();
      const nextQueue: Entry[] = [];
      for (const entry of queue) {
        if (shown < MAX_ENTRIES) {
          shown++;
          kept.add(entry);
        } else {
          leftOut++;
        }
        if (entry.kind !== 'folder') continue;
        if (entry.level < depth) {
          if (shown + leftOut >= MAX_ENTRIES + MAX_COUNTED) {
            countingCapped = true;
            continue;
          }
          entry.children = await readFolder(entry.relative, entry.level + 1);
          nextQueue.push(...entry.children);
        } else if (kept.has(entry)) {
          entry.hiddenCount = (await readFolder(entry.relative, entry.level + 1, false)).length;
        }
      }
      queue = nextQueue;
    }

    const lines: string[] = [`${folder.relative === '.' ? '.' : folder.relative}/`];
    const render = (entries: Entry[]) => {
      for (const entry of entries) {
        if (!kept.has(entry)) continue;
        const indent = '  '.repeat(entry.level);
        if (entry.kind === 'folder') {
          const inside = entry.hiddenCount ? `  (${entry.hiddenCount} entr${entry.hiddenCount === 1 ? 'y' : 'ies'} inside)` : '';
          lines.push(`${indent}${entry.name}/${inside}`);
          if (entry.children) {
            render(entry.children);
            const notShown = entry.children.filter((child) => !kept.has(child)).length;
            if (notShown) lines.push(`${indent}  … ${notShown} more not shown`);
          }
        } else if (entry.kind === 'link') {
          lines.push(`${indent}${entry.name} -> ${entry.linkTarget}`);
        } else {
          lines.push(`${indent}${entry.name}`);
        }
      }
    };
    render(top);

    const notes: string[] = [];
    if (shown === 0) notes.push(ignoredCount ? '(no entries besides ignored ones)' : '(empty folder)');
    if (leftOut > 0 || countingCapped) {
      notes.push(
        `[${countingCapped ? 'More than ' : ''}${leftOut} more entries not shown: the listing stops at ${MAX_ENTRIES}. ` +
          'List a subfolder with path, or use a smaller depth.]',
      );
    }
    if (!useRules) notes.push(`[${folder.relative} is ignored by .gitignore; it is listed anyway, without ignore rules.]`);
    else if (ignoredCount > 0) {
      const more = ignoredCount > ignoredNames.length ? `, and ${ignoredCount - ignoredNames.length} more` : '';
      notes.push(`[Left out as ignored by .gitignore: ${ignoredNames.join(', ')}${more}.]`);
    }
    const output = [lines.join('\n'), ...notes].join('\n\n');
    return {
      title: `Listed ${folder.relative === '.' ? 'the workspace' : folder.relative} (${shown} entr${shown === 1 ? 'y' : 'ies'}${leftOut ? `, ${leftOut} more not shown` : ''})`,
      output,
      metadata: { path: folder.relative, shown, leftOut, ignored: ignoredCount, depth },
    };
  },
});

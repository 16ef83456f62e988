import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { compileLinePattern, type LinePattern } from './compileLinePattern';
import { MAX_SEARCH_FILE_BYTES, type MatchSink, type SearchQuery } from './searchQuery';

/** Files read at once: enough to keep the disk busy, few enough to stay far from the fd limit. */
const PARALLEL_READS = 16;

/**
 * The built-in engine, for machines with neither ripgrep nor git: walks the folder (skipping
 * `.git`, symbolic links, ignored paths and files the glob rejects), then searches each file
 * that holds no NUL byte line by line with the translated pattern.
 */
export async function nodeSearch(query: SearchQuery, sink: MatchSink): Promise<void> {
  const pattern = compileLinePattern(query.pattern, query);
  const files: string[] = [];
  await walk(query, query.folder === '.' ? '' : query.folder, files);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      query.signal.throwIfAborted();
      const relative = files[next++] as string;
      await searchFile(path.join(query.root, relative), relative, pattern, sink);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, files.length) }, worker));
}

/** Searches one file the way every backend does (size limit, NUL rule, per line); used for a `path` that is a file. */
export async function nodeSearchFile(query: SearchQuery, relative: string, sink: MatchSink): Promise<void> {
  await searchFile(path.join(query.root, relative), relative, compileLinePattern(query.pattern, query), sink);
}

async function walk(query: SearchQuery, folder: string, files: string[]): Promise<void> {
  query.signal.throwIfAborted();
  let entries;
  try {
    entries = await fs.readdir(path.join(query.root, folder), { withFileTypes: true });
  } catch {
    return;
  }
  const folders: string[] = [];
  for (const entry of entries) {
    if (entry.name === '.git') continue;
    const relative = folder ? `${folder}/${entry.name}` : entry.name;
    const kind = await kindOf(query.root, relative, entry);
    if (kind === 'directory') {
      if (!query.useIgnoreFiles || !query.ignoreRules.ignores(`${relative}/`)) folders.push(relative);
    } else if (kind === 'file') {
      if (query.glob && !query.glob.matches(relative)) continue;
      if (!query.useIgnoreFiles || !query.ignoreRules.ignores(relative)) files.push(relative);
    }
  }
  for (const child of folders) await walk(query, child, files);
}

/** Some file systems do not report entry types while listing; ask them (never following links). */
async function kindOf(root: string, relative: string, entry: Dirent): Promise<'file' | 'directory' | 'other'> {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  try {
    const stat = await fs.lstat(path.join(root, relative));
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
  } catch {
    return 'other';
  }
}

async function searchFile(absolute: string, relative: string, pattern: LinePattern, sink: MatchSink): Promise<void> {
  let content: Buffer;
  try {
    const handle = await fs.open(absolute, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > MAX_SEARCH_FILE_BYTES) return;
      content = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return;
  }
  if (content.includes(0)) return;
  const text = content.toString('latin1');
  if (pattern.mayMatchFile && !pattern.mayMatchFile(text)) return;
  let line = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    const next = end === -1 ? text.length : end + 1;
    if (end === -1) end = text.length;
    line++;
    if (end > start && text.charCodeAt(end - 1) === 13) {
      // Like ripgrep and git grep, a CRLF line is matched with its '\r' and shown without it.
      if (pattern.test(text.slice(start, end))) sink(relative, line, content.subarray(start, end - 1));
    } else if (pattern.test(text.slice(start, end))) {
      sink(relative, line, content.subarray(start, end));
    }
    start = next;
  }
}

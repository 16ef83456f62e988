import fs from 'node:fs';
import path from 'node:path';
import { compileGlob } from './globFilter';
import { IgnoreRules } from './ignoreRules';
import { findGitRepository } from './findGitRepository';
import { gitGrepSearch } from './gitGrepSearch';
import { nodeSearch, nodeSearchFile } from './nodeSearch';
import { portablePattern } from './portablePattern';
import { ripgrepSearch } from './ripgrepSearch';
import { BackendUnavailableError, MAX_SEARCH_FILE_BYTES, type SearchBackend, type SearchQuery } from './searchQuery';

/** Longer matching lines are cut to this many characters, the same way whichever backend ran. */
export const MAX_LINE_CHARS = 500;

export interface SearchOptions {
  /** The canonical workspace root. */
  root: string;
  /** What to search, relative to the root with forward slashes ('.' for the root). */
  path: string;
  /** Whether `path` is a file (searched even when ignored) rather than a folder. */
  isFile: boolean;
  pattern: string;
  literal: boolean;
  caseSensitive: boolean;
  glob?: string;
  maxResults: number;
  signal: AbortSignal;
  /** Forces one engine (tests, benchmarks); otherwise ripgrep, then git grep in a repository, then the built-in one. */
  backend?: SearchBackend;
}

/** One matching line. */
export interface SearchMatch {
  /** Relative to the workspace root, '/'-separated. */
  path: string;
  line: number;
  /** The line, cut to MAX_LINE_CHARS with a marker. */
  text: string;
}

export interface SearchResult {
  /** The first `maxResults` matches, sorted by path and then line. */
  matches: SearchMatch[];
  totalMatches: number;
  totalFiles: number;
  backend: SearchBackend;
  /** False when `path` lies in an ignored folder, so .gitignore was not applied below it. */
  ignoreFilesApplied: boolean;
}

/** Backends found unable to run on this machine (not installed, no PCRE2): not tried again. */
const unavailable = new Set<SearchBackend>();

/**
 * Searches the workspace with the fastest engine available and returns results in one format,
 * whichever engine ran: the same files (ignore rules, glob, size limit and the NUL-byte rule for
 * binary files applied the same way) and the same lines, sorted by path and line so the order
 * is stable although ripgrep searches in parallel. Throws PatternSyntaxError for a pattern the
 * engine rejects.
 */
export async function searchFiles(options: SearchOptions): Promise<SearchResult> {
  const ignoreRules = new IgnoreRules(options.root);
  const glob = options.glob ? compileGlob(options.glob) : null;
  const useIgnoreFiles = options.isFile || !ignoreRules.ignoresPathOrParent(options.path, true);
  const query: SearchQuery = {
    root: options.root,
    folder: options.path,
    pattern: options.literal ? options.pattern : portablePattern(options.pattern),
    literal: options.literal,
    caseSensitive: options.caseSensitive,
    glob,
    useIgnoreFiles,
    ignoreRules,
    inGitRepository: findGitRepository(options.root) !== null,
    signal: options.signal,
  };
  const empty = (backend: SearchBackend): SearchResult => ({
    matches: [],
    totalMatches: 0,
    totalFiles: 0,
    backend,
    ignoreFilesApplied: useIgnoreFiles,
  });

  if (options.isFile) {
    const collector = new MatchCollector(options.maxResults);
    if (!glob || glob.matches(options.path))
      await nodeSearchFile(query, options.path, (file, line, text) => collector.add(file, line, text));
    return { ...collector.result(), backend: 'node', ignoreFilesApplied: true };
  }

  const folder = narrowToGlobBase(options.root, options.path, glob, useIgnoreFiles ? ignoreRules : null);
  if (folder === null) return empty(options.backend ?? 'node');
  query.folder = folder;

  const candidates: SearchBackend[] = options.backend
    ? [options.backend]
    : (['ripgrep', 'git', 'node'] as const).filter((backend) => !unavailable.has(backend) && (backend !== 'git' || query.inGitRepository));
  for (const backend of candidates) {
    try {
      return { ...(await runBackend(backend, query, options)), backend, ignoreFilesApplied: useIgnoreFiles };
    } catch (error) {
      if (!(error instanceof BackendUnavailableError)) throw error;
      if (options.backend) throw new Error(`The ${backend} search backend cannot run here: ${error.message}`);
      unavailable.add(backend);
    }
  }
  throw new Error('No search backend could run.');
}

async function runBackend(backend: SearchBackend, query: SearchQuery, options: SearchOptions) {
  const collector = new MatchCollector(options.maxResults);
  const selected = (file: string) => !query.glob || query.glob.matches(file);
  if (backend === 'node') {
    await nodeSearch(query, (file, line, text) => collector.add(file, line, text));
  } else if (backend === 'ripgrep') {
    // A file's lines are held until the next file starts, so a late "binary" notice can drop them.
    let file: string | null = null;
    let lines: { line: number; text: Buffer }[] = [];
    const commit = () => {
      if (file !== null && selected(file)) for (const held of lines) collector.add(file, held.line, held.text);
      file = null;
      lines = [];
    };
    await ripgrepSearch(
      query,
      (path, line, text) => {
        if (path !== file) {
          commit();
          file = path;
        }
        lines.push({ line, text: Buffer.from(text) });
      },
      (path) => {
        if (path === file) {
          file = null;
          lines = [];
        }
      },
    );
    commit();
  } else {
    // git grep's own binary rule differs, so each file is checked when its first line arrives. The
    // check is synchronous: a thread-pool round trip per file costs far more, and the event loop
    // still turns between two chunks of output.
    const keep = new Map<string, boolean>();
    await gitGrepSearch(query, (file, line, text) => {
      let kept = keep.get(file);
      if (kept === undefined) {
        kept = selected(file) && isSearchable(path.join(query.root, file));
        keep.set(file, kept);
      }
      if (kept) collector.add(file, line, text);
    });
  }
  return collector.result();
}

/** The rule the built-in engine applies while reading: a regular file, not too big, without NUL bytes. */
function isSearchable(absolute: string): boolean {
  let fd: number | undefined;
  try {
    // Non-blocking, so a FIFO can never hang the search.
    fd = fs.openSync(absolute, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_SEARCH_FILE_BYTES) return false;
    return !fs.readFileSync(fd).includes(0);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The folder to hand the backend: the glob's fixed leading folders when they lie inside `folder`
 * (`src/**` searches only src/), `folder` itself otherwise, or null when nothing can match.
 */
function narrowToGlobBase(
  root: string,
  folder: string,
  glob: ReturnType<typeof compileGlob> | null,
  rules: IgnoreRules | null,
): string | null {
  if (!glob?.base) return folder;
  const base = glob.base;
  if (folder === '.' || base === folder || base.startsWith(`${folder}/`)) {
    try {
      if (!fs.statSync(path.join(root, base)).isDirectory()) return null;
    } catch {
      return null;
    }
    // A walk from `folder` would never enter an ignored base, so searching it directly must not either.
    if (rules?.ignoresPathOrParent(base, true)) return null;
    return base;
  }
  return folder.startsWith(`${base}/`) ? folder : null;
}

/**
 * Keeps the first `limit` matches in (path, line) order without holding every match: the list
 * is sorted and cut whenever it grows to a few times the limit.
 */
class MatchCollector {
  private kept: SearchMatch[] = [];
  private total = 0;
  private readonly files = new Set<string>();
  /** Once `limit` matches are kept, the last of them: anything after it can only be counted. */
  private last: SearchMatch | null = null;

  constructor(private readonly limit: number) {}

  add(file: string, line: number, bytes: Buffer): void {
    this.total++;
    this.files.add(file);
    if (this.last && (file > this.last.path || (file === this.last.path && line > this.last.line))) return;
    this.kept.push({ path: file, line, text: decodeLine(bytes, line) });
    if (this.kept.length >= this.limit * 4 + 64) this.compact();
  }

  result(): { matches: SearchMatch[]; totalMatches: number; totalFiles: number } {
    this.compact();
    return { matches: this.kept, totalMatches: this.total, totalFiles: this.files.size };
  }

  private compact(): void {
    this.kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
    if (this.kept.length >= this.limit) {
      this.kept.length = this.limit;
      this.last = this.kept[this.limit - 1] ?? null;
    }
  }
}

/** Decodes only what can be shown: MAX_LINE_CHARS characters take at most 4 bytes each. */
function decodeLine(bytes: Buffer, line: number): string {
  let text = bytes.toString('utf8', 0, Math.min(bytes.length, MAX_LINE_CHARS * 4 + 4));
  if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length <= MAX_LINE_CHARS) return text;
  let cut = MAX_LINE_CHARS;
  if (/[\ud800-\udbff]/.test(text.charAt(cut - 1))) cut--;
  return `${text.slice(0, cut)} … [line cut at ${MAX_LINE_CHARS} characters]`;
}

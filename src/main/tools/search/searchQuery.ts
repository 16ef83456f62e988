import type { GlobFilter } from './globFilter';
import type { IgnoreRules } from './ignoreRules';

/** The engines search_code can run on; all three give the same results for the same query. */
export type SearchBackend = 'ripgrep' | 'git' | 'node';

/** Files larger than this are not searched (ripgrep's --max-filesize draws the same line). */
export const MAX_SEARCH_FILE_BYTES = 10 * 1024 * 1024;

/*
 * A file with a NUL byte anywhere in it counts as binary and gives no results. That is the one
 * rule all three backends can apply exactly: ripgrep stops at the first NUL it meets and, when it
 * had already printed lines of that file, says so, so those lines can be taken back.
 */

/** One search, as every backend receives it. */
export interface SearchQuery {
  /** The canonical workspace root; backends run with it as their working folder. */
  root: string;
  /** The folder to search, relative to the root with forward slashes ('.' for the root). */
  folder: string;
  pattern: string;
  literal: boolean;
  caseSensitive: boolean;
  glob: GlobFilter | null;
  /** False when the person named an ignored folder: then nothing is skipped but `.git`. */
  useIgnoreFiles: boolean;
  ignoreRules: IgnoreRules;
  /** Whether the root is inside a git repository (ripgrep then takes .gitignore from it as git does). */
  inGitRepository: boolean;
  signal: AbortSignal;
}

/**
 * Receives one matching line: its path relative to the root ('/'-separated), its 1-based number,
 * and its bytes without the line break (the buffer is only valid during the call).
 */
export type MatchSink = (path: string, line: number, text: Buffer) => void;

/** Told that a file already reported to the MatchSink turned out to be binary: its lines must be dropped. */
export type BinarySink = (path: string) => void;

/** A backend that cannot run here (not installed, or built without PCRE2); the next one is tried. */
export class BackendUnavailableError extends Error {
  override readonly name = 'BackendUnavailableError';
}

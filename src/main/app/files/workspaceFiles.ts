import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileMatches } from '../../../shared/contract';
import { findExecutable } from '../../tools/search/findExecutable';
import { GUARD_CONFIG } from '../../workspace/git';
import { IgnoreRules } from '../../tools/search/ignoreRules';

/** A folder with more files than this is listed up to here (the matches say the list was cut). */
export const MAX_LISTED_FILES = 200_000;
/** How long a listing serves completions before the next request lists again (files come and go as the agent works). */
const FRESH_MS = 10_000;
const DEFAULT_LIMIT = 50;

interface Listing {
  files: string[];
  /** The folder held more than MAX_LISTED_FILES. */
  cut: boolean;
}

/**
 * The files of a workspace, for @-mentions in the task box: listed once per workspace (ripgrep's
 * `rg --files`, which keeps to .gitignore and never follows links; git's list where there is no
 * ripgrep; a walk that reads .gitignore where there is neither), kept for a few seconds, and
 * matched against what the person typed. Only names are listed; nothing is read.
 */
export class WorkspaceFiles {
  private readonly listings = new Map<string, { at: number; listing: Promise<Listing> }>();

  constructor(private readonly options: { freshMs?: number; maxFiles?: number; now?: () => number } = {}) {}

  async complete(workspace: string, query: string, limit = DEFAULT_LIMIT): Promise<FileMatches> {
    const { files, cut } = await this.list(workspace);
    const ranked = rankFiles(files, query, limit + 1);
    return { files: ranked.slice(0, limit), truncated: ranked.length > limit || cut };
  }

  private list(workspace: string): Promise<Listing> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.listings.get(workspace);
    if (cached && now - cached.at < (this.options.freshMs ?? FRESH_MS)) return cached.listing;
    const listing = listFiles(workspace, this.options.maxFiles ?? MAX_LISTED_FILES);
    this.listings.set(workspace, { at: now, listing });
    // A failed listing is not kept: the next keystroke tries again.
    listing.catch(() => this.listings.delete(workspace));
    return listing;
  }
}

/**
 * The files whose path holds what was typed, best first: a path that starts with it, then a file
 * name that starts with its last part, then the rest by where the match falls; shorter paths
 * first within each. Case-insensitive. An empty query lists the shallowest files.
 */
export function rankFiles(files: readonly string[], query: string, limit: number): string[] {
  const needle = query
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .toLowerCase();
  const lastPart = needle.slice(needle.lastIndexOf('/') + 1);
  const scored: { file: string; score: number }[] = [];
  for (const file of files) {
    const lower = file.toLowerCase();
    const at = lower.indexOf(needle);
    if (at === -1) continue;
    const name = lower.slice(lower.lastIndexOf('/') + 1);
    const rank = at === 0 ? 0 : lastPart && name.startsWith(lastPart) ? 1 : 2;
    scored.push({ file, score: rank * 1e6 + (rank === 2 ? at * 1e3 : 0) + file.length });
  }
  scored.sort((a, b) => a.score - b.score || (a.file < b.file ? -1 : 1));
  return scored.slice(0, limit).map((entry) => entry.file);
}

async function listFiles(workspace: string, max: number): Promise<Listing> {
  const rg = findExecutable('rg');
  if (rg)
    return listByProgram(
      rg,
      ['--files', '--hidden', '--no-config', '--no-require-git', '--glob=!.git', '--null', '--color=never'],
      workspace,
      max,
    );
  const git = findExecutable('git');
  if (git) {
    try {
      // With the guard every git Tether runs gets: ls-files runs the repository's core.fsmonitor, which a
      // repository the agent made (or a bare one it planted at the root) could name.
      return await listByProgram(git, [...GUARD_CONFIG, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], workspace, max);
    } catch {
      // Not a git repository: walk it.
    }
  }
  return walk(workspace, max);
}

/** Runs a lister that prints NUL-separated paths, stopping it once `max` came. */
function listByProgram(command: string, args: string[], cwd: string, max: number): Promise<Listing> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const files: string[] = [];
    let carry = '';
    let stderr = '';
    let cut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (cut) return;
      const parts = (carry + chunk).split('\0');
      carry = parts.pop() ?? '';
      for (const part of parts) {
        if (files.length >= max) {
          cut = true;
          child.kill('SIGKILL');
          return;
        }
        files.push(part.replace(/\\/g, '/').replace(/^\.\//, ''));
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(0, 2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      // rg exits 1 when it found no file at all; that is an empty folder, not a failure.
      if (cut || code === 0 || (code === 1 && stderr === '' && path.basename(command).startsWith('rg'))) resolve({ files, cut });
      else reject(new Error(`Could not list the files of ${cwd}: ${stderr.trim() || `${path.basename(command)} exited ${code}`}`));
    });
  });
}

/** The last resort: a breadth-first walk that skips .git, links and what .gitignore ignores. */
async function walk(root: string, max: number): Promise<Listing> {
  const rules = new IgnoreRules(root);
  const files: string[] = [];
  const folders = [''];
  while (folders.length > 0) {
    const folder = folders.shift()!;
    let entries;
    try {
      entries = await fs.readdir(path.join(root, folder), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!rules.ignores(`${relative}/`)) folders.push(relative);
      } else if (entry.isFile() && !rules.ignores(relative)) {
        if (files.length >= max) return { files, cut: true };
        files.push(relative);
      }
    }
  }
  return { files, cut: false };
}

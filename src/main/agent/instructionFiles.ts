import fs from 'node:fs';
import path from 'node:path';
import type { InstructionFile } from '../../shared/events';
import { toolTraits } from '../../shared/toolCatalog';
import type { SessionLog } from '../store/sessionLog';
import { isInside } from '../workspace/filePaths';

/**
 * The project's own instructions for agents: AGENTS.md and CLAUDE.md files.
 *
 * Which folders count: the workspace root, read once when the session first runs (its files go into
 * the system prompt), and then every folder the agent works in: the folder of a file it read,
 * changed or created, a folder it listed or searched, the folder a command ran in, and every folder
 * between that one and the root. Files found there later go into the conversation at the point they
 * were found, nearest folder first, so the system prompt never changes (it is the cached prefix).
 * In one folder AGENTS.md comes before CLAUDE.md; a CLAUDE.md that is a link to the AGENTS.md beside
 * it, or a copy of it, is given once.
 */

export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

export interface InstructionLimits {
  /** The most characters one file gives the model. */
  maxFileChars: number;
  /** The most characters all of a session's instruction files give the model together. */
  maxTotalChars: number;
}

export const defaultInstructionLimits: InstructionLimits = { maxFileChars: 20_000, maxTotalChars: 60_000 };

export interface FoundInstructions {
  files: InstructionFile[];
  warnings: string[];
  /** Files looked at and left out: with a warning, or silently when they repeat the file beside them. */
  skipped: string[];
}

export interface ReadInstructionsOptions {
  /** Paths (relative, as in InstructionFile.path) already given to the model in this session. */
  known?: ReadonlySet<string>;
  /** Characters of instructions the session already gave the model. */
  usedChars?: number;
  limits?: InstructionLimits;
}

/** Past this size a file is not read whole: only the part that could be used, and its size from the disk. */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

/**
 * Reads the instruction files of `folders` (relative to the workspace, '' for the root), in the order
 * given, skipping files already known. A file that cannot be read, or that leads out of the
 * workspace, is skipped with a warning; one over the caps is cut with a warning.
 */
export function readInstructionFiles(
  workspace: string,
  folders: readonly string[],
  options: ReadInstructionsOptions = {},
): FoundInstructions {
  const limits = options.limits ?? defaultInstructionLimits;
  const known = new Set(options.known ?? []);
  let used = options.usedChars ?? 0;
  const files: InstructionFile[] = [];
  const warnings: string[] = [];
  const skipped: string[] = [];
  const root = realpath(workspace) ?? workspace;

  for (const folder of folders) {
    const seenHere = new Map<string, string>();
    for (const name of INSTRUCTION_FILE_NAMES) {
      const relative = toPosix(path.join(folder, name));
      if (known.has(relative)) continue;
      const absolute = path.join(root, folder, name);
      if (!isFile(absolute)) continue;
      known.add(relative);
      const real = realpath(absolute);
      if (real === undefined || !isInside(real, root)) {
        warnings.push(
          `${relative} leads outside the workspace (to ${real ?? 'nowhere'}); it was not read. Replace the link with a file inside the workspace.`,
        );
        skipped.push(relative);
        continue;
      }
      let content: { text: string; chars: number };
      try {
        content = readText(real, limits.maxFileChars);
      } catch (error) {
        warnings.push(`${relative} could not be read (${(error as Error).message}); it was left out. Check its permissions.`);
        skipped.push(relative);
        continue;
      }
      if (content.text.includes('\u0000')) {
        warnings.push(`${relative} is not a text file; it was left out.`);
        skipped.push(relative);
        continue;
      }
      const twin = seenHere.get(real) ?? [...seenHere.entries()].find(([, text]) => text === content.text)?.[0];
      if (twin !== undefined) {
        skipped.push(relative);
        continue;
      }
      seenHere.set(real, content.text);

      const left = limits.maxTotalChars - used;
      if (left <= 0) {
        warnings.push(
          `${relative} was not given to the model: the session's instruction files already reach the cap of ${count(limits.maxTotalChars)} characters. Shorten the instruction files.`,
        );
        skipped.push(relative);
        continue;
      }
      const allowed = Math.min(limits.maxFileChars, left);
      const truncated = content.chars > allowed;
      if (truncated) {
        warnings.push(
          allowed < limits.maxFileChars && content.chars <= limits.maxFileChars
            ? `${relative} has ${count(content.chars)} characters; only the first ${count(allowed)} were given to the model, because the session's instruction files together may give it ${count(limits.maxTotalChars)}. Shorten the instruction files.`
            : `${relative} has ${count(content.chars)} characters, more than the ${count(limits.maxFileChars)} an instruction file may give the model; only the first ${count(allowed)} were used. Shorten it, or move details into files the agent can read when it needs them.`,
        );
      }
      const text = truncated ? cut(content.text, allowed, content.chars) : content.text;
      used += Math.min(content.chars, allowed);
      files.push({ path: relative, chars: content.chars, truncated, text });
    }
  }
  return { files, warnings, skipped };
}

/**
 * Reads the instruction files in `folders` that the session has not been given yet (nor skipped),
 * within what is left of its character budget, and logs what it found, where it goes: the system
 * prompt (the root's, at the first run) or the conversation (folders the agent worked in later).
 * Nothing found is not logged.
 */
export function loadInstructionFiles(log: SessionLog, folders: readonly string[], placement: 'system' | 'conversation'): void {
  const { instructions } = log.state;
  const given = [...(instructions.system ?? []), ...instructions.notes.flatMap((note) => note.files)];
  const found = readInstructionFiles(log.state.workspace, folders, {
    known: new Set([...given.map((file) => file.path), ...instructions.skipped]),
    usedChars: given.reduce((sum, file) => sum + file.text.length, 0),
  });
  if (found.files.length === 0 && found.warnings.length === 0) return;
  log.append({
    type: 'instructions.loaded',
    placement,
    files: found.files,
    warnings: found.warnings,
    ...(found.skipped.length > 0 ? { skipped: found.skipped } : {}),
  });
}

/** `folder` and every folder above it up to the workspace root, nearest first ('' is the root). */
export function foldersUpToRoot(folder: string): string[] {
  const folders: string[] = [];
  let current = toPosix(path.normalize(folder)).replace(/^\.\/?|\/$/g, '');
  if (current === '.') current = '';
  for (;;) {
    folders.push(current);
    if (current === '') return folders;
    const parent = path.posix.dirname(current);
    current = parent === '.' ? '' : parent;
  }
}

/**
 * The folder a tool call worked in, relative to the workspace, or undefined when it names none (or
 * one outside the workspace). `args` is the call's parsed arguments.
 */
export function folderWorkedIn(workspace: string, tool: string, args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const given = args as Record<string, unknown>;
  // Which argument names the folder, and how, is the tool catalog's.
  const works = toolTraits(tool)?.folder;
  if (!works) return undefined;
  const named = given[works.argument];
  let folder: string;
  if (works.names === 'file') {
    if (typeof named !== 'string') return undefined;
    folder = path.dirname(named);
  } else {
    folder = typeof named === 'string' ? named : '';
  }
  const root = path.resolve(workspace);
  const absolute = path.resolve(root, folder);
  if (!isInside(absolute, root)) return undefined;
  return toPosix(path.relative(root, absolute));
}

function readText(file: string, maxChars: number): { text: string; chars: number } {
  const size = fs.statSync(file).size;
  if (size <= READ_WHOLE_BYTES) {
    const text = fs.readFileSync(file, 'utf8');
    return { text, chars: text.length };
  }
  // A file of megabytes is cut anyway: read what could be used and count the rest by its bytes.
  const handle = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(maxChars * 4);
    const read = fs.readSync(handle, buffer, 0, buffer.length, 0);
    return { text: buffer.subarray(0, read).toString('utf8'), chars: size };
  } finally {
    fs.closeSync(handle);
  }
}

/** The first `allowed` characters, ended at a line break when one is near, and marked as cut. */
function cut(text: string, allowed: number, chars: number): string {
  const newline = text.lastIndexOf('\n', allowed);
  const end = newline >= 0 && allowed - newline <= 200 ? newline : allowed;
  return `${text.slice(0, end).trimEnd()}\n[… cut by Tether: this file has ${count(chars)} characters, over the cap …]`;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function realpath(file: string): string | undefined {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return undefined;
  }
}

function toPosix(file: string): string {
  const posix = file.split(path.sep).join('/');
  return posix === '.' ? '' : posix;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

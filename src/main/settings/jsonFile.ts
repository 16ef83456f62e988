import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The JSON files Tether keeps in its data folder (settings.json, sandbox.json, worktrees.json): read
 * and checked against their schema, written whole. `fail` turns a problem into the caller's error,
 * so each file explains itself in its own words.
 */
export interface JsonFileOptions<T> {
  /** What a file that does not exist yet means. */
  whenMissing(): T;
  /** The error for a problem, e.g. "is not valid JSON (...); fix it or move it away." */
  fail(problem: string): Error;
}

export function readJsonFile<T>(file: string, schema: z.ZodType<T>, options: JsonFileOptions<T>): T {
  const json = readJsonValue(file, options.fail);
  if (json === undefined) return options.whenMissing();
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw options.fail(`holds a setting Tether cannot use:\n${z.prettifyError(parsed.error)}\nFix it or move it away.`);
  return parsed.data;
}

/**
 * The JSON a file holds, not yet checked against any shape; undefined when there is no file. A file
 * with only white space in it holds no settings: `{}` (one made with `touch`; a write of ours is never
 * half done, see {@link writeJsonFile}). For a file several readers each take their part of, as
 * settings.json is (the app's settings, the permission rules, the hooks): one reading, so a broken
 * file says the same thing whichever reader found it.
 */
export function readJsonValue(file: string, fail: (problem: string) => Error): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw fail('is a folder, not a file; name the JSON file itself, or move the folder away.');
    throw fail(`cannot be read: ${(error as Error).message}. Check its permissions, or move it away.`);
  }
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw fail(`is not valid JSON (${(error as Error).message}); fix it or move it away.`);
  }
}

/**
 * Writes `value` through a temporary file and a rename, so a crash never leaves half a file. A file
 * that is there keeps what its author chose: its indentation (or none), its line endings and final
 * line break, its permissions, and where it lives when it is a symbolic link (a settings file kept
 * with one's dotfiles): the file the link leads to is replaced, the link stays.
 */
export function writeJsonFile(file: string, value: unknown): void {
  const target = linkTarget(file);
  let before: { text: string; mode: number } | undefined;
  try {
    before = { text: fs.readFileSync(target, 'utf8'), mode: fs.statSync(target).mode & 0o777 };
  } catch {
    // A new file: two spaces, a final line break, readable by its owner only.
  }
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, jsonText(value, before?.text), { mode: before?.mode ?? 0o600 });
  if (before) fs.chmodSync(temporary, before.mode);
  fs.renameSync(temporary, target);
}

/**
 * Reads a JSON file, lets `edit` change the value as it was written (keys in the author's order, ones
 * the schema does not know kept), and writes it back as {@link writeJsonFile} does. The file is
 * checked against `schema` before and after: a broken file is not overwritten, and a change that would
 * break it is not written.
 */
export function editJsonFile<T>(
  file: string,
  schema: z.ZodType<T>,
  options: JsonFileOptions<T>,
  edit: (json: Record<string, unknown>) => void,
): T {
  readJsonFile(file, schema, options);
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  edit(json);
  const checked = schema.safeParse(json);
  if (!checked.success) throw options.fail(`would not be usable after this change:\n${z.prettifyError(checked.error)}`);
  writeJsonFile(file, json);
  return checked.data;
}

function linkTarget(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/** `value` as JSON laid out like `like` (the file's text before), else with two spaces. */
function jsonText(value: unknown, like: string | undefined): string {
  if (like === undefined) return `${JSON.stringify(value, null, 2)}\n`;
  // The first indented line says how deep one level is; a file with none was written on one line.
  const indent = /\n([ \t]+)\S/.exec(like)?.[1] ?? '';
  const eol = like.includes('\r\n') ? '\r\n' : '\n';
  const text = JSON.stringify(value, null, indent);
  return `${eol === '\n' ? text : text.replaceAll('\n', eol)}${/\r?\n$/.test(like) ? eol : ''}`;
}

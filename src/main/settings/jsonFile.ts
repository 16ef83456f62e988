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
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return options.whenMissing();
    throw options.fail(`cannot be read: ${(error as Error).message}. Check its permissions, or move it away.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw options.fail(`is not valid JSON (${(error as Error).message}); fix it or move it away.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw options.fail(`holds a setting Tether cannot use:\n${z.prettifyError(parsed.error)}\nFix it or move it away.`);
  return parsed.data;
}

/** Writes `value` through a temporary file and a rename, so a crash never leaves half a file. */
export function writeJsonFile(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

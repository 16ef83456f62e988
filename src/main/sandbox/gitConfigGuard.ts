import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPlainGitSetting } from '../workspace/plainGitSettings';

/**
 * The second net under a line that runs with the workspace's `.git/config` writable
 * (shell/gitConfigRewrite.ts proved it is one plain git command): the file as it was before the
 * command, and after it a check that every setting that changed is plain (workspace/plainGitSettings.ts).
 * When one is not, or the file is no longer a config git can read, the file is put back as it was,
 * whole, and the command's result says so: a proof gone wrong never leaves a setting the person's
 * own git would run.
 */
export interface GitConfigGuard {
  readonly file: string;
  /** After the command: the settings it changed that are not plain (the file is back as it was then), or none. */
  check(): string[];
}

export function guardGitConfig(file: string): GitConfigGuard | undefined {
  let before: Buffer;
  let mode: number;
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile()) return undefined;
    mode = stat.mode & 0o777;
    before = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  return {
    file,
    check() {
      const after = readRegularFile(file);
      if (after?.equals(before)) return [];
      const changed = after === undefined ? undefined : changedSettings(before, after);
      const refused =
        changed === undefined ? ['the file itself (git cannot read it as it is now)'] : changed.filter((key) => !isPlainGitSetting(key));
      if (refused.length > 0) putBack(file, before, mode);
      return refused;
    },
  };
}

function readRegularFile(file: string): Buffer | undefined {
  try {
    return fs.lstatSync(file).isFile() ? fs.readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** The keys whose values differ between two config files (added, removed or changed); undefined when git cannot read one. */
function changedSettings(before: Buffer, after: Buffer): string[] | undefined {
  const [was, is] = [settingsOf(before), settingsOf(after)];
  if (was === undefined || is === undefined) return undefined;
  const keys = new Set([...was.keys(), ...is.keys()]);
  return [...keys].filter((key) => (was.get(key) ?? []).join('\0') !== (is.get(key) ?? []).join('\0'));
}

/**
 * Each key's values, in order, as git reads the file: `git config --file - --list`, from a folder
 * that is no repository, with no system or global config, and nothing the file includes.
 */
function settingsOf(content: Buffer): Map<string, string[]> | undefined {
  let listed: string;
  try {
    listed = execFileSync('git', ['config', '--file', '-', '--null', '--list'], {
      input: content,
      cwd: os.tmpdir(),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
      env: {
        PATH: process.env.PATH ?? '',
        GIT_DIR: path.join(os.tmpdir(), 'tether-no-repository'),
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: os.devNull,
        LC_ALL: 'C',
      },
    });
  } catch {
    return undefined;
  }
  const settings = new Map<string, string[]>();
  for (const record of listed.split('\0')) {
    if (record === '') continue;
    const newline = record.indexOf('\n');
    const key = newline < 0 ? record : record.slice(0, newline);
    const value = newline < 0 ? '\u0000none' : record.slice(newline + 1);
    settings.set(key, [...(settings.get(key) ?? []), value]);
  }
  return settings;
}

/** Written beside it under another name and renamed over it: never seen half written. */
function putBack(file: string, content: Buffer, mode: number): void {
  const writing = path.join(path.dirname(file), `.config.tether-${randomUUID()}`);
  fs.writeFileSync(writing, content, { mode });
  // A rename replaces a file or a link without following it; only a folder has to go first.
  if (fs.lstatSync(file, { throwIfNoEntry: false })?.isDirectory()) fs.rmSync(file, { recursive: true, force: true });
  fs.renameSync(writing, file);
}

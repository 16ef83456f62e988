import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside } from './filePaths';
import { guardedGitEnv } from './git';

/**
 * The folder the person's git runs hooks from, when their config (the repository's, their own or the
 * system's) points `core.hooksPath` inside the work tree: `git config core.hooksPath .githooks` is a
 * common way to share hooks without husky. What lands there runs on the person's next commit,
 * checkout or push, outside any sandbox, as `.husky` does (autorunFiles.ts), so a write there by a
 * command or a file tool is treated the same. Undefined when no such setting points inside.
 *
 * Asked of git itself (`--type=path` expands `~`), once per change of the config files it reads:
 * their times are the cache's key, so a look between commands that leave them alone runs no git.
 */
export function configuredHooksFolder(workspace: string): string | undefined {
  const key = configTimes(workspace);
  const cached = known.get(workspace);
  if (cached && cached.key === key) return cached.folder;
  const folder = askGit(workspace);
  known.set(workspace, { key, folder });
  return folder;
}

const known = new Map<string, { key: string; folder: string | undefined }>();

function askGit(workspace: string): string | undefined {
  let value: string;
  try {
    value = execFileSync('git', ['config', '--type=path', '--get', 'core.hooksPath'], {
      cwd: workspace,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: guardedGitEnv(),
    }).trim();
  } catch {
    return undefined;
  }
  if (!value) return undefined;
  // Relative to where hooks run: the top of the work tree.
  const folder = path.resolve(workspace, value);
  return isInside(folder, workspace) && folder !== workspace ? folder : undefined;
}

/** When each config file git would read for this workspace last changed (absent ones too). */
function configTimes(workspace: string): string {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  return [path.join(workspace, '.git', 'config'), path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config'), '/etc/gitconfig']
    .map(changedAt)
    .join(':');
}

/** A worktree's `.git` is a file, so `.git/config` under it is no path at all (ENOTDIR): absent. */
function changedAt(file: string): number | '-' {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return '-';
  }
}

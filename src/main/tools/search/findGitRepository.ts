import fs from 'node:fs';
import path from 'node:path';

/** The git repository a folder belongs to. */
export interface GitRepository {
  /** The top of the working tree (the folder holding `.git`). */
  root: string;
  /** `.git/info/exclude` (in the common git folder for a worktree), whether or not it exists. */
  excludeFile: string;
}

/** The repository containing `folder` (itself or an ancestor), or null outside any repository. */
export function findGitRepository(folder: string): GitRepository | null {
  for (let current = folder; ; current = path.dirname(current)) {
    const dotGit = path.join(current, '.git');
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(dotGit);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) return { root: current, excludeFile: path.join(dotGit, 'info', 'exclude') };
    if (stat?.isFile()) return { root: current, excludeFile: path.join(commonGitDir(current, dotGit), 'info', 'exclude') };
    if (path.dirname(current) === current) return null;
  }
}

/** Worktrees and submodules have a `.git` file pointing at their git folder; info/ lives in its common folder. */
function commonGitDir(root: string, dotGitFile: string): string {
  try {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGitFile, 'utf8'));
    if (!pointer?.[1]) return dotGitFile;
    const gitDir = path.resolve(root, pointer[1]);
    try {
      return path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
    } catch {
      return gitDir;
    }
  } catch {
    return dotGitFile;
  }
}

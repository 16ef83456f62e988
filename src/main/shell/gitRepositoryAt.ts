import fs from 'node:fs';
import path from 'node:path';

/**
 * Whether git run in `dir` (absolute, or relative to `from`) finds the workspace's own repository:
 * the one git finds from the workspace root. Not when, on the way up from `dir` to the root, it meets
 * another: a folder with a `.git` of its own (a nested repository, a submodule's checkout), or a git
 * directory itself (a bare repository committed in the project, `sub/.git`, `.git/modules/m`,
 * `.git/worktrees/w`). Another repository brings its own config, and with it programs git runs
 * (core.fsmonitor on `git status`), so reading it is not "only reading".
 *
 * Read from the file system as it is when the command is judged. A folder that leads outside the
 * workspace (through a link) is not its repository; one that does not exist is judged by the
 * nearest folder above it that does.
 */
export function findsWorkspaceRepository(workspaceRoot: string, from: string, dir: string): boolean {
  let root: string;
  try {
    root = fs.realpathSync(workspaceRoot);
  } catch {
    return false;
  }
  // Not normalised first: `link/..` is the parent of where the link leads, as git's chdir finds it.
  const target = nearestExisting(path.isAbsolute(dir) ? dir : `${from}${path.sep}${dir}`);
  if (target === undefined) return false;
  const own = ownGitDirectory(root);
  for (let current = target; current !== root; current = path.dirname(current)) {
    if (own && current === own) return true;
    if (fs.existsSync(path.join(current, '.git')) || isGitDirectory(current)) return false;
    // Up at / without passing the workspace root: outside it.
    if (path.dirname(current) === current) return false;
  }
  return true;
}

/**
 * The real path of `spelled`, or of its nearest folder that exists: git cannot enter a folder that is
 * not there (`git -C missing` stops at once), so what matters is the repositories around it.
 */
function nearestExisting(spelled: string): string | undefined {
  for (let current = spelled; ; current = path.dirname(current)) {
    try {
      return fs.realpathSync.native(current);
    } catch {
      if (path.dirname(current) === current) return undefined;
    }
  }
}

/** The git directory git finds at the workspace root (`.git`, or where a `.git` file points), if it is there. */
function ownGitDirectory(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return fs.realpathSync(dotGit);
    const named = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    return named ? fs.realpathSync(path.resolve(root, named)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the workspace's own repository is a partial clone: reading an object it lacks (`git show`,
 * `git log -p`, `git blame`) fetches it from a promisor remote, over the network. Read from its config
 * files (the common one, for a worktree, and a worktree's own config.worktree): a promisor remote, or
 * `extensions.partialClone`, or an include this does not follow, which could name either.
 */
export function workspaceRepositoryFetchesLazily(workspaceRoot: string): boolean {
  let gitDir: string | undefined;
  try {
    gitDir = ownGitDirectory(fs.realpathSync(workspaceRoot));
  } catch {
    return false;
  }
  if (gitDir === undefined) return false;
  let commonDir = gitDir;
  try {
    commonDir = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    // Not a worktree's: its config is its own.
  }
  return [path.join(commonDir, 'config'), path.join(gitDir, 'config.worktree')].some((file) => {
    try {
      return configMakesPartialClone(fs.readFileSync(file, 'utf8'));
    } catch {
      return false;
    }
  });
}

/** git's false for a boolean; anything else it takes as true (or refuses), so a promisor it is. */
const GIT_FALSE = /^(?:false|no|off|0*)$/i;

function configMakesPartialClone(config: string): boolean {
  if (/^\s*(?:partialclone\s*=|\[\s*include)/im.test(config)) return true;
  // `promisor = <value>`, or `promisor` alone, which git reads as true; a comment may follow.
  for (const [, rest] of config.matchAll(/^\s*promisor\s*([=#;].*)?$/gim)) {
    if (rest === undefined || !rest.startsWith('=')) return true;
    const value = rest
      .slice(1)
      .replace(/\s*[#;].*$/, '')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (!GIT_FALSE.test(value)) return true;
  }
  return false;
}

/** As git tells (is_git_directory): a HEAD, and objects and refs folders or a commondir naming them. */
function isGitDirectory(dir: string): boolean {
  if (!fs.existsSync(path.join(dir, 'HEAD'))) return false;
  if (fs.existsSync(path.join(dir, 'commondir'))) return true;
  return isDirectory(path.join(dir, 'objects')) && isDirectory(path.join(dir, 'refs'));
}

function isDirectory(target: string): boolean {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
}

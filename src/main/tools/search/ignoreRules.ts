import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { findGitRepository } from './findGitRepository';

interface Level {
  /** The path from the folder the patterns are anchored at down to the workspace root ('' when it is the root). */
  prefix: string;
  rules: Ignore;
}

/**
 * The .gitignore rules that apply inside a workspace, as git and ripgrep apply them: the
 * `.gitignore` of every folder (a deeper file wins over a shallower one), and, when the
 * workspace sits in a git repository, the `.gitignore` files from the repository's top down to
 * the workspace and the repository's `.git/info/exclude`. The user's global excludes file is
 * left out on purpose: it differs per machine, and the three search backends must agree.
 *
 * Paths are relative to the workspace root with forward slashes; folders end with '/'.
 */
export class IgnoreRules {
  private readonly folders = new Map<string, Ignore | null>();
  private readonly outer: Level[] = [];

  constructor(private readonly root: string) {
    const repository = findGitRepository(root);
    if (!repository) return;
    const down = path.relative(repository.root, root).split(path.sep).filter(Boolean);
    const levels: Level[] = [];
    const exclude = readRules(repository.excludeFile);
    if (exclude) levels.push({ prefix: down.join('/'), rules: exclude });
    for (let i = 0; i < down.length; i++) {
      const rules = readRules(path.join(repository.root, ...down.slice(0, i), '.gitignore'));
      if (rules) levels.push({ prefix: down.slice(i).join('/'), rules });
    }
    // Deepest (highest precedence) first, like the workspace's own levels.
    this.outer = levels.reverse();
  }

  /** Whether `relative` (a file, or a folder ending in '/') is ignored. */
  ignores(relative: string): boolean {
    const segments = relative.replace(/\/$/, '').split('/');
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const folder = segments.slice(0, depth).join('/');
      const rules = this.rulesOf(folder);
      if (!rules) continue;
      const verdict = rules.test(folder ? relative.slice(folder.length + 1) : relative);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    for (const level of this.outer) {
      const verdict = level.rules.test(level.prefix ? `${level.prefix}/${relative}` : relative);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }

  /** Whether `relative` or any folder above it (inside the workspace) is ignored. */
  ignoresPathOrParent(relative: string, isDirectory: boolean): boolean {
    if (relative === '.' || relative === '') return false;
    const segments = relative.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const last = i === segments.length;
      if (this.ignores(segments.slice(0, i).join('/') + (!last || isDirectory ? '/' : ''))) return true;
    }
    return false;
  }

  private rulesOf(folder: string): Ignore | null {
    let rules = this.folders.get(folder);
    if (rules === undefined) {
      rules = readRules(path.join(this.root, folder, '.gitignore'));
      this.folders.set(folder, rules);
    }
    return rules;
  }
}

function readRules(file: string): Ignore | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  // allowRelativePaths: a file named '...' is a fine name, not a path that climbs out.
  return ignore({ ignorecase: false, allowRelativePaths: true }).add(text);
}

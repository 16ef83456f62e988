import fs from 'node:fs';
import path from 'node:path';
import type { QuarantinedRepository } from '../../shared/events';
import { isInside } from './filePaths';
import { runGit } from './git';
import { quarantineRepository } from './quarantineRepository';
import { examineRepository, probe, probeEnv, repositoryLayout, type Examination } from './repositoryMachinery';

/**
 * The git repositories inside a workspace, watched from one command to the next, so that none a
 * command creates or changes can run a program when the person's own git later looks at it. Their
 * plain `git status` enters every repository gitlinked in the workspace's index (a command can
 * `git add sub`; their own `git add -A` gitlinks every repository it finds), and each brings its own
 * config and hooks: core.fsmonitor, core.hooksPath, aliases, includes, a `.git` file pointing at a git
 * folder elsewhere. Repositories there before the first command are the person's and are left as
 * they are; what is new or changed after a command is looked at (repositoryMachinery.ts) and what
 * can run is moved aside (quarantineRepository.ts).
 *
 * Finding them is cheap when nothing changed: the folders git would walk for `git add -A` (not
 * ignored by the workspace's .gitignore files, not inside another repository) are remembered with
 * their inode and change time, and after a command each is only stat'ed; a folder whose entries
 * changed (its ctime moved, which no command can set back) is read again, and new subfolders are
 * checked against the .gitignore files by git through an empty repository of Tether's. Each known
 * repository is stat'ed too: its `.git`, config files, hooks, index and what its config includes.
 * Repositories its index links (gitlinks, also those in ignored folders, `git add -f`) are followed.
 * Ignored folders are not walked: `git add -A` passes them by, and a gitlink into one is found
 * through the index. Nothing ever runs git inside a repository of the workspace but the person's own.
 */

interface Folder {
  ino: bigint;
  ctime: bigint;
  /** Changed so shortly before it was read that a change in the same clock tick could hide: read it again next time. */
  racy: boolean;
  /** Its subfolders' names (plain, repositories and ignored alike). */
  children: Set<string>;
  /** The stat of its .gitignore, when it has one. */
  gitignore: string | null;
}

interface Repo {
  /** Found in a folder the walk covers, or only through another repository's index. */
  via: 'tree' | 'gitlink';
  exam: Examination;
  fingerprint: string;
  /** Programs there before the first command (the person's): never moved. */
  accepted: Set<string>;
  depth: number;
  /** The workspace's own repository as it was before the first command: the person's, never changed. */
  own: boolean;
}

/** How deep gitlinks are followed (a repository linked by a repository linked by …). */
const MAX_DEPTH = 6;
/** A folder changed less than this before it was read is read again next time (clock ticks are a few ms). */
const RACY_NS = 100_000_000n;
/** More new folders than this in one command: ask git about the whole tree rather than name each. */
const MAX_PATHSPECS = 256;

export class NestedRepositoryWatch {
  private readonly folders = new Map<string, Folder>();
  private readonly repos = new Map<string, Repo>();
  /** The person's own git folders, as they were before the first command: never changed in place. */
  private protectedDirs: string[] = [];
  /** Folders that stopped being repositories during this look, to walk before it ends. */
  private readonly unwalked: string[] = [];
  private started = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly root: string) {}

  /** Before a command: the first time, records what is there (the person's). */
  begin(): Promise<void> {
    return this.serialized(async () => {
      if (!this.started) await this.baseline();
    });
  }

  /** After a command: every repository new or changed since the last look that could run a program, made harmless. */
  check(): Promise<QuarantinedRepository[]> {
    return this.serialized(async () => {
      if (!this.started) {
        await this.baseline();
        return [];
      }
      return this.scan();
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async baseline(): Promise<void> {
    this.folders.clear();
    this.repos.clear();
    const own = repositoryLayout(path.join(this.root, '.git'));
    this.protectedDirs = [...new Set([own.gitDir, own.commonDir].filter((dir): dir is string => dir !== null))];
    const found = this.walk(this.root, await this.ignoredIn([]));
    if (exists(path.join(this.root, '.git'))) found.unshift(this.root);
    const results: QuarantinedRepository[] = [];
    for (const worktree of found) await this.adopt(worktree, 'tree', 'baseline', 0, results);
    this.started = true;
  }

  private async scan(): Promise<QuarantinedRepository[]> {
    const results: QuarantinedRepository[] = [];
    const now = BigInt(Date.now()) * 1_000_000n;
    const changed: string[] = [];
    let ignoreRulesChanged = false;
    for (const [dir, folder] of [...this.folders]) {
      if (!this.folders.has(dir)) continue; // under a folder found gone just before
      const stat = lstat(dir);
      if (!stat?.isDirectory()) {
        this.forget(dir, true);
        continue;
      }
      if (stat.ino !== folder.ino || stat.ctimeNs !== folder.ctime || folder.racy) changed.push(dir);
      else if (folder.gitignore !== null && signature(path.join(dir, '.gitignore')) !== folder.gitignore) ignoreRulesChanged = true;
    }

    const newRepos: string[] = [];
    const newFolders: string[] = [];
    for (const dir of changed.sort((a, b) => a.length - b.length)) {
      if (!this.folders.has(dir)) continue; // under a folder that became a repository
      if (this.reread(dir, now, newRepos, newFolders)) ignoreRulesChanged = true;
    }
    if (ignoreRulesChanged) {
      // A .gitignore changed: what git walks may have grown. Walk it all again; repositories found that were not known are new.
      this.folders.clear();
      newRepos.push(...this.walk(this.root, await this.ignoredIn([])));
    } else if (newFolders.length) {
      const ignored = await this.ignoredIn(newFolders.length > MAX_PATHSPECS ? [] : newFolders.map((dir) => this.relative(dir)));
      for (const dir of newFolders) if (!this.isIgnored(dir, ignored)) newRepos.push(...this.walk(dir, ignored));
    }
    if (!this.repos.has(this.root) && exists(path.join(this.root, '.git'))) newRepos.unshift(this.root);
    for (const worktree of newRepos) await this.adopt(worktree, 'tree', 'new', 0, results);

    await this.walkUnwalked(results);
    for (const [worktree, repo] of [...this.repos]) {
      if (this.repos.get(worktree) !== repo) continue;
      if (fingerprint(repo.exam) !== repo.fingerprint) {
        const exam = await examineRepository(worktree, this.show, { person: repo.own });
        if (!exam.layout.gitDir && !exists(exam.layout.dotGit)) {
          this.dropRepository(worktree, repo);
          continue;
        }
        repo.exam = exam;
        repo.fingerprint = fingerprint(exam);
        await this.judge(worktree, repo, 'changed', results);
      }
      const current = this.repos.get(worktree);
      if (current) await this.adoptLinked(worktree, current, 'new', results);
    }
    await this.walkUnwalked(results);
    return results;
  }

  /** Walks the folders of repositories that are no more (moved aside): what is under them is git's to walk now. */
  private async walkUnwalked(results: QuarantinedRepository[]): Promise<void> {
    for (let round = 0; this.unwalked.length > 0 && round <= MAX_DEPTH; round++) {
      const folders = this.unwalked.splice(0);
      const ignored = await this.ignoredIn(folders.length > MAX_PATHSPECS ? [] : folders.map((dir) => this.relative(dir)));
      for (const dir of folders) {
        if (this.isIgnored(dir, ignored)) continue;
        for (const worktree of this.walk(dir, ignored)) await this.adopt(worktree, 'tree', 'new', 0, results);
      }
    }
  }

  /**
   * Starts knowing the repository at `worktree` (and those its index links). As found at the start it
   * is the person's: what it can run is accepted. Found later, it is new: what it can run is taken away.
   */
  private async adopt(
    worktree: string,
    via: Repo['via'],
    mode: 'baseline' | 'new',
    depth: number,
    results: QuarantinedRepository[],
  ): Promise<void> {
    if (this.repos.has(worktree) || depth > MAX_DEPTH) return;
    const own = mode === 'baseline' && worktree === this.root;
    const exam = await examineRepository(worktree, this.show, { person: own });
    const accepted = new Set(mode === 'baseline' ? exam.programs.map((program) => program.id) : []);
    const repo: Repo = { via, exam, fingerprint: fingerprint(exam), accepted, depth, own };
    this.repos.set(worktree, repo);
    if (mode === 'new') await this.judge(worktree, repo, 'new', results);
    const current = this.repos.get(worktree);
    if (current) await this.adoptLinked(worktree, current, mode, results);
  }

  /** The repositories a repository's index links that have a `.git` and are not known yet. */
  private async adoptLinked(worktree: string, repo: Repo, mode: 'baseline' | 'new', results: QuarantinedRepository[]): Promise<void> {
    for (const link of repo.exam.gitlinks) {
      const child = path.join(worktree, ...link.split('/'));
      // Not through a link that leads out of the workspace (git does not follow one to a submodule either).
      if (this.repos.has(child) || !exists(path.join(child, '.git')) || !isInside(realPath(child), this.root)) continue;
      await this.adopt(child, 'gitlink', mode, repo.depth + 1, results);
    }
  }

  /** Takes away what a repository can run beyond what was accepted, and says so. */
  private async judge(worktree: string, repo: Repo, found: 'new' | 'changed', results: QuarantinedRepository[]): Promise<void> {
    // The person's own repository is theirs to configure; the fence keeps commands from its config and hooks.
    if (repo.own) return;
    const fresh = repo.exam.programs.filter((program) => !repo.accepted.has(program.id));
    if (fresh.length === 0) return;
    const gitDir = repo.exam.layout.gitDir ?? repo.exam.layout.dotGit;
    const outcome = await quarantineRepository({
      worktree,
      programs: fresh,
      accepted: repo.accepted,
      workspace: this.root,
      protectedDirs: this.protectedDirs,
      stamp: stamp(),
      show: this.show,
    });
    results.push({
      path: this.relative(worktree) || '.',
      gitDir: this.show(gitDir),
      found,
      programs: fresh.map((program) => program.shown),
      moved: outcome.moved.map(({ from, to }) => ({ from: this.show(from), to: this.show(to) })),
      rewritten: outcome.rewritten.map(this.show),
      ...(outcome.failed ? { failed: outcome.failed } : {}),
    });
    if (outcome.exam) {
      repo.exam = outcome.exam;
      repo.fingerprint = fingerprint(outcome.exam);
    } else {
      this.dropRepository(worktree, repo);
    }
  }

  /** A repository that is one no longer (its `.git` went, or Tether moved it aside): its folder is walked as any other. */
  private dropRepository(worktree: string, repo: Repo): void {
    this.repos.delete(worktree);
    if (repo.own) this.protectedDirs = [];
    if (worktree !== this.root && repo.via === 'tree' && this.folders.has(path.dirname(worktree))) this.unwalked.push(worktree);
  }

  /**
   * Reads a folder whose entries changed. A `.git` in it makes it a repository (its subfolders are
   * that repository's business); subfolders that appeared are collected to be checked and walked.
   * Returns whether a .gitignore appeared, went or changed.
   */
  private reread(dir: string, now: bigint, newRepos: string[], newFolders: string[]): boolean {
    const folder = this.folders.get(dir)!;
    const stat = lstat(dir);
    const entries = readdir(dir);
    if (!stat || !entries) {
      this.forget(dir, true);
      return false;
    }
    if (dir !== this.root && entries.some((entry) => entry.name === '.git')) {
      this.forget(dir, false);
      newRepos.push(dir);
      return false;
    }
    const gitignore = entries.some((entry) => entry.name === '.gitignore') ? signature(path.join(dir, '.gitignore')) : null;
    const ignoreRulesChanged = gitignore !== folder.gitignore;
    const children = subfolders(entries);
    for (const name of folder.children) if (!children.has(name)) this.forget(path.join(dir, name), true);
    for (const name of children) if (!folder.children.has(name)) newFolders.push(path.join(dir, name));
    this.folders.set(dir, { ino: stat.ino, ctime: stat.ctimeNs, racy: now - stat.ctimeNs < RACY_NS, children, gitignore });
    return ignoreRulesChanged;
  }

  /** Records `start` and every folder under it that is not ignored, stopping at repositories; returns the repositories' folders. */
  private walk(start: string, ignored: ReadonlySet<string>): string[] {
    const now = BigInt(Date.now()) * 1_000_000n;
    const repositories: string[] = [];
    const pending = [start];
    while (pending.length) {
      const dir = pending.pop()!;
      // Stat first: a change after it shows as a new ctime next time, even if this read missed it.
      const stat = lstat(dir);
      const entries = stat?.isDirectory() ? readdir(dir) : null;
      if (!stat || !entries) continue;
      if (dir !== this.root && entries.some((entry) => entry.name === '.git')) {
        repositories.push(dir);
        continue;
      }
      const children = subfolders(entries);
      const gitignore = entries.some((entry) => entry.name === '.gitignore') ? signature(path.join(dir, '.gitignore')) : null;
      this.folders.set(dir, { ino: stat.ino, ctime: stat.ctimeNs, racy: now - stat.ctimeNs < RACY_NS, children, gitignore });
      for (const name of children) {
        const child = path.join(dir, name);
        if (!this.isIgnored(child, ignored)) pending.push(child);
      }
    }
    return repositories;
  }

  /** Forgets a folder and what is under it; `repositories` too when it is gone (not when it became a repository). */
  private forget(dir: string, repositories: boolean): void {
    const prefix = dir + path.sep;
    for (const known of [...this.folders.keys()]) if (known === dir || known.startsWith(prefix)) this.folders.delete(known);
    if (!repositories) return;
    for (const known of [...this.repos.keys()]) if (known === dir || known.startsWith(prefix)) this.repos.delete(known);
  }

  /**
   * The folders the workspace's .gitignore files ignore, under `paths` (relative; all when empty), as
   * `dir/`, the highest of each. Asked of git through Tether's empty repository with the workspace as
   * its work tree: the workspace's own .git/info/exclude and the person's global excludes are left
   * out, so this ignores no more than their `git add -A` does.
   */
  private async ignoredIn(paths: string[]): Promise<Set<string>> {
    const { dir } = await probe('sha1');
    const run = await runGit(
      [
        '-c',
        `core.excludesFile=${path.join(dir, 'no-such-file')}`,
        'ls-files',
        '--others',
        '--ignored',
        '--exclude-standard',
        '--directory',
        '-z',
        '--',
        ...paths,
      ],
      { cwd: this.root, env: { ...probeEnv(dir), GIT_WORK_TREE: this.root }, okExitCodes: [128] },
    );
    const ignored = new Set<string>();
    if (run.exitCode !== 0) return ignored;
    for (const entry of run.stdout.toString('utf8').split('\0')) if (entry.endsWith('/')) ignored.add(entry);
    return ignored;
  }

  private isIgnored(dir: string, ignored: ReadonlySet<string>): boolean {
    if (ignored.size === 0) return false;
    let prefix = '';
    for (const segment of this.relative(dir).split('/')) {
      prefix += `${segment}/`;
      if (ignored.has(prefix)) return true;
    }
    return false;
  }

  private relative(absolute: string): string {
    return path.relative(this.root, absolute).split(path.sep).join('/');
  }

  /** Inside the workspace: relative with forward slashes; elsewhere: absolute. */
  private readonly show = (absolute: string): string => (isInside(absolute, this.root) ? this.relative(absolute) || '.' : absolute);
}

const watches = new Map<string, NestedRepositoryWatch>();

/** The watch of a workspace (its canonical root), one per process, shared by every session working there. */
export function nestedRepositoryWatch(root: string): NestedRepositoryWatch {
  let watch = watches.get(root);
  if (!watch) {
    watch = new NestedRepositoryWatch(root);
    watches.set(root, watch);
  }
  return watch;
}

function lstat(target: string): fs.BigIntStats | undefined {
  try {
    return fs.lstatSync(target, { bigint: true });
  } catch {
    return undefined;
  }
}

function readdir(dir: string): fs.Dirent[] | null {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
}

/** Subfolders, not links to folders (git does not follow them either), and never a `.git`. */
function subfolders(entries: fs.Dirent[]): Set<string> {
  return new Set(entries.filter((entry) => entry.isDirectory() && entry.name !== '.git').map((entry) => entry.name));
}

function realPath(target: string): string {
  try {
    return fs.realpathSync.native(target);
  } catch {
    return target;
  }
}

function exists(target: string): boolean {
  return lstat(target) !== undefined;
}

/** What changes whenever a file is replaced, written or chmod'ed: inode, change time, size. */
function signature(target: string): string {
  const stat = lstat(target);
  return stat ? `${stat.ino}:${stat.ctimeNs}:${stat.size}` : '-';
}

/**
 * What a repository's watched files are now. Its `.git` folder and git folder count by inode only:
 * their change time moves with every lock file git makes (and with the `commondir` Tether holds in
 * the workspace's own while a command runs), and what in them matters is watched file by file.
 */
function fingerprint(exam: Examination): string {
  const anchors = new Set([exam.layout.dotGit, exam.layout.gitDir]);
  return exam.watched
    .map((file) => {
      if (!anchors.has(file)) return signature(file);
      const stat = lstat(file);
      return stat?.isDirectory() ? `d:${stat.ino}` : signature(file);
    })
    .join('|');
}

/** `20261202T065615Z`: when something was moved aside, in its new name. */
function stamp(): string {
  return new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

import fs from 'node:fs';
import path from 'node:path';
import type { QuarantinedRepository } from '../../shared/events';
import { isInside } from './filePaths';
import { quarantineRepository, quarantineState } from './quarantineRepository';
import { examineRepository, looksLikeGitFolder, repositoryLayout, type Examination } from './repositoryMachinery';

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
 * Found anywhere in the workspace: in folders its .gitignore ignores too (`dist/`, `node_modules/`,
 * `.venv/`), where `git add -A` never looks but the person's own `git status` (or their prompt's)
 * runs as soon as they `cd` there, and inside other repositories' work trees. Finding them is cheap
 * when nothing changed: every folder is remembered with its inode and change time, and after a
 * command each is only stat'ed; a folder whose entries changed (its ctime moved, which no command
 * can set back) is read again, and a new subfolder is walked. Each known repository is stat'ed too:
 * its `.git`, config files, hooks, index and what its config includes. Repositories its index links
 * (gitlinks) are followed as well. Nothing ever runs git inside a repository of the workspace but
 * the person's own, and the look asks git nothing.
 */

interface Folder {
  ino: bigint;
  ctime: bigint;
  /** Changed so shortly before it was read that a change in the same clock tick could hide: read it again next time. */
  racy: boolean;
  /** Its subfolders' names (plain and repositories alike). */
  children: Set<string>;
}

interface Repo {
  /** Found in a folder the walk covers, or only through another repository's index. */
  via: 'tree' | 'gitlink';
  /** A bare repository: the folder is its git folder. */
  bare: boolean;
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

export class NestedRepositoryWatch {
  private readonly folders = new Map<string, Folder>();
  private readonly repos = new Map<string, Repo>();
  /** Folders found to be bare repositories (a HEAD, objects and refs in them), by the walk. */
  private readonly bareFolders = new Set<string>();
  /** The person's own git folders, as they were before the first command: never changed in place. */
  private protectedDirs: string[] = [];
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
    const found = this.walk(this.root);
    if (exists(path.join(this.root, '.git'))) found.unshift(this.root);
    const results: QuarantinedRepository[] = [];
    for (const worktree of found) await this.adopt(worktree, 'tree', 'baseline', 0, results);
    this.started = true;
  }

  private async scan(): Promise<QuarantinedRepository[]> {
    const results: QuarantinedRepository[] = [];
    const now = BigInt(Date.now()) * 1_000_000n;
    const changed: string[] = [];
    for (const [dir, folder] of [...this.folders]) {
      if (!this.folders.has(dir)) continue; // under a folder found gone just before
      const stat = lstat(dir);
      if (!stat?.isDirectory()) {
        this.forget(dir);
        continue;
      }
      if (stat.ino !== folder.ino || stat.ctimeNs !== folder.ctime || folder.racy) changed.push(dir);
    }

    const newRepos: string[] = [];
    for (const dir of changed.sort((a, b) => a.length - b.length)) {
      if (this.folders.has(dir)) this.reread(dir, now, newRepos);
    }
    if (!this.repos.has(this.root) && exists(path.join(this.root, '.git'))) newRepos.unshift(this.root);
    for (const worktree of newRepos) await this.adopt(worktree, 'tree', 'new', 0, results);

    for (const [worktree, repo] of [...this.repos]) {
      if (this.repos.get(worktree) !== repo) continue;
      if (fingerprint(repo.exam) !== repo.fingerprint) {
        const exam = await examineRepository(worktree, this.show, { person: repo.own, bare: repo.bare });
        const gone = repo.bare ? !looksLikeGitFolder(readdir(worktree) ?? []) : !exam.layout.gitDir && !exists(exam.layout.dotGit);
        if (gone) {
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
    return results;
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
    const bare = this.bareFolders.has(worktree);
    const exam = await examineRepository(worktree, this.show, { person: own, bare });
    const accepted = new Set(mode === 'baseline' ? exam.programs.map((program) => program.id) : []);
    const repo: Repo = { via, bare, exam, fingerprint: fingerprint(exam), accepted, depth, own };
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
    const fresh = repo.exam.programs.filter((program) => !repo.accepted.has(program.id));
    if (fresh.length === 0) return;
    const gitDir = repo.exam.layout.gitDir ?? repo.exam.layout.dotGit;
    // The person's own repository is theirs to configure (the fence keeps commands from its config and
    // hooks): only an operation a command left in progress there is taken out of reach.
    if (repo.own) {
      const outcome = { moved: [] as { from: string; to: string }[], rewritten: [] as string[] };
      quarantineState(fresh, stamp(), outcome);
      for (const program of fresh) repo.accepted.add(program.id);
      results.push({
        path: '.',
        gitDir: this.show(gitDir),
        found,
        programs: fresh.map((program) => program.shown),
        moved: outcome.moved.map(({ from, to }) => ({ from: this.show(from), to: this.show(to) })),
        rewritten: outcome.rewritten.map(this.show),
      });
      repo.exam = await examineRepository(worktree, this.show, { person: true });
      repo.fingerprint = fingerprint(repo.exam);
      return;
    }
    const outcome = await quarantineRepository({
      worktree,
      bare: repo.bare,
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

  /** A repository that is one no longer (its `.git` went, or Tether moved it aside); its folders stay watched. */
  private dropRepository(worktree: string, repo: Repo): void {
    this.repos.delete(worktree);
    this.bareFolders.delete(worktree);
    if (repo.own) this.protectedDirs = [];
  }

  /**
   * Reads a folder whose entries changed. A `.git` in it makes it a repository (still walked: a
   * repository in its ignored folders is found as any other); subfolders that appeared are walked.
   */
  private reread(dir: string, now: bigint, newRepos: string[]): void {
    const folder = this.folders.get(dir)!;
    const stat = lstat(dir);
    const entries = readdir(dir);
    if (!stat || !entries) {
      this.forget(dir);
      return;
    }
    if (dir !== this.root && !this.repos.has(dir) && this.holdsRepository(dir, entries)) newRepos.push(dir);
    const children = subfolders(entries);
    for (const name of folder.children) if (!children.has(name)) this.forget(path.join(dir, name));
    this.folders.set(dir, { ino: stat.ino, ctime: stat.ctimeNs, racy: now - stat.ctimeNs < RACY_NS, children });
    for (const name of children) if (!folder.children.has(name)) newRepos.push(...this.walk(path.join(dir, name)));
  }

  /** Records `start` and every folder under it; returns the folders that hold a `.git` (repositories), the root's own left out. */
  private walk(start: string): string[] {
    const now = BigInt(Date.now()) * 1_000_000n;
    const repositories: string[] = [];
    const pending = [start];
    while (pending.length) {
      const dir = pending.pop()!;
      // Stat first: a change after it shows as a new ctime next time, even if this read missed it.
      const stat = lstat(dir);
      const entries = stat?.isDirectory() ? readdir(dir) : null;
      if (!stat || !entries) continue;
      if (dir !== this.root && this.holdsRepository(dir, entries)) repositories.push(dir);
      const children = subfolders(entries);
      this.folders.set(dir, { ino: stat.ino, ctime: stat.ctimeNs, racy: now - stat.ctimeNs < RACY_NS, children });
      for (const name of children) pending.push(path.join(dir, name));
    }
    return repositories;
  }

  /** A `.git` in it, or it is a bare repository's git folder; notes which. */
  private holdsRepository(dir: string, entries: readonly fs.Dirent[]): boolean {
    if (entries.some((entry) => entry.name === '.git')) return true;
    if (!looksLikeGitFolder(entries)) return false;
    this.bareFolders.add(dir);
    return true;
  }

  /** Forgets a folder that went, with what is under it, repositories included. */
  private forget(dir: string): void {
    const prefix = dir + path.sep;
    for (const known of [...this.folders.keys()]) if (known === dir || known.startsWith(prefix)) this.folders.delete(known);
    for (const known of [...this.repos.keys()]) if (known === dir || known.startsWith(prefix)) this.repos.delete(known);
    for (const known of [...this.bareFolders]) if (known === dir || known.startsWith(prefix)) this.bareFolders.delete(known);
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

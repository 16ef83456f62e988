import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { GitError, GUARD_CONFIG, gitEnv, requireGit, runGit, type GitOptions, type GitRun } from './git';
import { canonicalPath, isInside } from './filePaths';
import { gitShell } from './gitShell';
import { treeOfLooseCommit, writeLooseCommit } from './looseObjects';
import { RefConflict, updateLooseRefs, type RefUpdate } from './looseRefs';

/**
 * A git repository kept outside the workspace (in Tether's data folder) that records what the
 * workspace's files were at chosen moments: the session's start, after each step. The live diff
 * compares two snapshots; checkpoints and rewind restore one.
 *
 * Every git call gets its own GIT_DIR, work tree and index file, no system or global config, no
 * hooks and a fixed identity, so the person's repository (its index, HEAD, refs, hooks and
 * config) is never read for settings nor written, whether or not the workspace is a repository.
 * A snapshot holds every file the workspace's .gitignore files do not exclude, except files over
 * the size limit, unreadable or special files, and nested git repositories (see `Snapshot.skipped`).
 */
export interface ShadowRepo {
  /** The workspace folder, canonical (realpath). */
  readonly workspace: string;
  /** The shadow repository's git folder. */
  readonly gitDir: string;
  /**
   * Records the workspace as it is now. When nothing changed since the repository's latest
   * snapshot, no commit is made: `changed` is false and `commit` is that snapshot. Snapshots form
   * one line of history (each one's parent is the one before, whichever session took it).
   */
  snapshot(label: string, options?: { ref?: string }): Promise<Snapshot>;
  /** Points refs/tether/<name> (e.g. `sessions/<id>/base`) at a snapshot commit. */
  ref(name: string, commit: string): Promise<void>;
  /** The commit refs/tether/<name> points at, or null when there is no such ref. */
  resolveRef(name: string): Promise<string | null>;
  /** The refs under refs/tether/<prefix>, with the names as given to `ref`, sorted by name. */
  listRefs(prefix?: string): Promise<{ name: string; commit: string }[]>;
  /** Removes refs/tether/<name>; nothing happens when it does not exist. */
  deleteRef(name: string): Promise<void>;
  /**
   * Makes the workspace's files exactly what snapshot `commit` recorded: contents, the executable
   * bit and symbolic links; files the snapshot lacks but the current state holds are deleted,
   * files it has are written back. Files no snapshot holds (ignored, too large) are left alone
   * unless the snapshot has a file at the same path. The state before is saved as a snapshot
   * first, so a restore can itself be undone.
   */
  restoreFiles(commit: string): Promise<Restore>;
  /** Runs git against this shadow repository (for reading it: diffs, blobs). */
  git(args: readonly string[], options?: { input?: string | Buffer; okExitCodes?: readonly number[] }): Promise<GitRun>;
}

export interface Snapshot {
  commit: string;
  tree: string;
  /** False when the tree equals the previous snapshot's, and no commit was made. */
  changed: boolean;
  /** Files the snapshot left out, and why; they are neither shown in diffs nor restored. */
  skipped: SkippedFile[];
}

export interface SkippedFile {
  /** Relative to the workspace, with forward slashes. */
  path: string;
  reason: 'too_large' | 'unreadable' | 'special_file' | 'nested_repository';
  /** Bytes, for a file that was too large. */
  size?: number;
}

export interface Restore {
  /** The snapshot of the workspace as it was just before the restore. */
  saved: Snapshot;
  /** The snapshot taken after the restore; its tree is the restored commit's tree. */
  restored: Snapshot;
}

export interface ShadowRepoOptions {
  workspace: string;
  /** Where the shadow repository lives, e.g. <dataDir>/shadow/<projectId>.git; created when missing. */
  gitDir: string;
  /** Files larger than this are left out of snapshots; 2 MB unless set. */
  maxFileBytes?: number;
}

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** --pathspec-file-nul, ls-files -t with -o -m, and update-index --stdin -z have all been there since. */
const MINIMUM_GIT: [number, number] = [2, 20];
const LATEST = 'refs/tether/latest';
/** From this many new or changed files on, their contents go into a pack first (see packBlobs). */
const BULK_FILES = 64;
const REF_ROOT = 'refs/tether/';
/** What every snapshot that finds changes runs: a shell beside the repository starts these (see gitShell.ts). */
const STATUS = ['status', '--porcelain=v2', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all'];
const UPDATE_INDEX = ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'];
const WRITE_TREE = ['write-tree'];
/** Author and committer of every snapshot (git's own calls get the same through the environment). */
const IDENTITY = 'Tether <tether@localhost>';

/**
 * Rules written into the shadow repository. `.git` anywhere is the person's repository (or a
 * nested one), never part of a snapshot. The attributes keep the bytes exact (no line-ending
 * conversion, filters or keyword expansion on the way in or out, whatever the workspace's
 * .gitattributes say) and let git decide what is binary by looking, not by the workspace's
 * `-diff` settings.
 */
const INFO_FILES: Record<string, string> = {
  // .tether/ is Tether's own (the project's permission rules, MCP servers): the agent may not write it,
  // and a rewind must never change a person's rules. The sandbox may also leave a mount point there.
  exclude: "# Written by Tether. The workspace's own git folder and Tether's settings are never snapshotted.\n.git\n/.tether\n",
  attributes:
    '# Written by Tether. Snapshots keep exact bytes; binary is decided by content.\n* -text -filter -ident !diff !working-tree-encoding !eol\n',
};

/** One queue per git folder: two snapshots on the same index at once would trip over its lock. */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(gitDir: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(gitDir) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(gitDir, settled);
  void settled.then(() => {
    if (queues.get(gitDir) === settled) queues.delete(gitDir);
  });
  return next;
}

/** Opens (creating when missing) the shadow repository for a workspace. */
export async function openShadowRepo(options: ShadowRepoOptions): Promise<ShadowRepo> {
  let workspace: string;
  try {
    workspace = fs.realpathSync.native(path.resolve(options.workspace));
  } catch (error) {
    throw new Error(`Cannot snapshot ${options.workspace}: ${(error as Error).message}. Open an existing folder.`);
  }
  if (!fs.statSync(workspace).isDirectory()) throw new Error(`Cannot snapshot ${options.workspace}: it is not a folder.`);
  const gitDir = path.resolve(options.gitDir);
  if (isInside(canonicalPath(gitDir), workspace)) {
    throw new Error(
      `The shadow repository ${gitDir} would be inside the workspace ${workspace}, where snapshots would record it and the person's repository could be touched; keep it in Tether's data folder.`,
    );
  }
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;

  const indexFile = path.join(gitDir, 'index');
  const env = isolatedEnv({ GIT_DIR: gitDir, GIT_WORK_TREE: workspace, GIT_INDEX_FILE: indexFile });
  const configArgs = isolatedConfig();
  const shell = gitShell({
    cwd: workspace,
    env,
    commands: [STATUS, UPDATE_INDEX, WRITE_TREE].map((args) => [...GUARD_CONFIG, ...configArgs, ...args]),
    parent: gitDir,
  });
  // git's version is asked alongside the first commands rather than before them (a process less on
  // the way to a session's first checkpoint); requireGit asks once per process. When a command fails,
  // a git too old or missing is what the person is told, not the command's own complaint.
  const git = async (args: readonly string[], extra: Pick<GitOptions, 'input' | 'okExitCodes'> = {}): Promise<GitRun> => {
    const checked = requireGit(MINIMUM_GIT);
    const run = runGit([...configArgs, ...args], { cwd: workspace, env, ...extra, ...(shell ? { shell } : {}) });
    // Settled below either way; a version check failing first must not leave the command's rejection unhandled.
    run.catch(() => undefined);
    try {
      return (await Promise.all([checked, run]))[1];
    } catch (error) {
      await checked;
      throw error;
    }
  };

  // Made from the template, without git, when one is there.
  await serialized(gitDir, () => initialize(gitDir));

  const text = (run: GitRun) => run.stdout.toString('utf8').trim();
  let known: { commit: string; tree: string } | null = null;

  async function snapshotNow(label: string, ref?: string): Promise<Snapshot> {
    const refName = ref === undefined ? undefined : fullRefName(ref);
    // status (HEAD is refs/tether/latest) both lists what differs and, unlike ls-files, saves the
    // stat data it refreshed, so files rewritten with the same bytes are not read again next time.
    const [status, { commit: latestCommit, tree: latestTree }] = await Promise.all([git(STATUS), latestSnapshot()]);
    const { candidates, indexDiffers } = parseStatus(status.stdout);
    const { updates, drops, skipped, ignoreRulesChanged, files } = sortChanges(candidates, workspace, maxFileBytes);
    if (latestCommit && latestTree && !indexDiffers && !updates.length && !drops.length) {
      if (refName) await moveRefs([{ name: refName, commit: latestCommit }]);
      return { commit: latestCommit, tree: latestTree, changed: false, skipped };
    }
    if (files.length >= BULK_FILES) await packBlobs(files);
    if (updates.length) await git(UPDATE_INDEX, { input: nulJoined(updates) });
    if (ignoreRulesChanged) {
      // A .gitignore changed: files it now ignores leave the snapshot, as they would never have entered it.
      drops.push(...splitNul((await git(['ls-files', '-z', '-c', '-i', '--exclude-standard'])).stdout));
    }
    if (drops.length) await git(['update-index', '--force-remove', '-z', '--stdin'], { input: nulJoined(drops) });

    const tree = text(await git(WRITE_TREE));
    if (latestCommit && latestTree === tree) {
      if (refName) await moveRefs([{ name: refName, commit: latestCommit }]);
      return { commit: latestCommit, tree, changed: false, skipped };
    }
    // The commit and the refs are written here rather than by commit-tree and update-ref: two git
    // processes fewer on every step that changes a file (see looseObjects.ts and looseRefs.ts).
    const commit = writeLooseCommit(gitDir, {
      tree,
      ...(latestCommit ? { parent: latestCommit } : {}),
      message: label.trim() || 'snapshot',
      identity: IDENTITY,
    });
    // The old value guards against another Tether process on the same folder moving `latest` meanwhile.
    await moveRefs([{ name: LATEST, commit, expected: latestCommit ?? null }, ...(refName ? [{ name: refName, commit }] : [])]);
    known = { commit, tree };
    return { commit, tree, changed: true, skipped };
  }

  /** Moves refs as loose files, or through git when the repository keeps them otherwise (packed, or a reftable). */
  async function moveRefs(updates: RefUpdate[]): Promise<void> {
    if (await updateLooseRefs(gitDir, updates)) return;
    const lines = updates.map(({ name, commit, expected }) =>
      expected === undefined
        ? `update ${name} ${commit}`
        : expected === null
          ? `create ${name} ${commit}`
          : `update ${name} ${commit} ${expected}`,
    );
    await git(['update-ref', '--stdin'], { input: `${lines.join('\n')}\n` });
  }

  /**
   * The latest snapshot's commit and tree. The tree of the commit this process made last is
   * remembered; the ref file says whether it is still the latest (another process may have moved
   * it), which saves a git call on every snapshot.
   */
  async function latestSnapshot(): Promise<{ commit?: string; tree?: string }> {
    let onDisk: string | undefined;
    try {
      onDisk = fs.readFileSync(path.join(gitDir, ...LATEST.split('/')), 'utf8').trim();
      if (known && onDisk === known.commit) return known;
    } catch {
      // No loose ref file (no snapshot yet, or packed by some other git): ask git, unless no ref can be there.
      if (!mayBePacked(LATEST)) return {};
    }
    // A commit another process (or an earlier run) made is read from its loose object; packed, git reads it.
    const looseTree = onDisk === undefined ? undefined : treeOfLooseCommit(gitDir, onDisk);
    if (onDisk !== undefined && looseTree !== undefined) {
      known = { commit: onDisk, tree: looseTree };
      return known;
    }
    const [commit, tree] = text(await git(['for-each-ref', '--format=%(objectname) %(tree)', LATEST])).split(' ');
    if (!commit || !tree) return {};
    known = { commit, tree };
    return known;
  }

  /**
   * Writes many new files' contents into one pack before update-index stores them: as loose
   * objects (one file each) a first snapshot of 10,000 files takes seconds, as a pack a fraction.
   * update-index then finds each object present and only hashes. A failure here costs nothing
   * but time: update-index writes whatever is missing.
   */
  async function packBlobs(files: Buffer[]): Promise<void> {
    async function* blobs() {
      for (const file of files) {
        let content: Buffer;
        try {
          content = fs.readFileSync(file);
        } catch {
          continue;
        }
        yield Buffer.concat([Buffer.from(`blob\ndata ${content.length}\n`), content, Buffer.from('\n')]);
      }
      yield Buffer.from('done\n');
    }
    await git(['fast-import', '--quiet', '--done'], { input: blobs() }).catch(() => undefined);
  }

  /**
   * Files that stand where the snapshot will write (too large or ignored, so not in the current
   * snapshot) are removed first, so git writes the snapshot's bytes rather than refusing: a file at
   * the path itself, or a file where the snapshot has a folder on the way to it.
   */
  async function clearUntrackedObstacles(current: string, target: string): Promise<void> {
    const incoming = splitNul(
      (await git(['diff-tree', '-r', '-z', '--no-renames', '--diff-filter=A', '--name-only', current, target])).stdout,
    );
    const obstacles = new Set<string>();
    for (const relative of incoming.map((item) => item.toString('utf8'))) {
      const parts = relative.split('/');
      for (let depth = 1; depth <= parts.length; depth++) {
        const prefix = parts.slice(0, depth).join('/');
        let stat: fs.Stats;
        try {
          stat = fs.lstatSync(path.join(workspace, prefix));
        } catch {
          break;
        }
        if (!stat.isDirectory()) {
          obstacles.add(prefix);
          break;
        }
      }
    }
    if (!obstacles.size) return;
    const tracked = new Set(
      splitNul((await git(['ls-tree', '-z', '--name-only', '--full-tree', current, '--', ...obstacles])).stdout).map((item) =>
        item.toString('utf8'),
      ),
    );
    for (const obstacle of obstacles) if (!tracked.has(obstacle)) fs.rmSync(path.join(workspace, obstacle), { force: true });
  }

  async function resolveCommit(revision: string): Promise<string | null> {
    if (!revision || revision.startsWith('-') || /[\s\0]/.test(revision)) return null;
    const run = await git(['rev-parse', '-q', '--verify', `${revision}^{commit}`], { okExitCodes: [1, 128] });
    return run.exitCode === 0 ? text(run) : null;
  }

  const repo: ShadowRepo = {
    workspace,
    gitDir,

    snapshot(label, snapshotOptions) {
      return serialized(gitDir, async () => {
        try {
          return await snapshotNow(label, snapshotOptions?.ref);
        } catch (error) {
          // Another process took a snapshot between our read of `latest` and our update: take ours again on top of it.
          if (
            error instanceof RefConflict ||
            (error instanceof GitError &&
              /cannot lock ref|reference already exists|is at [0-9a-f]+ but expected/i.test(error.details.stderr ?? ''))
          ) {
            return snapshotNow(label, snapshotOptions?.ref);
          }
          throw error;
        }
      });
    },

    async ref(name, commit) {
      const refName = fullRefName(name);
      const resolved = await resolveCommit(commit);
      if (!resolved)
        throw new Error(
          `Cannot point ${refName} at ${JSON.stringify(commit)}: the shadow repository ${gitDir} has no such snapshot; take a snapshot first.`,
        );
      await serialized(gitDir, () => git(['update-ref', refName, resolved]));
    },

    async resolveRef(name) {
      const refName = fullRefName(name);
      const loose = path.join(gitDir, ...refName.split('/'));
      // A loose ref's file holds the answer git would give (it overrides packed-refs): the diff asks for
      // a session's base on every request, and a git process to read 40 characters cost 20-40 ms.
      const held = looseRefCommit(loose);
      if (held) return held;
      // Most asks are for a ref not made yet (a new session's base): neither its file nor packed-refs has it.
      if (!fs.existsSync(loose) && !mayBePacked(refName)) return null;
      return resolveCommit(refName);
    },

    async listRefs(prefix = '') {
      const root = prefix ? `${fullRefName(prefix)}/` : REF_ROOT;
      const run = await git(['for-each-ref', '--format=%(refname)%00%(objectname)', root]);
      return run.stdout
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [refName = '', commit = ''] = line.split('\0');
          return { name: refName.slice(REF_ROOT.length), commit };
        })
        .filter((entry) => entry.name !== 'latest')
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async deleteRef(name) {
      const refName = fullRefName(name);
      await serialized(gitDir, () => git(['update-ref', '-d', refName]));
    },

    restoreFiles(commit) {
      return serialized(gitDir, async () => {
        const target = await resolveCommit(commit);
        if (!target) throw new Error(`Cannot restore ${JSON.stringify(commit)}: the shadow repository ${gitDir} has no such snapshot.`);
        const saved = await snapshotNow(`before restoring ${target.slice(0, 12)}`);
        await clearUntrackedObstacles(saved.commit, target);
        await git(['read-tree', '--reset', '-u', target]);
        const restored = await snapshotNow(`restored ${target.slice(0, 12)}`);
        const targetTree = text(await git(['rev-parse', `${target}^{tree}`]));
        if (restored.tree !== targetTree) {
          const differ = splitNul(
            (await git(['diff-tree', '-r', '-z', '--no-renames', '--name-only', target, restored.commit])).stdout,
          ).map(String);
          throw new Error(
            `Restoring ${target.slice(0, 12)} in ${workspace} left ${differ.length} file(s) different from the snapshot (${differ.slice(0, 5).join(', ')}${differ.length > 5 ? ', ...' : ''}); ` +
              'something else may be writing to the folder. Stop it and restore again; the state before is saved as snapshot ' +
              `${saved.commit.slice(0, 12)}.`,
          );
        }
        return { saved, restored };
      });
    },

    git(args, extra) {
      return git(args, extra);
    },
  };
  return repo;

  /** Whether packed-refs may hold `refName` (a ref git packed; a longer name sharing its start also answers yes, and git is asked). */
  function mayBePacked(refName: string): boolean {
    try {
      return fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8').includes(` ${refName}`);
    } catch {
      return false;
    }
  }

  async function initialize(dir: string): Promise<void> {
    if (!fs.existsSync(path.join(dir, 'HEAD'))) {
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      await copyTemplate(dir);
    }
    // HEAD follows the latest snapshot, so status compares the index with it.
    if (fs.readFileSync(path.join(dir, 'HEAD'), 'utf8').trim() !== `ref: ${LATEST}`) {
      await runGit(['symbolic-ref', 'HEAD', LATEST], { cwd: path.dirname(dir), env: isolatedEnv({ GIT_DIR: dir }) });
    }
    fs.mkdirSync(path.join(dir, 'info'), { recursive: true });
    for (const [name, content] of Object.entries(INFO_FILES)) {
      const file = path.join(dir, 'info', name);
      let current: string | null = null;
      try {
        current = fs.readFileSync(file, 'utf8');
      } catch {
        current = null;
      }
      if (current !== content) fs.writeFileSync(file, content);
    }
  }
}

/**
 * Makes the shadow repository `dir` as a copy of an empty one that git made once beside it
 * (`.template.git`: git init, HEAD on refs/tether/latest), rather than running git init and
 * symbolic-ref for every new project: two processes fewer before a new project's first checkpoint.
 * Being git's own init, on the same file system, it is what init would have made here (its config
 * records what git found of the file system). Copies are made aside and renamed into place, so a
 * second process never sees half of one. A folder already there without a repository in it (nothing
 * renames onto a full folder) gets git init in place, as before.
 */
async function copyTemplate(dir: string): Promise<void> {
  const template = path.join(path.dirname(dir), '.template.git');
  if (!fs.existsSync(path.join(template, 'HEAD'))) {
    const making = asideOf(template);
    try {
      await initBare(making);
      await runGit(['symbolic-ref', 'HEAD', LATEST], { cwd: path.dirname(dir), env: isolatedEnv({ GIT_DIR: making }) });
      putInPlace(making, template);
    } finally {
      fs.rmSync(making, { recursive: true, force: true });
    }
  }
  const making = asideOf(dir);
  try {
    copyFolder(template, making);
    putInPlace(making, dir);
  } finally {
    fs.rmSync(making, { recursive: true, force: true });
  }
  if (!fs.existsSync(path.join(dir, 'HEAD'))) await initBare(dir);
}

/**
 * Copies a folder of folders and plain files (an empty repository: a dozen entries). fs.cpSync did the
 * same in 5 ms, most of it loading and checking what a copy of links, modes and times would need.
 */
function copyFolder(from: string, to: string): void {
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyFolder(source, target);
    else if (entry.isFile()) fs.copyFileSync(source, target);
    else
      throw new Error(
        `The shadow repository template ${from} holds ${entry.name}, neither a file nor a folder; remove the template to have it made again.`,
      );
  }
}

/** git init of a bare repository: no work tree yet (git refuses one for --bare) and no template (no sample hooks, no description). */
async function initBare(dir: string): Promise<void> {
  await runGit(['init', '--quiet', '--bare', '--template=', dir], { cwd: path.dirname(dir), env: isolatedEnv({}) });
}

function asideOf(target: string): string {
  return `${target}.making-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Renames the finished `made` to `target`, unless a folder is there already (another process's, or one left without a repository). */
function putInPlace(made: string, target: string): void {
  try {
    fs.renameSync(made, target);
  } catch {
    // Not ours to replace; the caller looks at what is there.
  }
}

interface Candidate {
  /** Relative to the workspace, as git printed it. */
  path: Buffer;
  /** In the shadow index (changed or deleted), rather than new. */
  tracked: boolean;
}

/**
 * `status --porcelain=v2 -z`: "1 XY <6 fields> <path>" for a tracked path, "? <path>" for a new
 * one. X (index against the latest snapshot) only matters as "the index holds something not yet
 * committed"; Y (work tree against the index) and new paths are what to look at.
 */
function parseStatus(output: Buffer): { candidates: Candidate[]; indexDiffers: boolean } {
  const candidates: Candidate[] = [];
  let indexDiffers = false;
  for (const record of splitNul(output)) {
    const kind = record[0];
    if (kind === 0x3f /* ? */) {
      candidates.push({ path: record.subarray(2), tracked: false });
    } else if (kind === 0x31 /* 1 */) {
      let start = 0;
      for (let field = 0; field < 8; field++) start = record.indexOf(0x20, start) + 1;
      if (record[2] !== 0x2e /* . */) indexDiffers = true;
      if (record[3] !== 0x2e) candidates.push({ path: record.subarray(start), tracked: true });
    } else if (kind !== 0x23 /* # */) {
      // Renames and conflicts are switched off or cannot arise; anything else means "look closer".
      indexDiffers = true;
    }
  }
  return { candidates, indexDiffers };
}

/** What status listed, sorted into what to add or update, what to drop, and what to leave out. */
function sortChanges(candidates: Candidate[], workspace: string, maxFileBytes: number) {
  const updates: Buffer[] = [];
  const drops: Buffer[] = [];
  const skipped: SkippedFile[] = [];
  /** Absolute paths of the regular files among `updates`. */
  const files: Buffer[] = [];
  let ignoreRulesChanged = false;
  const workspacePrefix = Buffer.from(workspace + path.sep);
  for (const { path: listed, tracked } of candidates) {
    let relative = listed;
    const shown = () => relative.toString('utf8');
    if (relative[relative.length - 1] === 0x2f) {
      // git lists an untracked nested repository as its folder; its files belong to that repository.
      relative = relative.subarray(0, relative.length - 1);
      skipped.push({ path: shown(), reason: 'nested_repository' });
      continue;
    }
    const base = relative.subarray(relative.lastIndexOf(0x2f) + 1);
    if (base.toString('latin1') === '.gitignore') ignoreRulesChanged = true;
    // Buffers keep names that are not valid UTF-8 exactly as the file system has them.
    const absolute = Buffer.concat([workspacePrefix, path.sep === '/' ? relative : Buffer.from(shown().split('/').join(path.sep))]);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(absolute);
    } catch {
      // Gone: update-index --remove drops a tracked file; an untracked one that vanished needs nothing.
      if (tracked) updates.push(relative);
      continue;
    }
    let reason: SkippedFile['reason'] | null = null;
    if (stat.isFile()) {
      if (stat.size > maxFileBytes) reason = 'too_large';
      else {
        try {
          fs.accessSync(absolute, fs.constants.R_OK);
        } catch {
          reason = 'unreadable';
        }
      }
    } else if (stat.isDirectory()) {
      // A tracked file replaced by a folder: the folder's files arrive as untracked entries of their own.
      if (tracked) drops.push(relative);
      else skipped.push({ path: shown(), reason: 'nested_repository' });
      continue;
    } else if (!stat.isSymbolicLink()) {
      reason = 'special_file';
    }
    if (reason) {
      skipped.push({ path: shown(), reason, ...(reason === 'too_large' ? { size: stat.size } : {}) });
      if (tracked) drops.push(relative);
      continue;
    }
    updates.push(relative);
    if (stat.isFile()) files.push(absolute);
  }
  return { updates, drops, skipped, ignoreRulesChanged, files };
}

function splitNul(output: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let start = 0;
  for (let end = output.indexOf(0, start); end !== -1; end = output.indexOf(0, start)) {
    if (end > start) records.push(output.subarray(start, end));
    start = end + 1;
  }
  if (start < output.length) records.push(output.subarray(start));
  return records;
}

function nulJoined(paths: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const item of paths) parts.push(item, Buffer.from([0]));
  return Buffer.concat(parts);
}

/** The object a loose ref's file names, when it names one directly (not `ref: …`, not unreadable). */
function looseRefCommit(file: string): string | undefined {
  try {
    const held = fs.readFileSync(file, 'utf8').trim();
    return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(held) ? held : undefined;
  } catch {
    return undefined;
  }
}

/** `sessions/abc/base` (or `refs/tether/sessions/abc/base`) as a full ref name, refusing names that would leave refs/tether/. */
function fullRefName(name: string): string {
  const short = name.startsWith(REF_ROOT) ? name.slice(REF_ROOT.length) : name;
  const segment = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
  const valid = short
    .split('/')
    .every((part) => segment.test(part) && !part.endsWith('.lock') && !part.endsWith('.') && !part.includes('..'));
  if (!valid || short === 'latest') {
    throw new Error(
      `Cannot use ${JSON.stringify(name)} as a snapshot ref name: use segments of letters, digits, '_', '-' and '.' separated by '/' (e.g. "sessions/<id>/base")${short === 'latest' ? '; "latest" is reserved' : ''}.`,
    );
  }
  return REF_ROOT + short;
}

/** git's environment: nothing inherited from a GIT_* variable (a hook that launched Tether sets GIT_DIR and GIT_INDEX_FILE), no system or global config, a fixed identity. */
function isolatedEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...gitEnv(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_ATTR_NOSYSTEM: '1',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Tether',
    GIT_AUTHOR_EMAIL: 'tether@localhost',
    GIT_COMMITTER_NAME: 'Tether',
    GIT_COMMITTER_EMAIL: 'tether@localhost',
    // Messages in English: lock contention is recognised by its wording.
    LC_ALL: 'C',
    LANGUAGE: 'C',
    ...extra,
  };
}

/** Settings passed on every call, so neither the shadow repository's config nor an old git's reading of ~/.gitconfig can change them. */
function isolatedConfig(): string[] {
  const settings: Record<string, string> = {
    'core.bare': 'false',
    'core.hooksPath': os.devNull,
    'core.excludesFile': os.devNull,
    'core.attributesFile': os.devNull,
    'core.autocrlf': 'false',
    'core.safecrlf': 'false',
    'core.fsmonitor': 'false',
    'core.untrackedCache': 'false',
    'core.splitIndex': 'false',
    'core.sparseCheckout': 'false',
    'core.logAllRefUpdates': 'false',
    'core.quotePath': 'false',
    'gc.auto': '0',
    'maintenance.auto': 'false',
    'commit.gpgSign': 'false',
    'submodule.recurse': 'false',
    // The workspace may belong to another user (a shared folder); the shadow repository is Tether's own.
    'safe.directory': '*',
  };
  if (process.platform !== 'win32') {
    // Windows file systems have no executable bit or (without privileges) symlinks; git probes those at init.
    settings['core.fileMode'] = 'true';
    settings['core.symlinks'] = 'true';
  }
  return Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
}

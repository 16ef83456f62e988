import fs from 'node:fs';
import path from 'node:path';
import { isInside, pathExists } from '../workspace/filePaths';
import type { EffectiveFence } from './fence';
import { commonDirOf, gitFence, gitMakes } from './gitFence';
import type { GuardedFolder, ProtectedPath } from './protectedPaths';
import type { DarkHome } from './darkHome';
import type { LinuxFit, MacFit } from './runtimeCommand';
import { seatbeltDarkHome } from './seatbeltDarkHome';
import { seatbeltRules } from './seatbeltRules';
import type { UnusualWalk } from './unusualEntries';
import { findSecretFiles } from './secretFiles';

/**
 * A session's fence as the sandbox runtime is given it on each platform, and what Tether does around
 * the runtime's command: one mapping, read by the runtime (sandboxRuntime.ts) and by the Seatbelt
 * profile tests can generate on any machine (seatbeltProfile.ts).
 */
export interface LibraryFence {
  /** The fence with git's machinery as it is now (a submodule or a worktree may have appeared since the session began). */
  compiled: EffectiveFence;
  /** The runtime's filesystem settings. */
  filesystem: { denyRead: string[]; allowRead: string[]; allowWrite: string[]; denyWrite: string[] };
  /** Protected paths that do not exist, which bubblewrap cannot bind: watched while a command runs (Linux). */
  watched: ProtectedPath[];
  /** The git directories, where a command may leave only the names git's own work makes. */
  guarded: GuardedFolder[];
  /** The fence's folders under the real /tmp, bound again into the private one (Linux). */
  underTmp: string[];
  /** The places commands must see as they are: what they write and read, and git's common folders (the dark home leaves them lit). */
  roots: string[];
}

/** Variables that would send a connection around the proxy: inside, every connection goes through it and its question, loopback too. */
export const NOT_PROXIED = ['NO_PROXY', 'no_proxy'];

export function libraryFence(fence: EffectiveFence, platform: NodeJS.Platform): LibraryFence {
  const git = gitFence(fence.workspace);
  const gitDirs = new Set(git.gitDirs);
  // What was listed when the session began and is gone now is not protected any more: an empty
  // `rebase-merge` fenced because it was there once would stay git's business.
  const denyWrite = [
    ...new Set([...fence.denyWrite.filter((entry) => !gitDirs.has(path.dirname(entry)) || fs.existsSync(entry)), ...git.denyWrite]),
  ];
  const compiled: EffectiveFence = { ...fence, allowWrite: [...new Set([...fence.allowWrite, ...git.allowWrite])], denyWrite };
  const mac = platform === 'darwin';
  // Seatbelt denies a path that is not there by rule; bubblewrap can only mount on what exists.
  const bound = mac ? denyWrite : denyWrite.filter(pathExists);
  const watched = denyWrite.filter((entry) => !bound.includes(entry)).map((entry) => ({ path: entry, why: protectionOf(entry, fence) }));
  // On macOS the session's folder is TMPDIR itself; on Linux it is bound at /tmp.
  const own = mac ? [fence.caches, fence.privateTmp] : [fence.caches];
  const allowWrite = [...compiled.allowWrite, ...own];
  const allowRead = [...fence.allowRead, ...own];
  const roots = [...new Set([...allowWrite, ...allowRead, ...git.gitDirs.map(commonDirOf)])];
  return {
    compiled,
    filesystem: {
      denyRead: [...new Set([...fence.denyRead, ...findSecretFiles(fence.workspace, fence.denyReadNamed)])],
      allowRead,
      allowWrite,
      denyWrite: bound,
    },
    watched,
    guarded: gitFolderGuards(git.gitDirs),
    underTmp: underTmp(roots, platform),
    roots,
  };
}

/** Each git folder as a guarded one: only the names git's own work makes may appear, and no link. */
export function gitFolderGuards(gitDirs: readonly string[]): GuardedFolder[] {
  return gitDirs.map((folder) => ({ folder, keeps: gitMakes, why: GIT_NAME_MADE, unusual: GIT_UNUSUAL }));
}

const GIT_NAME_MADE = "git's machinery: a name git's own work does not make there, and your own git may read it";

/**
 * Where no link, FIFO, socket or device may be made in a git folder (unusualEntries.ts): everywhere a
 * command may write, that is every folder git's own work makes; the rest is bound read-only. `HEAD`
 * may be a link (git once made it one, and only reads it so); `config` is judged by its own guard
 * when a line may write it (gitConfigGuard.ts); `fsmonitor--daemon.ipc` is the socket of the person's
 * own git's monitor.
 */
const GIT_UNUSUAL: UnusualWalk = {
  walks: gitMakes,
  mayBe: (name) => name === 'HEAD' || name === 'config' || name === 'fsmonitor--daemon.ipc',
  why: "git's machinery: git makes no link, FIFO or socket there, and your own git would write through a link or wait on a FIFO",
};

/** What Tether does to the runtime's bubblewrap command (runtimeCommand.ts), for this fence. */
export function linuxFit(
  fence: EffectiveFence,
  mapped: LibraryFence,
  notWritable: readonly string[],
  options: { socket?: string; dark?: DarkHome; supervisor?: LinuxFit['supervisor'] } = {},
): LinuxFit {
  const { socket, dark, supervisor } = options;
  return {
    privateTmp: fence.privateTmp,
    rootsUnderTmp: mapped.underTmp,
    notWritable,
    setenv: { TMPDIR: '/tmp', ...(fence.darkHome ? { HOME: fence.darkHome.home } : {}) },
    unsetenv: NOT_PROXIED,
    ...(dark ? { darkHome: dark } : {}),
    ...(socket ? { socket } : {}),
    ...(supervisor ? { supervisor } : {}),
  };
}

/** What Tether does to the runtime's sandbox-exec command: its rules appended, TMPDIR the session's folder. */
export function macFit(fence: EffectiveFence, mapped: LibraryFence, notWritable: readonly string[], dark?: DarkHome): MacFit {
  return {
    rules: [seatbeltRules({ rootsUnderTmp: mapped.underTmp, notWritable }), ...(dark ? [seatbeltDarkHome(dark)] : [])].join('\n'),
    // git, npm and pip find the derived ~/.gitconfig, ~/.npmrc and pip.conf by name: Seatbelt cannot put them where they look.
    setenv: {
      TMPDIR: fence.privateTmp,
      ...(dark ? { GIT_CONFIG_GLOBAL: path.join(dark.derivedFolder, 'gitconfig') } : {}),
      ...(dark?.lit.some((place) => place.source === path.join(dark.derivedFolder, 'npmrc'))
        ? { NPM_CONFIG_USERCONFIG: path.join(dark.derivedFolder, 'npmrc') }
        : {}),
      ...(dark?.lit.some((place) => place.source === path.join(dark.derivedFolder, 'pip.conf'))
        ? { PIP_CONFIG_FILE: path.join(dark.derivedFolder, 'pip.conf') }
        : {}),
    },
    unsetenv: NOT_PROXIED,
  };
}

/** What the fence hit says a missing protected path is. */
function protectionOf(entry: string, fence: EffectiveFence): string {
  if (entry === path.join(fence.workspace, '.tether')) return "Tether's project settings: its rules, hooks and MCP servers";
  if (path.dirname(entry) === fence.workspace && path.basename(entry) !== '.git') return 'a file your own tools run by themselves';
  return "git's machinery, which your own git reads to decide what to run and where to send your work";
}

/**
 * The fence's roots that lie under the real /tmp (a workspace there, its git common folder, a test's
 * data folder): inside the sandbox /tmp is the session's own, so on Linux they are bound into it
 * again, and on macOS the rule that darkens /tmp leaves them out. On macOS /tmp is a link to
 * /private/tmp, which is how a canonical path spells it.
 */
export function underTmp(roots: readonly string[], platform: NodeJS.Platform): string[] {
  const tmp = platform === 'darwin' ? ['/tmp', '/private/tmp'] : ['/tmp'];
  return [...new Set(roots.filter((root) => tmp.some((folder) => isInside(root, folder) && root !== folder)))];
}

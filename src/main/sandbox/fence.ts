import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxFence } from '../../shared/sandbox';
import { isInside } from '../workspace/filePaths';
import { HOME_CREDENTIAL_STORES, WORKSPACE_SECRET_FILES } from '../workspace/secretPlaces';
import { gitFence } from './gitFence';
import { PACKAGE_REGISTRY_DOMAINS } from './packageRegistries';
import { processFolder } from './processFolders';
import { quarantineDir } from './protectedPaths';
import { projectCachesDir } from './toolchainCaches';

/**
 * The fence one session's commands run inside, in absolute paths: the built-in one (writes only in
 * the workspace, the session's private /tmp and the project's toolchain caches, never git's machinery
 * or .tether; secrets unreadable; no network) plus what the person added for the project. The
 * repository never widens its own fence: nothing here is read from the workspace.
 */
export interface EffectiveFence {
  workspace: string;
  /** The host folder the session's commands see at /tmp (sessionTemp.ts). */
  privateTmp: string;
  /** The project's toolchain caches (toolchainCaches.ts), writable. */
  caches: string;
  /** Where protected paths a command made are moved to (protectedPaths.ts). */
  quarantine: string;
  /** Where each profile's execute-only apply-seccomp is kept (unreadableSupervisor.ts), out of every command's reach: this process's folder (processFolders.ts). */
  supervisors: string;
  allowWrite: string[];
  denyWrite: string[];
  denyRead: string[];
  /** File-name globs denied at any depth of the workspace (`.env*`); the runtime finds the files. */
  denyReadNamed: string[];
  /** Re-allowed inside a denied region: the workspace, when it lies inside one (a worktree in the data folder). */
  allowRead: string[];
  allowedDomains: string[];
  /** The person's home folder, dark inside the fence but for what is lit (darkHome.ts); always set by effectiveFence. */
  darkHome?: {
    home: string;
    /** What the person lit in it for the project (Settings → Sandbox). */
    lit: string[];
    /** Tether's folder for the derived ~/.gitconfig (derivedGitConfig.ts), out of every command's reach: this process's folder (processFolders.ts). */
    derivedGit: string;
  };
}

export interface FenceInput {
  /** Canonical (realpath) workspace root. */
  workspace: string;
  /** Tether's own data folder: the database and settings are secrets too. */
  dataDir: string;
  home?: string;
  custom?: SandboxFence;
  /** The session's private /tmp; by default a folder of the data folder's that no session owns. */
  privateTmp?: string;
  /** The project the caches belong to (a worktree session's is its project's); by default the workspace. */
  projectPath?: string;
  /** Hosts allowed for this run only (`tether run --allow-host`), besides the project's. */
  runHosts?: readonly string[];
}

/**
 * `.env*` files at the top of the workspace and two folders down, as globs: they are looked at again
 * before every command (a new one there makes the profile stale), so a bounded depth keeps that
 * cheap. Deeper ones are found once per profile (`denyReadNamed`, expanded by the runtime).
 */
const ENV_FILE_GLOBS = WORKSPACE_SECRET_FILES.flatMap((name) => [name, `*/${name}`, `*/*/${name}`]);

export function builtInFence(
  input: Pick<FenceInput, 'workspace' | 'dataDir' | 'home'>,
): Pick<EffectiveFence, 'workspace' | 'allowWrite' | 'denyWrite' | 'denyRead'> {
  const home = input.home ?? os.homedir();
  const ws = input.workspace;
  // Git's machinery as it is now; the runtime lists it again whenever it compiles a profile (gitFence.ts).
  const git = gitFence(ws);
  return {
    workspace: ws,
    allowWrite: [ws, ...git.allowWrite],
    denyWrite: [...git.denyWrite, path.join(ws, '.tether')],
    denyRead: [
      ...HOME_CREDENTIAL_STORES.map((name) => path.join(home, name)),
      ...ENV_FILE_GLOBS.map((glob) => path.join(ws, glob)),
      path.resolve(input.dataDir),
    ],
  };
}

export function effectiveFence(input: FenceInput): EffectiveFence {
  const base = builtInFence(input);
  const caches = projectCachesDir(input.dataDir, input.projectPath ?? input.workspace);
  const home = input.home ?? os.homedir();
  const custom = input.custom;
  const expand = (entry: string): string => expandHome(entry, home, input.workspace);
  const denyRead = [...base.denyRead, ...(custom?.denyRead ?? []).map(expand)];
  const inDenied = denyRead.some((denied) => !denied.includes('*') && isInside(input.workspace, denied));
  return {
    workspace: input.workspace,
    privateTmp: input.privateTmp ?? path.join(input.dataDir, 'sandbox', 'tmp', 'unowned'),
    caches,
    quarantine: quarantineDir(input.dataDir),
    supervisors: processFolder(supervisorsRoot(input.dataDir)),
    allowWrite: unique([...base.allowWrite, ...(custom?.allowWrite ?? []).map(expand)]),
    denyWrite: unique([...base.denyWrite, ...(custom?.denyWrite ?? []).map(expand)]),
    denyRead: unique(denyRead),
    denyReadNamed: [...WORKSPACE_SECRET_FILES],
    allowRead: inDenied ? [input.workspace] : [],
    allowedDomains: unique([
      ...(custom?.allowedDomains ?? []),
      ...(custom?.packageRegistries ? PACKAGE_REGISTRY_DOMAINS : []),
      ...(input.runHosts ?? []),
    ]),
    darkHome: { home, lit: [...(custom?.litHome ?? [])], derivedGit: processFolder(derivedGitRoot(input.dataDir)) },
  };
}

/** Where every process keeps its profiles' execute-only supervisors, each in a folder of its own. */
export function supervisorsRoot(dataDir: string): string {
  return path.join(dataDir, 'sandbox', 'supervisor');
}

/** Where every process keeps its profiles' derived ~/.gitconfig and the like, each in a folder of its own. */
export function derivedGitRoot(dataDir: string): string {
  return path.join(dataDir, 'sandbox', 'git');
}

/** `~/x` is under the home folder; a relative path is taken from the workspace root. */
export function expandHome(entry: string, home: string, workspace: string): string {
  if (entry === '~') return home;
  if (entry.startsWith('~/')) return path.join(home, entry.slice(2));
  return path.resolve(workspace, entry);
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

/**
 * Removes what older versions of the fence could leave in the workspace when the process running a
 * command was killed: the empty read-only files bubblewrap made as placeholders at protected paths
 * that did not exist (`.tether`, whose placeholder kept `.tether/settings.json` from being read at
 * all; the library's dotfiles in the folder Tether started from), and the `.git/commondir` saying "."
 * Tether held while a command ran. The fence makes neither any more.
 */
export function removeFenceLeftovers(workspace: string): void {
  const dotfiles = ['.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.ripgreprc', '.mcp.json'];
  const git = ['hooks', 'config', 'info', 'config.worktree'].map((name) => path.join(workspace, '.git', name));
  for (const target of [path.join(workspace, '.tether'), ...git, ...dotfiles.map((name) => path.join(workspace, name))]) {
    try {
      const stat = fs.lstatSync(target);
      if (stat.isFile() && stat.size === 0 && (stat.mode & 0o222) === 0) fs.unlinkSync(target);
    } catch {
      // Not there: nothing was left.
    }
  }
  const commondir = path.join(workspace, '.git', 'commondir');
  try {
    const stat = fs.lstatSync(commondir);
    if (stat.isFile() && (stat.mode & 0o222) === 0 && fs.readFileSync(commondir, 'utf8') === '.\n') fs.unlinkSync(commondir);
  } catch {
    // Not there, or not one Tether wrote.
  }
}

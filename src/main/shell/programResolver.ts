import fs from 'node:fs';
import path from 'node:path';
import { canonicalPath, isInside, SymlinkLoopError } from '../workspace/filePaths';

/**
 * Where a program name will be found when the command runs, as far as read-only trust goes:
 *   builtin:   bash runs its own builtin, whatever PATH holds;
 *   system:    a file outside the workspace, found through PATH or named by an absolute path in a
 *              system directory (or a PATH directory);
 *   workspace: a file inside the workspace (project code: never read-only);
 *   untrusted: a path relative to where the command runs (./ls, bin/ls), an absolute path elsewhere,
 *              a PATH with a relative entry, or a name a workspace folder earlier on PATH could shadow;
 *   missing:   found nowhere (the command fails; nothing to trust).
 */
export type ProgramLocation =
  | { kind: 'builtin' }
  | { kind: 'system'; path: string }
  | { kind: 'workspace'; path: string }
  | { kind: 'untrusted'; why: string }
  | { kind: 'missing' };

export interface ProgramResolver {
  /** Where `name` resolves; `viaExec` for programs started by a wrapper (timeout, env, ...), where no builtin applies. */
  resolve(name: string, viaExec: boolean): ProgramLocation;
  /** The workspace root, canonical. */
  readonly workspaceRoot: string;
  /** Whether an absolute path is inside the workspace (after resolving symbolic links). */
  isInsideWorkspace(absolutePath: string): boolean;
}

const BASH_BUILTINS = new Set([
  ':',
  '.',
  '[',
  'alias',
  'bg',
  'bind',
  'break',
  'builtin',
  'caller',
  'cd',
  'command',
  'compgen',
  'complete',
  'compopt',
  'continue',
  'declare',
  'dirs',
  'disown',
  'echo',
  'enable',
  'eval',
  'exec',
  'exit',
  'export',
  'false',
  'fc',
  'fg',
  'getopts',
  'hash',
  'help',
  'history',
  'jobs',
  'kill',
  'let',
  'local',
  'logout',
  'mapfile',
  'popd',
  'printf',
  'pushd',
  'pwd',
  'read',
  'readarray',
  'readonly',
  'return',
  'set',
  'shift',
  'shopt',
  'source',
  'suspend',
  'test',
  'times',
  'trap',
  'true',
  'type',
  'typeset',
  'ulimit',
  'umask',
  'unalias',
  'unset',
  'wait',
]);

/** Where systems keep their own programs; an absolute path elsewhere (and off PATH) is not trusted. */
const SYSTEM_DIRECTORIES = [
  '/bin',
  '/sbin',
  '/usr/bin',
  '/usr/sbin',
  '/usr/local/bin',
  '/usr/local/sbin',
  '/usr/libexec',
  '/opt/homebrew/bin',
  '/opt/homebrew/sbin',
  '/opt/local/bin',
  '/snap/bin',
  '/run/current-system/sw/bin',
  '/home/linuxbrew/.linuxbrew/bin',
  '/nix/var/nix/profiles/default/bin',
];

export function isBashBuiltin(name: string): boolean {
  return BASH_BUILTINS.has(name);
}

/**
 * Resolvers are kept for a moment and shared between analyses, so the dialog's explain does not stat
 * every PATH folder again for each command. This cannot hide a program planted in the workspace: a
 * workspace folder on PATH already makes every name it could shadow untrusted, found or not, and
 * system folders do not change under a running session.
 */
const RESOLVER_REUSE_MS = 1000;
const recentResolvers = new Map<string, { madeAt: number; resolver: ProgramResolver }>();

/** A resolver for the workspace and PATH: it caches lookups, so the file system is asked once per name. */
export function createProgramResolver(workspaceRoot: string, pathEnv: string): ProgramResolver {
  const key = `${workspaceRoot}\0${pathEnv}`;
  const now = Date.now();
  const recent = recentResolvers.get(key);
  if (recent && now - recent.madeAt < RESOLVER_REUSE_MS) return recent.resolver;
  const resolver = buildProgramResolver(workspaceRoot, pathEnv);
  recentResolvers.set(key, { madeAt: now, resolver });
  if (recentResolvers.size > 16) recentResolvers.delete(recentResolvers.keys().next().value as string);
  return resolver;
}

function buildProgramResolver(workspaceRoot: string, pathEnv: string): ProgramResolver {
  const root = canonical(workspaceRoot);
  const cache = new Map<string, ProgramLocation>();
  const isInsideWorkspace = (absolutePath: string): boolean => isInside(canonical(absolutePath), root);
  let pathDirectories: { dir: string; inWorkspace: boolean; relative: boolean }[] | null = null;
  const directories = (): { dir: string; inWorkspace: boolean; relative: boolean }[] => {
    pathDirectories ??= pathEnv.split(':').map((dir) => {
      const relative = dir === '' || !path.isAbsolute(dir);
      return { dir, relative, inWorkspace: !relative && isInsideWorkspace(dir) };
    });
    return pathDirectories;
  };

  const lookUp = (name: string, viaExec: boolean): ProgramLocation => {
    if (!viaExec && BASH_BUILTINS.has(name)) return { kind: 'builtin' };
    if (name.includes('\0')) return { kind: 'untrusted', why: 'the name holds a NUL' };
    if (name.includes('/')) {
      if (!path.isAbsolute(name)) return { kind: 'untrusted', why: 'a path relative to where the command runs' };
      const real = canonical(name);
      if (isInside(real, root)) return { kind: 'workspace', path: real };
      const dir = path.dirname(real);
      const trusted =
        SYSTEM_DIRECTORIES.some((system) => dir === system || isInside(dir, canonical(system))) ||
        directories().some((entry) => !entry.relative && !entry.inWorkspace && canonical(entry.dir) === dir);
      return trusted ? { kind: 'system', path: real } : { kind: 'untrusted', why: `${real} is not in a system directory` };
    }
    let shadowable = false;
    for (const entry of directories()) {
      // bash searches a relative entry from wherever the command runs, which a `cd` may change.
      if (entry.relative) return { kind: 'untrusted', why: `PATH holds the relative entry "${entry.dir}"` };
      const candidate = path.join(entry.dir, name);
      if (!isExecutableFile(candidate)) {
        if (entry.inWorkspace) shadowable = true;
        continue;
      }
      const real = canonical(candidate);
      if (entry.inWorkspace || isInside(real, root)) return { kind: 'workspace', path: real };
      // A workspace folder earlier on PATH: any command that writes there first would take over the name.
      if (shadowable) return { kind: 'untrusted', why: `a workspace folder on PATH comes before ${entry.dir}` };
      return { kind: 'system', path: real };
    }
    return { kind: 'missing' };
  };

  return {
    workspaceRoot: root,
    isInsideWorkspace,
    resolve(name: string, viaExec: boolean): ProgramLocation {
      const key = `${viaExec ? 'x' : 'b'}:${name}`;
      let location = cache.get(key);
      if (!location) {
        location = lookUp(name, viaExec);
        cache.set(key, location);
      }
      return location;
    },
  };
}

function isExecutableFile(file: string): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.isFile() && (stat.mode & 0o111) !== 0;
}

/** Where a path leads (its symbolic links cannot hide it); one whose links loop is kept as written, and leads to no program. */
function canonical(target: string): string {
  try {
    return canonicalPath(path.resolve(target));
  } catch (error) {
    if (error instanceof SymlinkLoopError) return path.resolve(target);
    throw error;
  }
}

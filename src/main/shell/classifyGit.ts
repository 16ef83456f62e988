import { gitOptionKnown } from './gitReadOptions';
import { couldBeLongOption } from './scanOptions';

/**
 * What a git invocation does, from its literal arguments: whether it only reads the repository,
 * and whether it stays on this machine.
 *
 * Read-only git is deliberately kept (newer Codex dropped git from its list because repository
 * configuration can start pagers, fsmonitor hooks and diff drivers): here commands run in the
 * sandbox, writes into .git/ ask, GIT_* variables make a line unpinnable, and every global option
 * that loads other configuration or starts a program (-c, --config-env, --exec-path, --git-dir,
 * --work-tree, -p) is refused, as is a repository outside the workspace (-C elsewhere, cd elsewhere)
 * and any repository inside it but the workspace's own (gitRepositoryIsOwn). Every git a command
 * runs also gets core.fsmonitor=false and safe.bareRepository=explicit (workspace/gitGuard.ts).
 *
 * "Local" is stricter than "does not fetch": git runs repository hooks (pre-commit, post-checkout,
 * reference-transaction, post-index-change ...) for almost every subcommand that writes, and hooks
 * are project code (husky installs them from the repository), which may do anything. So only the
 * reading subcommands and a few writers that run no hook count as local, and none in a partial
 * clone, where reading an object the repository lacks fetches it from its promisor remote.
 */
export interface GitClassification {
  readOnly: boolean;
  /** Cannot reach the network, and runs no repository hook (which could). */
  local: boolean;
  /** Why a reading subcommand is not read-only: an option the table of git's reading options does not know. */
  why?: string;
}

export interface GitContext {
  /** The directory git would run in is known to be inside the workspace. */
  cwdInWorkspace: boolean;
  /** Whether `-C dir` stays inside the workspace (relative to where the command runs). */
  directoryInWorkspace(dir: string): boolean;
  /**
   * Whether git run in `dir` (relative to where the command runs; `.` for there) finds the
   * workspace's own repository rather than another one inside it: a bare repository committed in
   * the project, a nested repository or submodule, a git directory itself. Another repository brings
   * its own config, and the programs it names (findsWorkspaceRepository in gitRepositoryAt.ts).
   * Absent where nothing can tell (a test's context): taken as yes.
   */
  gitRepositoryIsOwn?(dir: string): boolean;
  /**
   * Whether the workspace's repository is a partial clone, whose reads fetch missing objects from a
   * promisor remote (workspaceRepositoryFetchesLazily in gitRepositoryAt.ts). Absent: taken as no.
   */
  fetchesLazily?(): boolean;
}

/** Global options that change nothing about what git runs or which configuration it reads. */
const HARMLESS_GLOBAL_FLAGS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--no-advice',
  '--no-lazy-fetch',
]);

/** Global options that take the next argument as their value. */
const GLOBAL_WITH_VALUE = new Set([
  '-c',
  '--config-env',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--super-prefix',
  '--list-cmds',
  '--attr-source',
]);

/** Where git's subcommand is among its arguments: after the global options and their values (args.length when there is none). */
export function gitSubcommandIndex(args: readonly string[]): number {
  let index = 0;
  while (index < args.length && args[index]!.startsWith('-')) index += args[index] === '-C' || GLOBAL_WITH_VALUE.has(args[index]!) ? 2 : 1;
  return index;
}

/** Flags that make a reading subcommand write a file or start a configured program. */
const UNSAFE_LONG_FLAGS = ['output', 'ext-diff', 'textconv', 'exec', 'paginate', 'open-files-in-pager', 'filters', 'batch-command'];

/** Short options that take an attached value, per subcommand: in `git grep -eo` the pattern is "o". */
const SHORT_WITH_VALUE: Record<string, string> = { grep: 'efABCm', log: 'nSGLOUMCBl', show: 'nSGLOUMCBl', diff: 'SGLOUMCBl' };

/** Subcommands that write but run no hook and reach no other machine. */
const LOCAL_WRITERS = new Set([
  'init',
  'config',
  'var',
  'version',
  'hash-object',
  'mktree',
  'format-patch',
  'check-ignore',
  'check-attr',
  'clean',
  'count-objects',
  'fsck',
  'prune',
  'repack',
]);

export function classifyGit(args: readonly string[], context: GitContext): GitClassification {
  let index = 0;
  // Where git runs: each -C is taken from the one before (`-C a -C ..` is where the command runs).
  let directory: string | undefined;
  let globalsSafe = true;
  let lazyFetch = true;
  while (index < args.length) {
    const arg = args[index]!;
    if (!arg.startsWith('-')) break;
    if (arg === '--no-lazy-fetch') lazyFetch = false;
    if (arg === '-C' || (arg.startsWith('-C') && arg.length > 2)) {
      const dir = arg === '-C' ? args[index + 1] : arg.slice(2);
      if (dir === undefined) return { readOnly: false, local: true };
      // `-C ""` leaves git where it is.
      if (dir !== '') directory = directory === undefined || dir.startsWith('/') ? dir : `${directory}/${dir}`;
      index += arg === '-C' ? 2 : 1;
      continue;
    }
    if (!HARMLESS_GLOBAL_FLAGS.has(arg)) globalsSafe = false;
    index += GLOBAL_WITH_VALUE.has(arg) ? 2 : 1;
  }
  const directoryOk =
    context.cwdInWorkspace &&
    (directory === undefined || context.directoryInWorkspace(directory)) &&
    (context.gitRepositoryIsOwn?.(directory ?? '.') ?? true);
  const subcommand = args[index];
  if (subcommand === undefined) return { readOnly: false, local: globalsSafe };
  const rest = args.slice(index + 1);
  if (!globalsSafe) return { readOnly: false, local: false };
  if (rest.some((arg) => isUnsafeFlag(subcommand, arg))) return { readOnly: false, local: false };
  const unknown = unknownOption(subcommand, rest);
  const readOnly = directoryOk && unknown === undefined && subcommandReadsOnly(subcommand, rest);
  const wouldBeLocal = readOnly || (directoryOk && writesLocally(subcommand, rest));
  // In a partial clone, reading an object it lacks fetches it: reading is then reaching the network.
  // Its config is read only where that decides.
  const local = wouldBeLocal && !(lazyFetch && context.fetchesLazily?.() === true);
  return {
    readOnly,
    local,
    ...(unknown ? { why: `git ${subcommand}'s ${unknown} is not an option git documents for it (gitReadOptions.ts)` } : {}),
  };
}

/**
 * The first option of a reading subcommand that git does not document for it (gitReadOptions.ts),
 * before `--`. For stash, worktree and reflog, the options after their reading word (list, show).
 */
function unknownOption(subcommand: string, args: readonly string[]): string | undefined {
  const words = ['stash', 'worktree', 'reflog'].includes(subcommand) && /^(list|show)$/.test(args[0] ?? '') ? args.slice(1) : args;
  for (const arg of words) {
    if (arg === '--') return undefined;
    if (!arg.startsWith('-') || arg === '-') continue;
    if (gitOptionKnown(subcommand, arg) === false) return arg;
  }
  return undefined;
}

function isUnsafeFlag(subcommand: string, arg: string): boolean {
  if (UNSAFE_LONG_FLAGS.some((name) => couldBeLongOption(arg, name))) return true;
  if (!/^-[^-]/.test(arg)) return false;
  const withValue = SHORT_WITH_VALUE[subcommand] ?? '';
  for (const letter of arg.slice(1)) {
    // -o is --output's spelling in the policy's rules; grep's -O opens the matches in a pager.
    if (letter === 'o' || (letter === 'O' && subcommand === 'grep')) return true;
    if (withValue.includes(letter)) return false;
  }
  return false;
}

function subcommandReadsOnly(subcommand: string, args: readonly string[]): boolean {
  switch (subcommand) {
    case 'status':
    case 'diff':
    case 'log':
    case 'show':
    case 'rev-parse':
    case 'ls-files':
    case 'ls-tree':
    case 'blame':
    case 'grep':
    case 'describe':
    case 'rev-list':
    case 'merge-base':
    case 'shortlog':
    case 'show-ref':
    case 'for-each-ref':
    case 'count-objects':
    case 'check-ignore':
    case 'name-rev':
    case 'cat-file':
      return true;
    case 'branch':
      return branchOnlyLists(args);
    case 'tag':
      return (
        args.length === 0 ||
        ((args.includes('-l') || args.includes('--list')) &&
          args.every((arg) => arg === '-l' || arg === '--list' || /^-n\d*$/.test(arg) || arg.startsWith('--sort=') || !arg.startsWith('-')))
      );
    case 'remote':
      return args.length === 0 || (args.length === 1 && (args[0] === '-v' || args[0] === '--verbose')) || args[0] === 'get-url';
    case 'stash':
    case 'worktree':
      return args[0] === 'list';
    case 'reflog':
      return args.length === 0 || args[0] === 'show';
    case 'config': {
      const queries = ['--get', '--get-all', '--get-regexp', '--list', '-l'];
      const modifiers = ['--show-origin', '--show-scope', '--local', '--global', '--system', '--name-only', '-z', '--null'];
      return (
        args.some((arg) => queries.includes(arg)) &&
        args.every((arg) => queries.includes(arg) || modifiers.includes(arg) || !arg.startsWith('-'))
      );
    }
    default:
      return false;
  }
}

/** `git branch` that lists (or shows the current branch), never one that creates, moves or deletes. */
function branchOnlyLists(args: readonly string[]): boolean {
  const listingFlags = new Set([
    '--list',
    '-l',
    '--show-current',
    '-a',
    '--all',
    '-r',
    '--remotes',
    '-v',
    '-vv',
    '--verbose',
    '-i',
    '--ignore-case',
    '--no-color',
    '--color',
    '--column',
    '--no-column',
    '--omit-empty',
    '--no-abbrev',
  ]);
  // Filters put git branch in listing mode; the commit they take is optional, the others' value is not.
  const optionalCommit = new Set(['--contains', '--no-contains', '--merged', '--no-merged']);
  const requiredValue = new Set(['--points-at', '--sort', '--format']);
  let listingMode = args.length === 0;
  let explicitList = false;
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.split('=', 1)[0]!;
    if (listingFlags.has(arg)) {
      listingMode = true;
      if (arg === '--list' || arg === '-l') explicitList = true;
    } else if (optionalCommit.has(name) || requiredValue.has(name)) {
      listingMode = true;
      explicitList = true;
      if (!arg.includes('=') && (requiredValue.has(name) || (args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')))) i++;
    } else if (arg.startsWith('--abbrev') || arg.startsWith('--color=')) {
      continue;
    } else if (arg.startsWith('-')) {
      return false;
    } else {
      positionals++;
    }
  }
  // Without --list (or a filter), `git branch name` creates a branch.
  return listingMode && (positionals === 0 || explicitList);
}

function writesLocally(subcommand: string, args: readonly string[]): boolean {
  if (subcommand === 'remote') {
    return ['add', 'remove', 'rm', 'rename', 'set-url'].includes(args[0] ?? '') || (args[0] === 'show' && args.includes('-n'));
  }
  if (subcommand === 'archive') return !args.some((arg) => couldBeLongOption(arg, 'remote'));
  if (subcommand === 'submodule') return args.length === 0 || args[0] === 'status';
  return LOCAL_WRITERS.has(subcommand);
}

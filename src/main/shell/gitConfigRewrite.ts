import { isPlainGitSetting } from '../workspace/plainGitSettings';
import type { AnalyzeCommandOptions } from './analyzeCommand';
import type { CommandAnalysis, SimpleCommand } from './commandAnalysis';
import { createProgramResolver, type ProgramResolver } from './programResolver';
import { scanOptions, type OptionSpec } from './scanOptions';

/**
 * Whether a line (analysed with `where`) changes the repository's config only as git does itself, running
 * nothing: a branch deleted, renamed or copied (git drops or moves its `branch.<name>` section, and
 * rewrites the file even when there is none), a branch's upstream, a remote added, renamed, removed
 * or pointed elsewhere, and `git config` of a plain setting (workspace/plainGitSettings.ts). Every
 * other part of the line only reads (`git remote add up URL && git remote -v`). The fence keeps
 * `.git/config` read-only for every other line; such a line runs with it writable, and what it
 * changed is checked after it (sandbox/gitConfigGuard.ts).
 *
 * Strict on purpose: each such part is the system's git (never a `git` the agent could have put on
 * the PATH), with no global options (`-c`, `-C`, `--git-dir`), no variables set in front, no
 * redirection, no word only known when it runs, and only the options listed for its subcommand. An
 * option that opens an editor (`--edit-description`), fetches (`remote add -f`) or is not known makes
 * the line an ordinary one, fenced as before.
 */
export function rewritesOnlyPlainGitConfig(analysis: CommandAnalysis, where: AnalyzeCommandOptions): boolean {
  if (analysis.unpinnable !== undefined) return false;
  const resolver = createProgramResolver(where.workspaceRoot, where.pathEnv ?? process.env.PATH ?? '');
  let rewrites = false;
  for (const part of analysis.commands) {
    if (isPlainRewrite(part, resolver)) rewrites = true;
    else if (!part.readOnly) return false;
  }
  return rewrites;
}

function isPlainRewrite(part: SimpleCommand, resolver: ProgramResolver): boolean {
  if (part.argv[0] !== 'git') return false;
  if (part.wrappers.length > 0 || part.assignments.length > 0 || part.writesTo.length > 0) return false;
  if (part.unknownArgs || part.argumentsAppended || part.readsFrom !== undefined) return false;
  if (resolver.resolve('git', false).kind !== 'system') return false;
  const [subcommand, ...args] = part.argv.slice(1);
  if (subcommand === 'branch') return branchArgs(args);
  if (subcommand === 'remote') return remoteArgs(args);
  if (subcommand === 'config') return configArgs(args);
  return false;
}

/** `git branch`'s options that delete, move, copy or set an upstream; no editor, no listing format. */
const BRANCH: OptionSpec = {
  shortFlags: 'dDmMcCfqt',
  shortWithValue: 'u',
  longFlags: ['delete', 'move', 'copy', 'force', 'quiet', 'no-track', 'unset-upstream'],
  longOptionalValue: ['track'],
  longWithValue: ['set-upstream-to'],
};

/** `git remote`'s actions that only write its section, with their options and how many operands; `add -f` (a fetch) is not one. */
const REMOTE: Record<string, { spec: OptionSpec; operands: [number, number] }> = {
  add: {
    spec: { shortWithValue: 'tm', longWithValue: ['track', 'master'], longFlags: ['tags', 'no-tags'], longOptionalValue: ['mirror'] },
    operands: [2, 2],
  },
  remove: { spec: {}, operands: [1, 1] },
  rm: { spec: {}, operands: [1, 1] },
  rename: { spec: { longFlags: ['progress', 'no-progress'] }, operands: [2, 2] },
  'set-url': { spec: { longFlags: ['push', 'add', 'delete'] }, operands: [2, 3] },
  'set-branches': { spec: { longFlags: ['add'] }, operands: [2, Infinity] },
};

/** `git config [--local] [--add|--replace-all|--unset|--unset-all] KEY [VALUE [VALUE-PATTERN]]`. */
const CONFIG: OptionSpec = { longFlags: ['local', 'add', 'replace-all', 'unset', 'unset-all'] };

function branchArgs(args: string[]): boolean {
  return scanOptions(args, BRANCH).ok;
}

function remoteArgs(args: string[]): boolean {
  const [action, ...rest] = args;
  const shape = action === undefined ? undefined : REMOTE[action];
  if (!shape) return false;
  const scan = scanOptions(rest, shape.spec);
  return scan.ok && scan.operands.length >= shape.operands[0] && scan.operands.length <= shape.operands[1];
}

/** One mode at most, a plain key (workspace/plainGitSettings.ts). */
function configArgs(args: string[]): boolean {
  const scan = scanOptions(args, CONFIG);
  if (!scan.ok || scan.operands.length < 1 || scan.operands.length > 3) return false;
  if (scan.options.filter((option) => option.name !== 'local').length > 1) return false;
  return isPlainGitSetting(scan.operands[0]!.value);
}

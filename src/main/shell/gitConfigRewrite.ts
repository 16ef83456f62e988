import { isPlainGitSetting } from '../workspace/plainGitSettings';
import { analyzeCommand, type AnalyzeCommandOptions } from './analyzeCommand';
import type { CommandAnalysis, SimpleCommand } from './commandAnalysis';
import { createProgramResolver, type ProgramResolver } from './programResolver';

/**
 * Whether a line's only change to the repository's config is one git makes itself and that runs
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
export function rewritesOnlyPlainGitConfig(command: string, where: AnalyzeCommandOptions): boolean {
  try {
    return analysisRewritesOnlyPlainGitConfig(analyzeCommand(command, where), where);
  } catch {
    return false;
  }
}

/** rewritesOnlyPlainGitConfig of a line already analysed (with the same `where`). */
export function analysisRewritesOnlyPlainGitConfig(analysis: CommandAnalysis, where: AnalyzeCommandOptions): boolean {
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

const BRANCH_FLAGS = new Set([
  '-d',
  '-D',
  '--delete',
  '-m',
  '-M',
  '--move',
  '-c',
  '-C',
  '--copy',
  '-f',
  '--force',
  '-q',
  '--quiet',
  '-t',
  '--track',
  '--track=direct',
  '--track=inherit',
  '--no-track',
  '--unset-upstream',
]);

function branchArgs(args: string[]): boolean {
  return operandsOf(args, BRANCH_FLAGS, new Set(['-u', '--set-upstream-to'])) !== undefined;
}

const REMOTE_SHAPES: Record<string, { flags: string[]; valued: string[]; operands: [number, number] }> = {
  add: { flags: ['--tags', '--no-tags', '--mirror=fetch', '--mirror=push'], valued: ['-t', '--track', '-m', '--master'], operands: [2, 2] },
  remove: { flags: [], valued: [], operands: [1, 1] },
  rm: { flags: [], valued: [], operands: [1, 1] },
  rename: { flags: ['--progress', '--no-progress'], valued: [], operands: [2, 2] },
  'set-url': { flags: ['--push', '--add', '--delete'], valued: [], operands: [2, 3] },
  'set-branches': { flags: ['--add'], valued: [], operands: [2, Infinity] },
};

function remoteArgs(args: string[]): boolean {
  const [action, ...rest] = args;
  const shape = action === undefined ? undefined : REMOTE_SHAPES[action];
  if (!shape) return false;
  const operands = operandsOf(rest, new Set(shape.flags), new Set(shape.valued));
  return operands !== undefined && operands.length >= shape.operands[0] && operands.length <= shape.operands[1];
}

const CONFIG_FLAGS = new Set(['--local', '--add', '--replace-all', '--unset', '--unset-all']);

/** `git config [--local] [--add|--replace-all|--unset|--unset-all] KEY [VALUE [VALUE-PATTERN]]`, KEY plain. */
function configArgs(args: string[]): boolean {
  const operands = operandsOf(args, CONFIG_FLAGS, new Set());
  if (operands === undefined || operands.length < 1 || operands.length > 3) return false;
  const modes = args.filter((word) => word !== '--local' && CONFIG_FLAGS.has(word));
  if (modes.length > 1) return false;
  return isPlainGitSetting(operands[0]!);
}

/** The operands, when every other word is a listed flag or a listed option with its value (`-t x`, `--track=x`); else undefined. */
function operandsOf(args: string[], flags: ReadonlySet<string>, valued: ReadonlySet<string>): string[] | undefined {
  const operands: string[] = [];
  let onlyOperands = false;
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if (onlyOperands || !word.startsWith('-')) {
      operands.push(word);
      continue;
    }
    if (word === '--') {
      onlyOperands = true;
      continue;
    }
    if (flags.has(word)) continue;
    if (valued.has(word) && at + 1 < args.length) {
      at++;
      continue;
    }
    const equals = word.indexOf('=');
    if (word.startsWith('--') && equals > 0 && valued.has(word.slice(0, equals))) continue;
    return undefined;
  }
  return operands;
}

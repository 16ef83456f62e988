import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside } from '../workspace/filePaths';
import type { SimpleCommand } from '../shell/commandAnalysis';
import { analyzeCommand } from '../shell/analyzeCommand';
import { isInterpreter, SHELLS } from '../shell/interpreters';
import { isTransparentWrapper } from '../shell/wrapperSpecs';
import type { ConfiguredHook } from './hookSettings';

/**
 * Where a hook runs: outside the fence, where the person's own hooks do what they do under Claude
 * Code (a log in the home folder, a desktop notification, an audit log of the managed policy's), or
 * inside it, as the session's commands do. The rule: **a hook runs outside the fence only when
 * everything it runs is known to come from outside the places the agent can write** (the workspace,
 * the session's /tmp, Tether's caches); anything else runs inside, where agent-written code is held
 * like any command. Tether reads the hook's line with the shell analysis, and each program on it must be:
 *
 * - one of SELF_CONTAINED (programs that run nothing but themselves: no code from their working
 *   folder or from a file they are given), found on a PATH without any of those places; or
 * - a script file named by its path, outside those places: a shell script is read and held to this
 *   same rule (two levels deep); a script in another language is the person's program and runs as it
 *   is (its imports come from its own folder, not the workspace). Tether cannot see what such a
 *   script starts: a Python hook that runs `npx` itself would run it outside, which the README says;
 * - an interpreter given such a script file and nothing else (`python3 ~/hooks/guard.py`).
 *
 * A managed policy's script files are the administrator's, in places neither the person nor the agent
 * writes: they run as they are, unread (so the policy's guard can keep its audit log); its lines are
 * held to the rule like anyone's.
 *
 * So `jq … >> ~/.claude/log.txt` and `notify-send …` run outside; `npx prettier --write "$f"` (npx runs
 * the workspace's node_modules/.bin/prettier first), `python3 -c '…'` (Python imports from the
 * working folder first), `npm run lint`, `make`, `./hook.sh`, `"$CLAUDE_PROJECT_DIR"/hook.sh` run
 * inside. A project's hooks always run inside: their code lives where the agent writes.
 */

export type HookPlacement =
  | { where: 'outside'; /** The PATH it runs with: the hook's, less every folder the agent can write. */ pathEnv: string }
  | { where: 'inside'; why: string };

export interface PlacementContext {
  workspace: string;
  /** Every folder the agent can write: the workspace, the session's /tmp, the caches, what the project's fence adds. */
  agentWritable: readonly string[];
  pathEnv: string;
  home?: string;
}

/**
 * Programs that run nothing but themselves, with the options that would make one read a program from
 * a file (jq's `-f` and `-L` modules, sed's and awk's `-f` script files): with one of those it is not
 * self-contained. Shell builtins are added below (but for source, eval and exec, which run code).
 */
const SELF_CONTAINED: Readonly<Record<string, readonly string[]>> = {
  jq: ['-f', '--from-file', '-L'],
  grep: ['-f', '--file'],
  egrep: ['-f', '--file'],
  fgrep: ['-f', '--file'],
  sed: ['-f', '--file'],
  awk: ['-f', '--file'],
  gawk: ['-f', '--file'],
  mawk: ['-f'],
  echo: [],
  printf: [],
  test: [],
  '[': [],
  true: [],
  false: [],
  cat: [],
  tee: [],
  head: [],
  tail: [],
  wc: [],
  cut: [],
  tr: [],
  sort: [],
  uniq: [],
  date: [],
  basename: [],
  dirname: [],
  realpath: [],
  readlink: [],
  mkdir: [],
  touch: [],
  ls: [],
  stat: [],
  sleep: [],
  env: [],
  logger: [],
  'notify-send': [],
  'terminal-notifier': [],
  say: [],
  afplay: [],
  paplay: [],
  curl: ['-K', '--config'],
  wget: ['-i', '--input-file', '--config'],
};

/** Builtins that run code they are given (a file, a string) or replace the shell. */
const CODE_BUILTINS = new Set(['source', '.', 'eval', 'exec', 'builtin', 'enable']);
const BUILTINS = new Set([
  ':',
  '[',
  'break',
  'cd',
  'continue',
  'echo',
  'exit',
  'export',
  'false',
  'local',
  'printf',
  'pwd',
  'read',
  'return',
  'set',
  'shift',
  'test',
  'true',
  'unset',
]);

/** Programs that run the project's code however they are named (its scripts, its node_modules, its build files). */
const RUNS_PROJECT_CODE = new Set([
  'npx',
  'npm',
  'pnpm',
  'pnpx',
  'yarn',
  'yarnpkg',
  'bun',
  'bunx',
  'deno',
  'make',
  'gmake',
  'cargo',
  'go',
  'mvn',
  'gradle',
  'uv',
  'uvx',
  'pipx',
  'poetry',
  'pipenv',
  'tox',
  'nox',
  'pre-commit',
  'rake',
  'bundle',
  'composer',
  'dotnet',
  'git',
]);

const MAX_SCRIPT_BYTES = 64 * 1024;

export function hookPlacement(hook: Pick<ConfiguredHook, 'command' | 'source'>, context: PlacementContext): HookPlacement {
  if (hook.source === 'project') return { where: 'inside', why: "a project's hook: its code lives where the agent writes" };
  const home = context.home ?? os.homedir();
  const writable = context.agentWritable.map((folder) => realOrSame(folder));
  const inWritable = (target: string) => writable.some((folder) => isInside(realOrSame(target), folder));
  const pathEnv = context.pathEnv
    .split(path.delimiter)
    .filter((entry) => entry !== '' && path.isAbsolute(entry) && !inWritable(entry))
    .join(path.delimiter);
  const why = placeLine(hook.command, { ...context, home, pathEnv, inWritable, trustScripts: hook.source === 'managed' }, 0);
  return why === undefined ? { where: 'outside', pathEnv } : { where: 'inside', why };
}

interface Reading {
  workspace: string;
  home: string;
  pathEnv: string;
  inWritable(target: string): boolean;
  /** Script files outside the agent's reach run unread (the managed policy's). */
  trustScripts: boolean;
}

/** Why a line must run inside the fence, or undefined when everything it runs is accounted for. */
function placeLine(line: string, reading: Reading, depth: number): string | undefined {
  let analysis;
  try {
    analysis = analyzeCommand(expandTildes(line, reading.home), {
      cwd: reading.workspace,
      workspaceRoot: reading.workspace,
      pathEnv: reading.pathEnv,
    });
  } catch (error) {
    return `Tether could not read the line (${(error as Error).message})`;
  }
  if (analysis.unpinnable) return `Tether cannot tell what it runs: ${analysis.unpinnable}`;
  for (const command of analysis.commands) {
    const why = placeCommand(command, reading, depth);
    if (why) return why;
  }
  return undefined;
}

function placeCommand(command: SimpleCommand, reading: Reading, depth: number): string | undefined {
  for (const wrapper of command.wrappers) {
    if (!isTransparentWrapper(wrapper) && wrapper !== 'env' && wrapper !== 'xargs')
      return `it runs ${wrapper}, which Tether does not let run outside`;
  }
  const [program, ...args] = command.argv;
  if (program === undefined) return undefined;
  if (CODE_BUILTINS.has(program)) return `${program} runs code it is given`;
  if (BUILTINS.has(program) && command.wrappers.length === 0) return undefined;
  if (command.unknownArgs?.includes(0)) return `its program ${program} is only known when it runs`;
  const name = path.basename(program);
  const found = program.includes('/') ? named(program, reading) : onPath(program, reading.pathEnv);
  if (!found) return `${program} is not found outside the places the agent can write`;
  if (reading.inWritable(found)) return `${program} is ${found}, where the agent can write`;
  if (RUNS_PROJECT_CODE.has(name) || RUNS_PROJECT_CODE.has(path.basename(found))) return `${name} runs the project's own code`;
  const scriptOptions = SELF_CONTAINED[name];
  if (scriptOptions !== undefined) {
    const option = args.find((arg) => scriptOptions.some((given) => givesOption(arg, given)));
    return option ? `${name} ${option} reads a program from a file` : undefined;
  }
  // A notification in AppleScript written on the hook's own line is the person's; a script file is theirs only outside.
  if (name === 'osascript') {
    const script = args.find((arg, index) => !arg.startsWith('-') && args[index - 1] !== '-e' && args[index - 1] !== '-l');
    if (script === undefined) return undefined;
    const file = named(script, reading);
    return file && !reading.inWritable(file) ? undefined : `osascript runs ${script}, where the agent can write`;
  }
  if (isInterpreter(name)) {
    // Only an interpreter given a script file of the person's, and nothing that adds code.
    if (args.length === 0 || args[0]!.startsWith('-')) return `${name} runs code it is given, not a script file of the person's`;
    const script = named(args[0]!, reading);
    if (!script || reading.inWritable(script)) return `${name} runs ${args[0]}, where the agent can write`;
    return SHELLS.has(name) ? placeScript(script, reading, depth) : undefined;
  }
  if (program.includes('/')) return placeScript(found, reading, depth);
  return `${name} is not one of the programs known to run nothing but themselves`;
}

/** Whether `arg` gives `option`: as itself, with `=value`, or a short option inside a cluster (`-nf`). */
function givesOption(arg: string, option: string): boolean {
  if (arg === option || arg.startsWith(`${option}=`)) return true;
  return option.length === 2 && /^-[A-Za-z]/.test(arg) && !arg.startsWith('--') && arg.slice(1).includes(option[1]!);
}

/** A file the person named: a shell script is held to the rule; another script or a program is theirs. */
function placeScript(file: string, reading: Reading, depth: number): string | undefined {
  if (reading.trustScripts) return undefined;
  let head: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_SCRIPT_BYTES + 1);
      head = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    return `Tether could not read ${file} (${(error as Error).message})`;
  }
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(head);
  const interpreter = shebang
    ? path.basename(shebang[1] === '/usr/bin/env' || shebang[1] === '/bin/env' ? (shebang[2] ?? '') : shebang[1]!)
    : '';
  if (RUNS_PROJECT_CODE.has(interpreter)) return `${file} runs with ${interpreter}, which runs the project's own code`;
  const shell = SHELLS.has(interpreter) || (!shebang && !head.includes('\0'));
  if (!shell) return undefined;
  if (head.length > MAX_SCRIPT_BYTES) return `${file} is longer than Tether reads`;
  if (depth >= 2) return `${file} is a script within scripts, deeper than Tether reads`;
  const why = placeLine(head, reading, depth + 1);
  return why === undefined ? undefined : `${file}: ${why}`;
}

/** A program or script named by a path: absolute, or relative to the workspace (where the hook runs). */
function named(word: string, reading: Reading): string | undefined {
  const absolute = path.resolve(reading.workspace, word);
  try {
    return fs.realpathSync(absolute);
  } catch {
    return undefined;
  }
}

function onPath(name: string, pathEnv: string): string | undefined {
  for (const folder of pathEnv.split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return fs.realpathSync(candidate);
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * `~/` at the start of a word outside quotes, as bash expands it, written out for the analysis (which
 * leaves it for when the line runs). A quoted `'~/x'` stays as it is: bash does not expand it either.
 */
function expandTildes(line: string, home: string): string {
  let out = '';
  let quote: string | undefined;
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!;
    if (quote) {
      out += char;
      if (char === '\\' && quote === '"' && at + 1 < line.length) out += line[++at];
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '\\') {
      out += char + (line[at + 1] ?? '');
      at++;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    const wordStart = at === 0 || /[\s;|&(<>=]/.test(line[at - 1]!);
    if (char === '~' && wordStart && (line[at + 1] === '/' || line[at + 1] === undefined || /\s/.test(line[at + 1]!))) {
      out += home;
      continue;
    }
    out += char;
  }
  return out;
}

function realOrSame(target: string): string {
  try {
    return fs.realpathSync(target);
  } catch {
    return target;
  }
}

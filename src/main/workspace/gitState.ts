import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * An operation a git folder holds in progress (a rebase, a cherry-pick or revert sequence) that
 * would run a program when someone continues it: each `exec` line of its todo list runs on
 * `git rebase --continue` (or `git cherry-pick --continue`), and a merge strategy git does not ship
 * is a program (`git-merge-<name>`) looked up when the operation goes on. A command can leave such a
 * state in the workspace's own repository (the git fence cannot keep `rebase-merge/` from being made:
 * a placeholder there would tell git a rebase is in progress), and the person's next own git command
 * would run it, outside any sandbox. git-rebase(1), "--exec"; git-sequencer's todo shares the format.
 */

/** What runs and where, with how to take it away: rewrite a todo without its exec lines, or move a state file aside. */
export interface StateProgram {
  id: string;
  shown: string;
  file: string;
  fix: 'todo' | 'state';
}

const TODO_FILES = ['rebase-merge/git-rebase-todo', 'sequencer/todo'];
const STRATEGY_FILES = ['rebase-merge/strategy', 'sequencer/opts'];
/** The merge strategies git ships (git-merge(1), "MERGE STRATEGIES"); any other name is a program git looks up. */
const BUILTIN_STRATEGIES = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree']);
/** A todo line that runs a shell command: `exec <command>` or `x <command>`. */
const EXEC_LINE = /^[ \t]*(?:exec|x)[ \t]+\S/;

/** The files and folders to stat to know the state changed. */
export function gitStateWatched(gitDir: string): string[] {
  return [
    path.join(gitDir, 'rebase-merge'),
    path.join(gitDir, 'sequencer'),
    ...TODO_FILES.map((file) => path.join(gitDir, file)),
    ...STRATEGY_FILES.map((file) => path.join(gitDir, file)),
  ];
}

export function gitStatePrograms(gitDir: string, show: (absolute: string) => string): StateProgram[] {
  const found: StateProgram[] = [];
  for (const relative of TODO_FILES) {
    const file = path.join(gitDir, relative);
    const text = readSmall(file);
    if (text === undefined) continue;
    const execs = text === TOO_LARGE ? ['(a todo list too large to check)'] : text.split('\n').filter((line) => EXEC_LINE.test(line));
    if (execs.length === 0) continue;
    const continued = relative.startsWith('rebase') ? 'git rebase --continue' : 'git cherry-pick --continue';
    found.push({
      id: `todo:${file}:${hash(execs.join('\n'))}`,
      shown: `${execs.map((line) => line.trim()).join('; ')} (in ${show(file)}: ${continued} would run it)`,
      file,
      fix: 'todo',
    });
  }
  for (const relative of STRATEGY_FILES) {
    const file = path.join(gitDir, relative);
    const text = readSmall(file);
    if (text === undefined) continue;
    // As git reads it, spaces kept: `ort ` is no strategy git ships, but a program named so.
    const names =
      text === TOO_LARGE ? ['(too large to read)'] : relative.endsWith('opts') ? optsStrategies(text) : [text.replace(/\r?\n$/, '')];
    for (const name of names) {
      if (!name || BUILTIN_STRATEGIES.has(name)) continue;
      found.push({
        id: `strategy:${file}:${name}`,
        shown: `the merge strategy "${name}", a program git looks up as git-merge-${name} (in ${show(file)})`,
        file,
        fix: 'state',
      });
      break;
    }
  }
  return found;
}

/** The todo with every exec line made a comment, saying where the original went. */
export function withoutExecLines(text: string, keptAs: string): string {
  return text
    .split('\n')
    .map((line) => (EXEC_LINE.test(line) ? `# taken out by Tether (the original is ${keptAs}): ${line.trim()}` : line))
    .join('\n');
}

/**
 * Every strategy `sequencer/opts` names, as git reads the file: a config file, where `[options]
 * strategy = …` may be spelt in any case, on one line, or more than once (the last wins). A file
 * git cannot read as config stops the sequence, so it names none.
 */
function optsStrategies(text: string): string[] {
  try {
    return execFileSync('git', ['config', '--file', '-', '--get-all', 'options.strategy'], {
      input: text,
      cwd: os.tmpdir(),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH ?? '', GIT_DIR: path.join(os.tmpdir(), 'tether-no-repository'), LC_ALL: 'C' },
    })
      .split('\n')
      .slice(0, -1);
  } catch {
    return [];
  }
}

const TOO_LARGE = Symbol('too large');
const MAX_BYTES = 4 * 1024 * 1024;

/**
 * The text git would read (a link followed, as git follows it), or TOO_LARGE, which counts as
 * running something; undefined when absent or not a regular file (a FIFO must not hold the read).
 */
function readSmall(file: string): string | typeof TOO_LARGE | undefined {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return undefined;
    return stat.size > MAX_BYTES ? TOO_LARGE : fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 16);
}

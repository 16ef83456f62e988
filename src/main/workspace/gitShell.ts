import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { GitRun } from './git';
import { removeOrphanedFolders } from './orphanedFolders';

/**
 * A small shell kept running beside one repository to start its most frequent git commands.
 *
 * To start a program, node forks its own process, and at a running Tether's size (~100 MB resident)
 * copying its page tables is most of what a short git command costs: a `git status` in a small
 * repository takes 3.2 ms from a 100 MB node, 1.5 ms when a shell beside it starts the same git
 * (`bench/gitShell.bench.ts`). A step that may change files runs two to four of them.
 *
 * The shell knows only the commands it was given when it started, as fixed argument lists written
 * into its script (nothing is quoted or interpreted at call time): a call names one by its number,
 * its input and output pass through files in a folder of its own, and its exit status comes back
 * on a pipe. One call at a time. When the shell cannot start or dies, or cannot run git at all, the
 * caller starts git itself, as it would without one.
 *
 * Linux only: there node forks (macOS spawns without copying the parent, Windows has no /bin/sh).
 */
export interface GitShell {
  /** The number of `args` among the commands the shell knows, or undefined when it does not know them. */
  commandNumber(args: readonly string[]): number | undefined;
  /** Runs command `number` with `input` on its stdin; rejects when the shell could not run it (start git directly then). */
  run(number: number, input: string | Buffer | undefined): Promise<GitRun>;
  /** Stops the shell and removes its folder. */
  close(): void;
}

export interface GitShellOptions {
  /** Where git runs. */
  cwd: string;
  /** git's whole environment (the repository's GIT_DIR and friends included). */
  env: NodeJS.ProcessEnv;
  /** Each command's arguments after `git`. */
  commands: readonly (readonly string[])[];
  /** A folder to make the shell's own folder in (removed when it closes). */
  parent: string;
  /** After this long without a call the shell stops; the next call starts another. */
  idleMs?: number;
}

const DEFAULT_IDLE_MS = 30_000;
/** Exit statuses of the shell, not of git: it could not enter the folder (126), or found no git (127). */
const SHELL_COULD_NOT_RUN = new Set([126, 127]);

/** A GitShell that starts its shell with the first call, and again after it stopped when idle; undefined off Linux. */
export function gitShell(options: GitShellOptions): GitShell | undefined {
  if (process.platform !== 'linux' || !fs.existsSync('/bin/sh')) return undefined;
  const keys = new Map(options.commands.map((args, index) => [key(args), index]));
  let running: RunningShell | undefined;
  let broken = false;
  let queue: Promise<unknown> = Promise.resolve();
  let idle: NodeJS.Timeout | undefined;

  const stop = () => {
    if (idle) clearTimeout(idle);
    idle = undefined;
    running?.stop();
    running = undefined;
  };

  return {
    commandNumber(args) {
      return broken ? undefined : keys.get(key(args));
    },
    run(number, input) {
      const next = queue.then(async () => {
        if (idle) clearTimeout(idle);
        // Calls queued behind the one that found the shell failing go to git directly too.
        if (broken) throw new Error('the git shell failed earlier');
        try {
          running ??= startShell(options);
          return await running.call(number, input);
        } catch (error) {
          // A shell that failed once is not tried again for this repository: git is started directly.
          broken = true;
          stop();
          throw error;
        } finally {
          if (running) {
            idle = setTimeout(stop, options.idleMs ?? DEFAULT_IDLE_MS);
            idle.unref();
          }
        }
      });
      queue = next.catch(() => undefined);
      return next;
    },
    close: stop,
  };
}

interface RunningShell {
  call(number: number, input: string | Buffer | undefined): Promise<GitRun>;
  stop(): void;
}

const FOLDER_PREFIX = 'git-shell-';

function startShell(options: GitShellOptions): RunningShell {
  // Those of shells whose Tether was killed before it could remove them go first.
  removeOrphanedFolders(options.parent, new RegExp(`^${FOLDER_PREFIX}(\\d+)-`));
  const folder = fs.mkdtempSync(path.join(options.parent, `${FOLDER_PREFIX}${process.pid}-`));
  const removeFolder = () => {
    liveFolders.delete(folder);
    fs.rmSync(folder, { recursive: true, force: true });
  };
  removeAtExit(folder);
  const files = { input: path.join(folder, 'in'), output: path.join(folder, 'out'), errors: path.join(folder, 'err') };
  const cases = options.commands.map((args, index) => `${index}) command git ${args.map(quoted).join(' ')} ;;`).join('\n    ');
  // $1: the folder to run git in; $2: this shell's folder. A request is "<id> <command number>";
  // the answer "<id> <exit status>". `command` runs the program git, whatever function of that name
  // a shell might have brought along.
  const script = `
while read -r id number; do
  if ! cd "$1" 2>/dev/null; then echo "$id 126"; continue; fi
  case $number in
    ${cases}
    *) false ;;
  esac <"$2/in" >"$2/out" 2>"$2/err"
  echo "$id $?"
done`;
  let child: ChildProcessByStdio<Writable, Readable, null>;
  try {
    child = spawn('/bin/sh', ['-c', script, 'tether-git-shell', options.cwd, folder], {
      cwd: options.parent,
      env: shellEnvironment(options.env),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
  } catch (error) {
    removeFolder();
    throw error;
  }
  // Idle, neither the shell nor its pipes keep Tether running (its stdin, written only during a call, is
  // no active handle); it ends with Tether, when its stdin closes.
  child.unref();
  const pipe = child.stdout as Readable & { ref(): void; unref(): void };
  pipe.unref();
  child.stdin.on('error', () => undefined);

  let waiting: { id: number; resolve(status: number): void; reject(error: Error): void } | undefined;
  let said = '';
  let ended: Error | undefined;
  const end = (error: Error) => {
    ended ??= error;
    waiting?.reject(ended);
    waiting = undefined;
  };
  child.on('error', end);
  child.on('exit', (code, signal) => end(new Error(`the git shell exited (${signal ?? code})`)));
  pipe.setEncoding('utf8').on('data', (chunk: string) => {
    said += chunk;
    for (let newline = said.indexOf('\n'); newline !== -1; newline = said.indexOf('\n')) {
      const [id, status] = said.slice(0, newline).split(' ').map(Number);
      said = said.slice(newline + 1);
      if (waiting && id === waiting.id) {
        const { resolve } = waiting;
        waiting = undefined;
        resolve(status ?? -1);
      }
    }
  });

  let nextId = 0;
  return {
    async call(number, input) {
      if (ended) throw ended;
      fs.writeFileSync(files.input, input ?? '');
      // What a call printed is written afresh: the last call's output never stands in for it (a
      // missing file is the shell's failure). Removed here, not by the shell: dash has no rm of its
      // own, and starting one cost a process per call.
      fs.rmSync(files.output, { force: true });
      fs.rmSync(files.errors, { force: true });
      const id = nextId++;
      pipe.ref();
      try {
        const status = await new Promise<number>((resolve, reject) => {
          waiting = { id, resolve, reject };
          child.stdin.write(`${id} ${number}\n`);
        });
        if (SHELL_COULD_NOT_RUN.has(status)) throw new Error(`the git shell could not run git (exit status ${status})`);
        // Missing when the shell could not write them (a noclobber it was handed): its failure, not git's answer.
        return { stdout: fs.readFileSync(files.output), stderr: fs.readFileSync(files.errors, 'utf8'), exitCode: status };
      } finally {
        pipe.unref();
      }
    },
    stop() {
      end(new Error('the git shell was stopped'));
      child.stdin.end();
      child.kill();
      removeFolder();
    },
  };
}

/**
 * git's environment less what would change the shell itself where /bin/sh is bash: startup files
 * ($ENV, $BASH_ENV), exported functions, shell options (a noclobber would keep it from writing a
 * call's output) and CDPATH.
 */
function shellEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (/^(?:ENV|BASH_ENV|SHELLOPTS|BASHOPTS|CDPATH)$|^BASH_FUNC_/.test(name)) continue;
    kept[name] = value;
  }
  return kept;
}

/** The folders of shells running now, removed when Tether exits: one exit handler for them all. */
const liveFolders = new Set<string>();
let exitHandled = false;
function removeAtExit(folder: string): void {
  if (!exitHandled) {
    exitHandled = true;
    process.once('exit', () => {
      for (const live of liveFolders) fs.rmSync(live, { recursive: true, force: true });
    });
  }
  liveFolders.add(folder);
}

function key(args: readonly string[]): string {
  return args.join('\0');
}

/** One argument in single quotes, for sh: nothing inside is interpreted. */
function quoted(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

import { pathExists } from '../workspace/filePaths';
import os from 'node:os';
import path from 'node:path';
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { BWRAP_OPTIONS, type BwrapOption as Option } from './bubblewrapOptions';
import { withDarkHome, type DarkHome } from './darkHome';

/**
 * The runtime's wrapped command, read back into words and fitted to Tether's fence. The library
 * (@anthropic-ai/sandbox-runtime) builds the whole bubblewrap invocation, with its hard-won handling
 * of symlinks, read-deny tmpfs restores and ancestor pins, but three things it does are not what
 * the fence needs, and it has no setting for them:
 *
 * - **Placeholders.** A protected path that does not exist gets an empty read-only file or folder
 *   bound over it (`--ro-bind /dev/null <path>`), which bubblewrap creates on the host: the command
 *   then sees `.tether` as a character device, and `git add -A`, `git stash -u`, `ls -a`, `tar`
 *   see it too. Tether protects a missing path another way (protectedPaths.ts), so each such bind is
 *   left out: one whose source is /dev/null or the library's empty folder, and whose destination is
 *   not there. An existing file masked by /dev/null (a secret) keeps its mask.
 * - **Its own writable places.** It makes `~/.npm/_logs`, `~/.claude/debug` and `/tmp/claude`
 *   writable, the person's and the real /tmp's: those binds are left out.
 * - **An unreadable apply-seccomp.** The process it leaves outside the filter must not be one the
 *   command can write into through /proc; an execute-only copy is bound over it (unreadableSupervisor.ts).
 * - **The private /tmp.** It cannot bind one path at another, so the session's private folder is bound at /tmp
 *   here, right after the read-only root. Mounts made earlier under /tmp (the proxy's sockets) are
 *   made again on top of it; every fence root under /tmp is bound read-only before the library's pins,
 *   so a pin lands on the real folder and not on a mount point in the private one.
 *
 * On macOS the command is `env … sandbox-exec -p <profile> …`: rules are appended to the profile
 * (Seatbelt takes the last rule that matches) and TMPDIR is set. Anything else in an unexpected shape
 * (another version of the library writes it differently) throws: nothing runs in a fence Tether did
 * not check.
 */

export class UnexpectedCommandError extends Error {
  override readonly name = 'UnexpectedCommandError';
}

export interface LinuxFit {
  /** The host folder bound at /tmp. */
  privateTmp: string;
  /** Folders under /tmp that the fence binds later (the workspace, the caches): visible before the pins land. */
  rootsUnderTmp: readonly string[];
  /** The library's own writable places, left read-only. */
  notWritable: readonly string[];
  /** Variables set for the sandbox, replacing what the library set. */
  setenv: Readonly<Record<string, string>>;
  /** Variables taken out of the sandbox's environment (after the library's own are set). */
  unsetenv: readonly string[];
  /** A unix socket bound into the sandbox at its own path (the write observer's). */
  socket?: string;
  /** The home folder made dark, with what is lit (darkHome.ts); mounted right after the private /tmp. */
  darkHome?: DarkHome;
  /** apply-seccomp's execute-only copy (unreadableSupervisor.ts), bound over the library's after every other mount. */
  supervisor?: { copy: string; boundAt: string };
}

/** The library's empty folder, the source of its placeholders for a missing folder (ensureEmptyMountSourceDir). */
function isEmptyMountSource(source: string): boolean {
  return path.dirname(source) === os.tmpdir() && path.basename(source).startsWith('claude-empty-');
}

/** A bubblewrap command line read into its parts. */
interface BwrapCommand {
  bwrap: string;
  options: Option[];
  /** What bubblewrap runs: the words after `--`. */
  command: string[];
}

/** Reads a bubblewrap command line (as quote() wrote it) into its options and command; anything else throws. */
export function readBwrapCommand(line: string): BwrapCommand {
  const words = readWords(line);
  const bwrap = words[0];
  if (!bwrap || path.basename(bwrap) !== 'bwrap') {
    throw new UnexpectedCommandError(
      words[0] === '/bin/sh' && words.includes('--args')
        ? 'the fence compiles to more mounts than one command line holds (the library moved them to a file Tether cannot fit); fence fewer paths'
        : 'the sandbox runtime did not start bubblewrap as Tether expects',
    );
  }
  const options: Option[] = [];
  let at = 1;
  while (at < words.length && words[at] !== '--') {
    const name = words[at]!;
    const arity = BWRAP_OPTIONS[name];
    if (arity === undefined)
      throw new UnexpectedCommandError(`the sandbox runtime passed bubblewrap an option Tether does not know (${name})`);
    options.push([name, ...words.slice(at + 1, at + 1 + arity)]);
    at += 1 + arity;
  }
  if (words[at] !== '--') throw new UnexpectedCommandError('the sandbox runtime gave bubblewrap no command');
  return { bwrap, options, command: words.slice(at + 1) };
}

export function fitLinuxCommand(wrapped: string, fit: LinuxFit): string {
  const { bwrap, options, command } = readBwrapCommand(wrapped);

  const root = options.findIndex(([name, source, dest]) => name === '--ro-bind' && source === '/' && dest === '/');
  if (root < 0) throw new UnexpectedCommandError('the sandbox runtime did not mount the root read-only');
  const underTmp = (dest: string | undefined) => dest !== undefined && (dest === '/tmp' || dest.startsWith('/tmp/'));
  const notWritable = new Set(fit.notWritable);
  const kept: Option[] = [];
  const before: Option[] = [];
  options.forEach((option, index) => {
    const [name, first, second] = option;
    if (name === '--ro-bind' && (first === '/dev/null' || isEmptyMountSource(first!)) && !pathExists(second!)) return;
    if (name === '--bind' && first === second && notWritable.has(first!)) return;
    if (name === '--setenv' && (first! in fit.setenv || fit.unsetenv.includes(first!))) return;
    // A bind under /tmp made before the root (the proxy's sockets) would be hidden by the private /tmp.
    if (index < root && (name === '--bind' || name === '--ro-bind') && underTmp(second)) before.push(option);
    else kept.push(option);
  });
  const privateTmp: Option[] = [
    ['--bind', fit.privateTmp, '/tmp'],
    ...before,
    ...fit.rootsUnderTmp.filter(pathExists).map((folder): Option => ['--ro-bind', folder, folder]),
    ...(fit.socket ? [['--bind', fit.socket, fit.socket] as Option] : []),
  ];
  const rootAt = kept.findIndex(([name, source, dest]) => name === '--ro-bind' && source === '/' && dest === '/');
  kept.splice(rootAt + 1, 0, ...privateTmp);
  const mounts = fit.darkHome ? withDarkHome(kept, rootAt + 1 + privateTmp.length, fit.darkHome) : kept;
  // Last, so that no bind of the fence's (a workspace that holds Tether's own node_modules) covers it.
  if (fit.supervisor) mounts.push(['--ro-bind', fit.supervisor.copy, fit.supervisor.boundAt]);
  const env: Option[] = [
    ...fit.unsetenv.map((name): Option => ['--unsetenv', name]),
    ...Object.entries(fit.setenv).map(([name, value]): Option => ['--setenv', name, value]),
  ];
  return quote([bwrap, ...env.flat(), ...mounts.flat(), '--', ...command]);
}

export interface MacFit {
  /** Seatbelt rules appended to the library's profile: they take precedence over what it says before them. */
  rules: string;
  /** Variables set for the command (the library's assignments of the same names are replaced). */
  setenv: Readonly<Record<string, string>>;
  unsetenv: readonly string[];
}

export function fitMacCommand(wrapped: string, fit: MacFit): string {
  const words = readWords(wrapped);
  if (words[0] !== 'env') throw new UnexpectedCommandError('the sandbox runtime did not start sandbox-exec through env as Tether expects');
  const exec = words.indexOf('/usr/bin/sandbox-exec');
  if (exec < 0 || words[exec + 1] !== '-p' || words[exec + 2] === undefined) {
    throw new UnexpectedCommandError('the sandbox runtime did not give sandbox-exec a profile as Tether expects');
  }
  const assignments = words.slice(1, exec).filter((word) => {
    if (word === '-u') return true;
    const name = word.split('=')[0]!;
    return !(name in fit.setenv) && !fit.unsetenv.includes(name);
  });
  const profile = `${words[exec + 2]}\n${fit.rules}`;
  return quote([
    'env',
    ...fit.unsetenv.flatMap((name) => ['-u', name]),
    ...assignments,
    ...Object.entries(fit.setenv).map(([name, value]) => `${name}=${value}`),
    '/usr/bin/sandbox-exec',
    '-p',
    profile,
    ...words.slice(exec + 3),
  ]);
}

/** The profile inside a fitted (or the library's) macOS command: what sandbox-exec is given. */
export function seatbeltProfileOf(wrapped: string): string {
  const words = readWords(wrapped);
  const exec = words.indexOf('/usr/bin/sandbox-exec');
  const profile = exec >= 0 && words[exec + 1] === '-p' ? words[exec + 2] : undefined;
  if (profile === undefined) throw new UnexpectedCommandError('no sandbox-exec profile in the command');
  return profile;
}

/**
 * The words of a command line as the library's quote() writes it: bare words, `'…'` runs, and the
 * `"'"` it puts a single quote in, separated by single spaces. Anything else is refused.
 */
export function readWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let at = 0;
  while (at < line.length) {
    const char = line[at]!;
    if (char === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
      at++;
    } else if (char === "'" || char === '"') {
      const end = line.indexOf(char, at + 1);
      if (end < 0) throw new UnexpectedCommandError('the sandbox runtime’s command has an unclosed quote');
      const inner = line.slice(at + 1, end);
      if (char === '"' && inner !== "'")
        throw new UnexpectedCommandError('the sandbox runtime’s command quotes in a way Tether does not read');
      word = (word ?? '') + inner;
      at = end + 1;
    } else {
      if (!/[A-Za-z0-9_./:=@+,%-]/.test(char)) {
        throw new UnexpectedCommandError(
          `the sandbox runtime’s command has a character Tether does not read unquoted (${JSON.stringify(char)})`,
        );
      }
      word = (word ?? '') + char;
      at++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

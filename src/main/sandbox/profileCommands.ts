import path from 'node:path';
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';
import { readBwrapCommand, readWords } from './runtimeCommand';

/**
 * The two ways a compiled Linux profile starts a command, cut from the runtime's one script.
 *
 * Inside bubblewrap the runtime runs `bash -c 'bash -c <script>'`, whose script starts two socat
 * bridges (its HTTP and SOCKS proxies, listening in the sandbox's own network namespace), sets a trap
 * that ends them, and then runs `apply-seccomp bash -c <command>`. That is three bash processes and
 * two socat before the command's own shell, about 18 ms of a trivial command's 47 (measured with
 * execFile on a quiet machine). So:
 *
 * - **network**, for a command that may reach the network: the same script, run by one bash instead
 *   of a bash that starts another (`bash -c 'bash -c X'` is `bash -c X`).
 * - **local**, for a command the shell analysis finds stays on this machine: bubblewrap starts
 *   apply-seccomp directly, which starts the command's shell. No bridges, no trap, no outer shell.
 *   The fence is the same or tighter: the same mounts and namespaces, the same seccomp filter and
 *   write observer; the network namespace is still the sandbox's own, with nothing listening in it, so
 *   a connection the analysis did not foresee reaches no host at all (not the proxy either), and the
 *   proxy's unix sockets are not bound in. A process the command
 *   leaves running ends with it, as before: bubblewrap's PID namespace ends with its first process.
 *
 * The local form is undefined, and such a command runs in the network form, when the script is not
 * exactly that shape (another version of the library writes it differently, or has no apply-seccomp
 * for this machine): Tether never drops a part of the script it does not know.
 */
interface ProfileCommands {
  network: string;
  local: string | undefined;
}

/** A proxy bridge line as the library writes it (buildSandboxCommand in sandbox-runtime's linux-sandbox-utils); its group is the proxy's socket. */
const bridge = (port: number) =>
  new RegExp(`^(?:/[^\\s'"]*/)?socat TCP-LISTEN:${port},fork,reuseaddr UNIX-CONNECT:(/[^\\s'"]+) >/dev/null 2>&1 &$`);
/** Where the runtime's bridges listen inside the sandbox: its HTTP and SOCKS proxies. */
export const PROXY_PORTS = [3128, 1080];
const BRIDGES = PROXY_PORTS.map(bridge);
const TRAP = "trap 'rc=$?; kill %1 %2 2>/dev/null; exit $rc' EXIT";

/**
 * `fitted` (a fitted profile's bubblewrap command, whose script runs `command`) in its two forms; the
 * local one runs `localCommand` instead (the same without what only a networked command needs).
 */
export function profileCommands(fitted: string, commands: { command: string; localCommand: string }): ProfileCommands {
  const { bwrap, options, command } = readBwrapCommand(fitted);
  const [shell, flag, script, ...more] = command;
  if (shell === undefined || flag !== '-c' || script === undefined || more.length > 0) return { network: fitted, local: undefined };
  const head = [bwrap, ...options.flat(), '--'];
  const nested = wordsOrUndefined(script);
  const inner = nested?.length === 3 && nested[0] === shell && nested[1] === '-c' ? nested[2]! : script;
  const network = quote([...head, shell, '-c', inner]);

  const lines = inner.split('\n');
  const helpers = lines.slice(0, -1);
  const onlyBridges =
    helpers.length === 0 ||
    (helpers.length === BRIDGES.length + 1 && BRIDGES.every((line, at) => line.test(helpers[at]!)) && helpers[BRIDGES.length] === TRAP);
  const last = wordsOrUndefined(lines.at(-1)!);
  const seccomp = last?.[0];
  const runsCommand =
    last?.length === 4 &&
    seccomp !== undefined &&
    path.isAbsolute(seccomp) &&
    path.basename(seccomp) === 'apply-seccomp' &&
    last[1] === shell &&
    last[2] === '-c' &&
    last[3] === commands.command;
  // The proxy's sockets are bound in for the bridges alone: without them, nothing in the local form
  // can reach the proxy at all, and two mounts fewer cost every command less.
  const sockets = new Set(
    helpers.flatMap((line) => BRIDGES.map((pattern) => pattern.exec(line)?.[1]).filter((found) => found !== undefined)),
  );
  const localOptions = options.filter(([name, source, dest]) => !(name === '--bind' && source === dest && sockets.has(source!)));
  const local =
    onlyBridges && runsCommand ? quote([bwrap, ...localOptions.flat(), '--', seccomp, shell, '-c', commands.localCommand]) : undefined;
  return { network, local };
}

function wordsOrUndefined(line: string): string[] | undefined {
  try {
    return readWords(line);
  } catch {
    return undefined;
  }
}

/**
 * The same bubblewrap command with the repository config `file` writable, for a line proven to change
 * only plain settings there (shell/gitConfigRewrite.ts): its read-only binds of the file left out,
 * and no hook run by the git it starts (`core.hooksPath=/dev/null` as command-line config, after what
 * the runtime puts there): while the file can be written, only git itself runs, never a hook that may
 * start the project's code. Undefined when the command binds no such file read-only, or is not
 * bubblewrap's (macOS): the line then runs in its ordinary form.
 */
export function withWritableGitConfig(line: string, file: string): string | undefined {
  let read;
  try {
    read = readBwrapCommand(line);
  } catch {
    return undefined;
  }
  const { bwrap, options, command } = read;
  const pin = (option: string[]) => option[0] === '--ro-bind' && option[1] === file && option[2] === file;
  if (!options.some(pin)) return undefined;
  const parameters = (option: string[]) => option[0] === '--setenv' && option[1] === 'GIT_CONFIG_PARAMETERS';
  const given = options.find(parameters)?.[2]?.trim();
  const noHooks = `'core.hooksPath'='/dev/null'`;
  const fitted = [
    ...options.filter((option) => !pin(option) && !parameters(option)),
    ['--setenv', 'GIT_CONFIG_PARAMETERS', given ? `${given} ${noHooks}` : noHooks],
  ];
  return quote([bwrap, ...fitted.flat(), '--', ...command]);
}

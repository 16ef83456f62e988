import path from 'node:path';
import type { SimpleCommand } from './commandAnalysis';

/**
 * Whether a simple command may send data from this machine out over the network, as opposed to only
 * asking for something (a download, a fetch, an install): why, in words, or undefined. "Allow always"
 * is never offered for a line with such a part (allowAlways.ts): a rule for it would let the same line
 * send whatever the files it names, or what is piped into it, hold at any later time.
 *
 * A command that may reach the network sends data when something is fed into it (a pipe, a file on its
 * standard input) or when its own words make it upload. Which words do is this table, per program.
 */

/** Programs that send whatever they are given or connect a session both ways: any use of them sends. */
const ALWAYS_SENDS: Record<string, string> = {
  ssh: 'ssh runs commands on another machine and sends it what it is given',
  scp: 'scp copies files between this machine and another',
  sftp: 'sftp copies files between this machine and another',
  rsync: 'rsync copies files between this machine and another',
  ftp: 'ftp copies files between this machine and another',
  nc: 'nc sends what it is given to another machine',
  ncat: 'ncat sends what it is given to another machine',
  netcat: 'netcat sends what it is given to another machine',
  socat: 'socat connects this machine to another both ways',
  telnet: 'telnet sends what it is given to another machine',
};

/** curl's options that send a body or a file (curl(1): -d, --data*, -F, --form*, -T, --json, and -K, a file of more options). */
const CURL_SENDS = /^(-d|--data(-binary|-raw|-ascii|-urlencode)?|-F|--form(-string)?|-T|--upload-file|--json|-K|--config)(=|$)/;
/** wget's (wget(1): --post-data, --post-file, --body-data, --body-file). */
const WGET_SENDS = /^--(post|body)-(data|file)(=|$)/;
/** Methods that carry a request body or change something on the server. */
const SENDING_METHOD = /^(POST|PUT|PATCH|DELETE)$/i;

/** Subcommands that publish: what the project holds leaves for a server. */
const PUBLISHES: Record<string, ReadonlySet<string>> = {
  git: new Set(['push', 'send-email', 'request-pull']),
  npm: new Set(['publish']),
  pnpm: new Set(['publish']),
  yarn: new Set(['publish']),
  docker: new Set(['push']),
  podman: new Set(['push']),
  cargo: new Set(['publish']),
  twine: new Set(['upload']),
};

export function sendsData(command: SimpleCommand): string | undefined {
  const [program, ...args] = command.argv;
  if (program === undefined) return undefined;
  const name = path.posix.basename(program);
  const always = alwaysSends(name);
  if (always) return always;
  if (!command.mayReachNetwork) return undefined;
  if (command.fedByPipe) return `${name} reaches the network and is fed the output of the command before it`;
  if (command.readsFrom !== undefined) return `${name} reaches the network and is fed ${command.readsFrom}`;
  if (
    name === 'curl' &&
    args.some((arg, index) => CURL_SENDS.test(arg) || (isMethodOption(arg) && SENDING_METHOD.test(methodOf(args, index))))
  )
    return 'curl sends data with its request';
  if (
    name === 'wget' &&
    args.some((arg, index) => WGET_SENDS.test(arg) || (arg.startsWith('--method') && SENDING_METHOD.test(methodOf(args, index))))
  )
    return 'wget sends data with its request';
  return publishes(name, args);
}

/** Why `program` (a base name) sends data whatever its arguments (ssh, scp, nc...), or undefined. */
export function alwaysSends(program: string): string | undefined {
  return Object.hasOwn(ALWAYS_SENDS, program) ? ALWAYS_SENDS[program] : undefined;
}

/** Why `program args` publishes what the project holds (`git push`, `npm publish`), or undefined. */
export function publishes(program: string, args: readonly string[]): string | undefined {
  const sub = args.find((arg) => !arg.startsWith('-'));
  return sub !== undefined && PUBLISHES[program]?.has(sub) ? `${program} ${sub} sends what the project holds to a server` : undefined;
}

function isMethodOption(arg: string): boolean {
  return arg === '-X' || arg.startsWith('--request') || (arg.startsWith('-X') && arg.length > 2);
}

/** The method of `-X POST`, `-XPOST`, `--request=POST`, `--method POST`. */
function methodOf(args: readonly string[], index: number): string {
  const arg = args[index] ?? '';
  const equals = arg.indexOf('=');
  if (equals > 0) return arg.slice(equals + 1);
  if (arg.startsWith('-X') && arg.length > 2) return arg.slice(2);
  return args[index + 1] ?? '';
}

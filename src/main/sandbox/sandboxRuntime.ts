import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxAskCallback, SandboxManager as SandboxManagerType, SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import picomatch from 'picomatch';
import { matchesDomainPatternWithPort } from '@anthropic-ai/sandbox-runtime/dist/sandbox/domain-pattern.js';
import { canonicalizeHost } from '@anthropic-ai/sandbox-runtime/dist/sandbox/parent-proxy.js';
import type { EffectiveFence } from './fence';
import { findTrustedProgram } from '../workspace/programSearchPath';
import { darkHomeFor } from './darkHome';
import { commonDirOf, gitFence } from './gitFence';
import { libraryFence, linuxFit, macFit, underTmp, type LibraryFence } from './libraryFence';
import { watchAbsentPaths, type AbsentPathWatch, type MovedPath } from './protectedPaths';
import { profileCommands, PROXY_PORTS } from './profileCommands';
import { fitLinuxCommand, fitMacCommand } from './runtimeCommand';
import { clearMountPath } from './sessionTemp';
import { unreadableSupervisor, type UnreadableSupervisor } from './unreadableSupervisor';
import { observeWrites, seatbeltRefusedWrite, type StartWriteMonitor, type WriteAttempt } from './writeAttempts';

/**
 * The process's one sandbox runtime (@anthropic-ai/sandbox-runtime keeps a single, process-wide
 * manager): its HTTP/SOCKS proxy and, on Linux, the socat bridges to it start once, on the first
 * command of any session, and serve every command after.
 *
 * A session's fence is compiled once into a profile (the library's bubblewrap invocation around a
 * fixed command that runs what the environment variable TETHER_SANDBOXED_COMMAND holds), and that
 * profile is reused for every command of the session for as long as what it was compiled from is
 * unchanged: the library's wrap costs about as much as the command itself (it spawns `which` and
 * ripgrep and walks the fence's globs each time).
 *
 * The network allow list is the library's one live setting, read by the proxy per connection, so it
 * is set to what every command running at that moment allows: exact for one command at a time;
 * when sessions with different fences run commands together, a domain only some of them allow is
 * refused (never widened).
 *
 * A connection to a host the list does not allow goes to the library's ask callback
 * ({@link askAboutConnection}), which is given the host and port and nothing else: not which command
 * connected (the proxy knows, from its credentials, and keeps it to itself). So the question goes to
 * the one command running when it comes; with none running (a process an ended command left) or
 * several (sessions running commands at once) nobody is asked and it is refused, and the command's
 * fence hit says why.
 */

/** A connection the proxy refused while a command ran. */
export interface NetworkDenial {
  host: string;
  port: number;
  reason: string;
  /** Made by a process the session's earlier command left running, after that command had ended. */
  leftBehind?: boolean;
}

/** A connection a running command is making to a host its fence does not allow. */
export interface NetworkRequest {
  /** As the proxy compares it: lower case, an address in its canonical spelling. */
  host: string;
  port: number;
}

/** Asks whoever runs the command whether this connection may go ahead; false refuses it. */
export type NetworkAsk = (request: NetworkRequest) => Promise<boolean>;

/** The runtime could not start; no command runs without it. */
export class SandboxStartError extends Error {
  override readonly name = 'SandboxStartError';
}

/** The environment variable that carries the command into a reused profile. */
export const COMMAND_VARIABLE = 'TETHER_SANDBOXED_COMMAND';

/**
 * bash that waits, up to about two seconds, until something listens on each of `ports` (read from
 * /proc/net/tcp with builtins, so a ready sandbox costs no process). Inside the sandbox the runtime
 * starts its proxy bridges in the background just before the command, and on a busy machine a
 * command that went out at once found nobody there ("Failed to connect to localhost port 3128").
 * Only when the command's proxy is that bridge: with no network fence there is none to wait for.
 * A command the shell analysis finds stays on this machine runs without the bridges, and without
 * this wait (profileCommands.ts).
 */
export function waitForListeners(ports: readonly number[], proxyVariable = 'HTTP_PROXY'): string {
  const listening = ports.map((port) => `$_tether_tcp == *":${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A"*`);
  return [
    `if [[ \${${proxyVariable}:-} == *localhost:${ports[0]}* ]]; then`,
    // Bounded by the clock too (2 to 3 s: SECONDS counts whole seconds): each `sleep` is a process, and on a loaded machine 200 of them took 6 s, not 2.
    `SECONDS=0; for _tether_try in {1..200}; do read -r -d '' _tether_tcp < /proc/net/tcp; [[ ${listening.join(' && ')} ]] && break; (( SECONDS >= 3 )) && break; sleep 0.01; done;`,
    `unset _tether_try _tether_tcp; fi`,
  ].join(' ');
}

/** What a profile's shell runs: the command the environment carries in. */
const RUN_COMMAND = `eval "$${COMMAND_VARIABLE}"`;
/** The same once the proxy bridges listen, for a command that may go out. */
const NETWORK_COMMAND = `${waitForListeners(PROXY_PORTS)}; ${RUN_COMMAND}`;

/** What a command ran into at the fence, as the sandbox recorded it. */
export interface ProfileRunEnd {
  denials: NetworkDenial[];
  /** Protected paths that did not exist and that the command made: moved out of the workspace. */
  moved: MovedPath[];
  /** Writes the sandbox refused, as it recorded them (apply-seccomp's observer, Seatbelt's log). */
  writes: WriteAttempt[];
}

/** A fence compiled into a bubblewrap invocation, reusable while `isCurrent()`. */
export interface SandboxProfile {
  /** The shell command to run (with COMMAND_VARIABLE set to the real command). */
  readonly command: string;
  /**
   * The same without the runtime's proxy bridges and outer shells, for a command the shell analysis
   * finds stays on this machine (profileCommands.ts); undefined where there is no such form (macOS,
   * or a runtime's command not as expected).
   */
  readonly localCommand: string | undefined;
  /** False once the workspace changed in a way the compiled profile does not reflect. */
  isCurrent(): boolean;
  /**
   * Marks a command as running in this profile (the proxy allows what its fence allows, read again
   * for each connection; missing protected paths are watched). `ask` is asked about a host the fence
   * does not allow; without it, refused. Returns variables to add to the command's environment.
   */
  begin(runId: string, ask?: NetworkAsk): Record<string, string>;
  /** After a command: what it ran into (refused connections since `since`, protected paths it made, refused writes). */
  end(runId: string, since: number): ProfileRunEnd;
  /** The profile is done with: frees what its wrap held. */
  release(): void;
}

let starting: Promise<void> | undefined;
let stopping: Promise<void> | undefined;
let holders = 0;

/** A command running in a profile: what its fence allows now, and whom to ask about the rest. */
interface RunningCommand {
  profileId: string;
  domains(): readonly string[];
  ask?: NetworkAsk;
}
const running = new Map<string, RunningCommand>();

/** The programs the runtime starts, found once per start of the runtime (a look-up walks PATH). */
type RuntimePrograms = Pick<SandboxRuntimeConfig, 'bwrapPath' | 'socatPath' | 'ripgrep'>;
let programs: RuntimePrograms | undefined;

function runtimePrograms(): RuntimePrograms {
  // By absolute path: the library would have the command's shell look `bwrap` up on the command's
  // PATH, where a relative or workspace entry could name one the agent planted (programSearchPath.ts).
  const bwrapPath = findTrustedProgram('bwrap');
  const socatPath = findTrustedProgram('socat');
  const rg = findTrustedProgram('rg');
  return {
    ...(bwrapPath ? { bwrapPath } : {}),
    ...(socatPath ? { socatPath } : {}),
    ...(rg ? { ripgrep: { command: rg } } : {}),
  };
}

function runtimeConfig(allowedDomains: string[]): SandboxRuntimeConfig {
  programs ??= runtimePrograms();
  return {
    ...programs,
    // Not strict: a host off the list goes to askAboutConnection, which asks the running command's
    // session or refuses; the list is still all that passes without a question.
    network: { allowedDomains, deniedDomains: [], strictAllowlist: false },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    // The library also scans the process's own folder for dotfiles to protect; ours is not the
    // workspace (whose protected paths the fence lists itself), so keep that scan shallow.
    mandatoryDenySearchDepth: 1,
  };
}

/**
 * A session that runs commands holds the runtime from its first command to its end; when the last
 * one lets go, the proxy and its socat bridges stop (they would otherwise keep `tether run` alive).
 */
export async function holdRuntime(): Promise<void> {
  holders += 1;
  if (stopping) await stopping;
}

export function letGoOfRuntime(): void {
  holders = Math.max(0, holders - 1);
  if (holders > 0 || !starting) return;
  const started = starting;
  starting = undefined;
  running.clear();
  stopping = started
    .then(async () => {
      await startedManager().reset();
      killLeftoverBridges();
    })
    .catch(() => undefined)
    .finally(() => {
      stopping = undefined;
    });
}

/**
 * The library's reset does not always end its socat bridge: it also resets itself on SIGINT, and
 * when that lands while it is still starting, it forgets the bridge it goes on to start. A live
 * bridge keeps `tether run` from exiting. Once the runtime is stopped, no bridge of ours should be
 * left: this ends this process's own socat children that serve one, by their ids.
 */
function killLeftoverBridges(): void {
  if (process.platform !== 'linux') return;
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return;
  }
  for (const entry of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (path.basename(args[0] ?? '') === 'socat' && args.some((arg) => /^UNIX-LISTEN:.*claude-(http|socks)-[0-9a-f]+\.sock/.test(arg))) {
        process.kill(Number(entry), 'SIGKILL');
      }
    } catch {
      // Gone already, or not ours to read.
    }
  }
}

/** Resolves once the runtime has stopped after its last session let go (tests wait for it). */
export function runtimeStopped(): Promise<void> {
  return stopping ?? Promise.resolve();
}

let manager: typeof SandboxManagerType | undefined;

/** The library's parts Tether calls itself, loaded with the manager. */
interface LibraryParts {
  /** The places the runtime makes writable on its own. */
  defaultWritePaths(): string[];
  /** apply-seccomp, which carries the write observer; undefined where the library has none (another architecture). */
  applySeccomp(): string | null | undefined;
  startWriteMonitor: StartWriteMonitor;
}
let parts: LibraryParts | undefined;

/**
 * The library's manager, loaded with the first command a sandbox holds: with its proxies it takes
 * tens of milliseconds to load, which a run that runs no command (or `tether sessions`) never pays.
 */
async function loadManager(): Promise<typeof SandboxManagerType> {
  if (!manager) {
    const [library, utils, seccomp, monitor] = await Promise.all([
      import('@anthropic-ai/sandbox-runtime'),
      import('@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js'),
      import('@anthropic-ai/sandbox-runtime/dist/sandbox/generate-seccomp-filter.js'),
      import('@anthropic-ai/sandbox-runtime/dist/sandbox/linux-violation-monitor.js'),
    ]);
    parts = {
      defaultWritePaths: () => utils.getDefaultWritePaths(),
      applySeccomp: () => seccomp.getApplySeccompBinaryPath(),
      startWriteMonitor: monitor.startLinuxSandboxViolationMonitor,
    };
    manager = library.SandboxManager;
  }
  return manager;
}

function libraryParts(): LibraryParts {
  if (!parts) throw new SandboxStartError('The command sandbox is used before it started; nothing was run.');
  return parts;
}

/** The manager, once started (every caller runs after ensureStarted). */
function startedManager(): typeof SandboxManagerType {
  if (!manager) throw new SandboxStartError('The command sandbox is used before it started; nothing was run.');
  return manager;
}

async function ensureStarted(): Promise<void> {
  if (stopping) await stopping;
  // A session stopped while its first command was being wrapped: starting now would leave the proxy
  // running for nobody (and keep `tether run` from exiting).
  if (holders === 0) throw new SandboxStartError('The session stopped before its sandbox started; nothing was run.');
  starting ??= loadManager()
    .then((loaded) => {
      programs = undefined;
      appliedDomains = JSON.stringify([]);
      return loaded.initialize(runtimeConfig([]), askAboutConnection);
    })
    .catch((error: unknown) => {
      starting = undefined;
      throw new SandboxStartError(
        `The command sandbox could not start: ${(error as Error).message}. Nothing was run. Check that bubblewrap, socat and ripgrep are installed and that user namespaces are enabled, then try again.`,
      );
    });
  return starting;
}

/** The allow list the proxy was last given; the same list is not given again (it is set twice a command). */
let appliedDomains: string | undefined;

function refreshNetwork(): void {
  const lists = [...running.values()].map((command) => command.domains());
  const allowed =
    lists.length === 0 ? [] : lists.reduce<string[]>((common, list) => common.filter((entry) => list.includes(entry)), [...lists[0]!]);
  const key = JSON.stringify(allowed);
  if (key === appliedDomains) return;
  startedManager().updateConfig(runtimeConfig(allowed));
  appliedDomains = key;
}

/** A host as the proxy compares it: lower case, an address in its canonical spelling (`2130706433` is 127.0.0.1). */
export function canonicalHost(host: string): string {
  return (canonicalizeHost(host) ?? host).toLowerCase();
}

/** Where a refusal the callback made is explained: the library records every one as "user denied". */
const refusals: Array<{ host: string; port: number; reason: string; at: number }> = [];
const MAX_REFUSALS = 200;

function refuse(host: string, port: number, reason: string): false {
  refusals.push({ host, port, reason, at: Date.now() });
  if (refusals.length > MAX_REFUSALS) refusals.splice(0, refusals.length - MAX_REFUSALS);
  return false;
}

/** Why the callback refused this connection, when it did (the latest refusal of that host and port by then). */
function refusalReason(host: string, port: number, at: number): string | undefined {
  for (let i = refusals.length - 1; i >= 0; i--) {
    const refusal = refusals[i]!;
    if (refusal.host === host && refusal.port === port && refusal.at <= at) return refusal.reason;
  }
  return undefined;
}

/**
 * The library's ask callback: a sandboxed process connects to a host the live allow list does not
 * allow. It is given only the host and port, so the connection is taken to be the one running
 * command's. With none running it can only be a process an ended command left behind; with commands
 * of several sessions running, whose it is cannot be told, and asking a person about a connection
 * that may not be their command's could let the wrong command through (or widen the wrong project's
 * fence): both are refused, and the command's fence hit names the reason.
 */
const askAboutConnection: SandboxAskCallback = async ({ host: requested, port: requestedPort }) => {
  const port = requestedPort ?? 0;
  const host = canonicalHost(requested);
  const commands = [...running.values()];
  if (commands.length === 0) {
    return refuse(requested, port, 'no command of this session was running when it connected: a process an earlier command left behind');
  }
  if (commands.length > 1) {
    return refuse(
      requested,
      port,
      `commands of ${commands.length} sessions were running at once and the proxy does not say whose connection this was, so nobody was asked`,
    );
  }
  const command = commands[0]!;
  // Allowed meanwhile (Allow always during this command): the list the proxy read was older.
  if (command.domains().some((entry) => matchesDomainPatternWithPort(host, port, entry))) return true;
  if (!command.ask) return refuse(requested, port, 'host is not on the allow list');
  try {
    return (await command.ask({ host, port })) || refuse(requested, port, 'denied when asked');
  } catch (error) {
    return refuse(requested, port, `the question could not be asked: ${(error as Error).message}`);
  }
};

/**
 * Compiles a fence into a profile. The runtime starts on the first call.
 *
 * Protected paths that exist are bound read-only; those that do not are left out of the runtime's
 * fence (it would cover each with a placeholder the command sees) and watched while each command
 * runs (protectedPaths.ts). The runtime's command is then fitted (runtimeCommand.ts): placeholders
 * and its own writable places out, the session's private /tmp in; on macOS, Tether's rules appended
 * to the Seatbelt profile (seatbeltRules.ts).
 */
export async function prepareProfile(fence: EffectiveFence, profileId: string): Promise<SandboxProfile> {
  await ensureStarted();
  const platform = process.platform;
  let mapped: LibraryFence;
  try {
    mapped = libraryFence(fence, platform);
  } catch (error) {
    throw new SandboxStartError(`The sandbox could not be set up for this session's fence: ${(error as Error).message}. Nothing was run.`);
  }
  const { compiled, filesystem, watched, guarded } = mapped;
  const applySeccomp = platform === 'linux' ? applySeccompPath() : undefined;
  const observer = applySeccomp
    ? await observeWrites(libraryParts().startWriteMonitor, { writable: filesystem.allowWrite, protected: compiled.denyWrite })
    : undefined;
  let supervisor: UnreadableSupervisor | undefined;
  let wrapped: string;
  let localCommand: string | undefined;
  let snapshot: Snapshot;
  try {
    snapshot = takeSnapshot(compiled);
    const library = await startedManager().wrapWithSandbox(
      NETWORK_COMMAND,
      'bash',
      { filesystem, network: { allowedDomains: fence.allowedDomains, deniedDomains: [] } },
      undefined,
      { commandId: profileId },
    );
    const dark = fence.darkHome
      ? darkHomeFor({
          home: fence.darkHome.home,
          env: process.env,
          personLit: fence.darkHome.lit,
          derivedFolder: path.join(fence.darkHome.derivedGit, profileId),
          visible: mapped.roots,
        })
      : undefined;
    if (platform === 'darwin') {
      wrapped = fitMacCommand(library, macFit(fence, mapped, libraryWritable(), dark));
    } else {
      supervisor = applySeccomp ? unreadableSupervisor(applySeccomp, fence.supervisors, profileId) : undefined;
      const fitted = fitLinuxCommand(
        library,
        linuxFit(fence, mapped, libraryWritable(), {
          ...(observer ? { socket: observer.socket } : {}),
          ...(dark ? { dark } : {}),
          ...(supervisor ? { supervisor } : {}),
        }),
      );
      const forms = profileCommands(fitted, { command: NETWORK_COMMAND, localCommand: RUN_COMMAND });
      wrapped = forms.network;
      localCommand = forms.local;
    }
  } catch (error) {
    observer?.stop();
    supervisor?.remove();
    throw new SandboxStartError(`The sandbox could not be set up for this session's fence: ${(error as Error).message}. Nothing was run.`);
  }
  let released = false;
  // When the profile's last command ended: a refusal after it, before the next began, was a process it left.
  let lastEnded: number | undefined;
  const watches = new Map<string, AbsentPathWatch>();
  return {
    command: wrapped,
    localCommand,
    isCurrent: () => !released && sameSnapshot(snapshot, compiled),
    begin(runId, ask) {
      // Mount points under the private /tmp must be folders, whatever the last command left there.
      if (platform === 'linux') for (const root of snapshot.underTmp) clearMountPath(fence.privateTmp, root);
      watches.set(runId, watchAbsentPaths(watched, fence.quarantine, guarded));
      // Read live: a host the person allows always while the session runs is in the fence from then on.
      running.set(runId, { profileId, domains: () => fence.allowedDomains, ...(ask ? { ask } : {}) });
      refreshNetwork();
      return observer?.runEnv(runId) ?? {};
    },
    end(runId, since) {
      running.delete(runId);
      refreshNetwork();
      const moved = watches.get(runId)?.close() ?? [];
      watches.delete(runId);
      const leftBehind =
        lastEnded === undefined ? [] : networkDenials(profileId, lastEnded, since).map((denial) => ({ ...denial, leftBehind: true }));
      lastEnded = Date.now();
      const writes = platform === 'darwin' ? seatbeltWrites(profileId, since) : (observer?.take(runId) ?? []);
      return { denials: [...leftBehind, ...networkDenials(profileId, since)], moved, writes };
    },
    release() {
      if (released) return;
      released = true;
      for (const watch of watches.values()) watch.close();
      watches.clear();
      observer?.stop();
      supervisor?.remove();
      if (fence.darkHome) fs.rmSync(path.join(fence.darkHome.derivedGit, profileId), { recursive: true, force: true });
      startedManager().cleanupAfterCommand();
    },
  };
}

/** The places the runtime makes writable on its own (`~/.npm/_logs`, `/tmp/claude`, …): none of them the fence's. */
function libraryWritable(): string[] {
  return libraryParts()
    .defaultWritePaths()
    .filter((entry) => !entry.startsWith('/dev/'));
}

/** The library's apply-seccomp, if it has one for this machine. */
function applySeccompPath(): string | undefined {
  try {
    return libraryParts().applySeccomp() ?? undefined;
  } catch {
    return undefined;
  }
}

/** Refused writes the Seatbelt log recorded for a profile since `since`. */
function seatbeltWrites(profileId: string, since: number): WriteAttempt[] {
  const attempts: WriteAttempt[] = [];
  for (const violation of startedManager().getSandboxViolationStore().getViolationsForCommand(profileId)) {
    if (violation.timestamp.getTime() < since) continue;
    const refused = seatbeltRefusedWrite(violation.line);
    if (refused) attempts.push({ syscall: 'write', path: refused });
  }
  return attempts;
}

/**
 * What a compiled profile depends on: whether each fenced path exists (and where it leads), and what
 * the fence's globs match (the folders they look into and the files they find). Plus the fence roots
 * under the real /tmp, whose mount points in the private /tmp are checked before each command.
 */
interface Snapshot {
  paths: Map<string, string>;
  globs: string;
  /** Git's machinery as listed (gitFence): a new entry in .git, such as `modules`, is fenced from the next command on. */
  git: string;
  underTmp: string[];
}

function takeSnapshot(fence: EffectiveFence): Snapshot {
  const literal = [
    ...fence.allowWrite,
    ...fence.denyWrite,
    ...fence.allowRead,
    fence.caches,
    ...fence.denyRead.filter((entry) => !entry.includes('*')),
  ];
  const paths = new Map(literal.map((entry) => [entry, describePath(entry)]));
  const roots = underTmp(
    [...fence.allowWrite, fence.caches, ...fence.allowRead, ...gitFence(fence.workspace).gitDirs.map(commonDirOf)],
    process.platform,
  );
  return { paths, globs: globSignature(fence), git: gitSignature(fence.workspace), underTmp: roots };
}

function sameSnapshot(snapshot: Snapshot, fence: EffectiveFence): boolean {
  for (const [entry, described] of snapshot.paths) if (describePath(entry) !== described) return false;
  return globSignature(fence) === snapshot.globs && gitSignature(fence.workspace) === snapshot.git;
}

function gitSignature(workspace: string): string {
  const git = gitFence(workspace);
  return [...git.allowWrite, '', ...git.denyWrite].join('\n');
}

function describePath(entry: string): string {
  try {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return `link:${fs.readlinkSync(entry)}`;
    return stat.isDirectory() ? 'dir' : 'file';
  } catch {
    return 'none';
  }
}

/**
 * What the fence's read-deny globs (`/ws/*\/.env*` and the like) match right now: the folders they look
 * into and the files they find there. Placeholders bubblewrap makes and removes do not change it.
 */
function globSignature(fence: EffectiveFence): string {
  const found: string[] = [];
  // The globs go one level deeper each (`ws/.env*`, `ws/*/.env*`, `ws/*/*/.env*`): each folder is read once for all of them.
  const read = new Map<string, fs.Dirent[]>();
  const entriesOf = (folder: string): fs.Dirent[] => {
    let entries = read.get(folder);
    if (entries === undefined) {
      try {
        entries = fs.readdirSync(folder, { withFileTypes: true });
      } catch {
        entries = [];
      }
      read.set(folder, entries);
    }
    return entries;
  };
  for (const glob of fence.denyRead.filter((entry) => entry.includes('*'))) found.push(...globMatches(glob, entriesOf));
  return found.sort().join('\n');
}

/** A `/root/*\/*\/name*` glob's folders (each `*` segment one level down) and the entries its last segment matches. */
function globMatches(glob: string, entriesOf: (folder: string) => fs.Dirent[]): string[] {
  const parts = glob.split(path.sep);
  const firstWild = parts.findIndex((part) => part.includes('*'));
  if (firstWild < 0) return [];
  const last = parts[parts.length - 1] ?? '';
  const matchesLast = picomatch(last, { dot: true });
  let level = [parts.slice(0, firstWild).join(path.sep) || path.sep];
  const found: string[] = [];
  const steps = parts.slice(firstWild, -1);
  for (let depth = 0; depth <= steps.length; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      for (const entry of entriesOf(folder)) {
        const full = path.join(folder, entry.name);
        if (depth === steps.length) {
          if (matchesLast(entry.name)) found.push(full);
          // Not into .git: it is write-fenced anyway, holds none of the project's secrets, and its 256
          // object folders made this look-up, which runs before every command, several times slower.
        } else if (entry.isDirectory() && entry.name !== '.git' && (steps[depth] === '*' || steps[depth] === entry.name)) {
          next.push(full);
          found.push(`${full}/`);
        }
      }
    }
    level = next;
  }
  return found;
}

const DENY_LINE = /^deny network-outbound (.+):(\d+) \((.*)\)$/;

function networkDenials(profileId: string, since: number, until = Infinity): NetworkDenial[] {
  const denials: NetworkDenial[] = [];
  for (const violation of startedManager().getSandboxViolationStore().getViolationsForCommand(profileId)) {
    const at = violation.timestamp.getTime();
    if (at < since || at >= until) continue;
    const match = DENY_LINE.exec(violation.line);
    if (!match) continue;
    const host = stripBrackets(match[1] ?? '');
    const port = Number(match[2]);
    const reason = match[3] ?? '';
    // The library records every refusal of its ask callback as "user denied"; the callback knows why.
    denials.push({ host, port, reason: reason === 'user denied' ? (refusalReason(match[1] ?? '', port, at) ?? reason) : reason });
  }
  return denials;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

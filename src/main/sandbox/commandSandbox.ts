import { withoutRuntimeNotices } from './runtimeNotices';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import type { SandboxFence, SandboxUnavailableChoice } from '../../shared/sandbox';
import { isInside } from '../workspace/filePaths';
import { checkSandboxAvailability, type SandboxAvailability } from './availability';
import { effectiveFence, type EffectiveFence } from './fence';
import { findFenceHits, type FenceHit } from './fenceHit';
import { projectFence, readSandboxSettings, writeSandboxSettings } from './fenceSettings';
import { guardGitConfig, type GitConfigGuard } from './gitConfigGuard';
import { withWritableGitConfig } from './profileCommands';
import { describeMoved } from './protectedPaths';
import {
  canonicalHost,
  COMMAND_VARIABLE,
  holdRuntime,
  letGoOfRuntime,
  prepareProfile,
  SandboxStartError,
  type NetworkRequest,
  type SandboxProfile,
} from './sandboxRuntime';
import { ensureSessionTemp, runTempDir, sessionTempDir } from './sessionTemp';
import { cacheEnvironment, cacheTrouble, ensureCacheFolders } from './toolchainCaches';
import { refusedWrites } from './writeAttempts';

export type { NetworkRequest } from './sandboxRuntime';

/**
 * One session's sandbox: its fence, worked out once when the session runs, compiled into a profile
 * on its first command and reused until the workspace changes under it. run_command goes through
 * this; the PTY runs whatever command and environment it is handed.
 */
export interface CommandSandbox {
  readonly availability: SandboxAvailability;
  /** What runs when no sandbox is available. */
  readonly unavailable: SandboxUnavailableChoice;
  readonly fence: EffectiveFence;
  /**
   * The folder the session's commands see at /tmp (and as TMPDIR), on this machine: what "open the
   * session's /tmp" opens. Absent when the sandbox is turned off (commands use the real /tmp).
   */
  readonly tempDir?: string;
  /**
   * The fence's own writable places besides the workspace, as a command names them: /tmp on Linux
   * (bound to the session's folder), the session's folder itself on macOS (TMPDIR; /tmp there is the
   * real one). None when the sandbox is turned off.
   */
  readonly commandPlaces: readonly string[];
  /**
   * Set when the person turned the sandbox off for this run (`tether run --no-sandbox`): commands run
   * with their full access and no question about it; the words say how it was turned off.
   */
  readonly off?: string;
  /**
   * Set when the managed policy requires the sandbox (`requireSandbox`): no command runs outside it,
   * not when none is available and not after a fence hit; the words say which policy.
   */
  readonly required?: string;
  /**
   * Wraps a command in the fence; throws SandboxStartError when the sandbox cannot start. `ask` is
   * asked, while the command runs, about a connection to a host the fence does not allow (once per
   * host and port for the run); without it such a connection is refused. `staysLocal`: the shell
   * analysis finds the command reaches no network, so it runs without the proxy bridges and the shells
   * that start them (profileCommands.ts); a connection it makes all the same reaches no host.
   * `plainGitConfig`: the shell analysis finds the command is one git command whose only change to
   * the config is a plain setting (shell/gitConfigRewrite.ts), so the workspace's `.git/config` is
   * writable for it, and what it changed is checked after it (gitConfigGuard.ts).
   */
  wrap(command: string, cwd: string, options?: WrapOptions): Promise<SandboxedRun>;
  /** What "Allow always" would add to the project's fence for this host, or undefined when there is no project to keep it for. */
  alwaysEntry?(host: string, port: number): string | undefined;
  /**
   * Adds an entry to the project's allowed domains in `<dataDir>/sandbox.json` (what Settings →
   * Sandbox shows) and to this session's fence, for the rest of the running command and every later one.
   */
  allowAlways?(entry: string): void;
  /** The session is over: frees the compiled profile. */
  dispose(): void;
}

export interface WrapOptions {
  ask?: ConnectionQuestion;
  staysLocal?: boolean;
  plainGitConfig?: boolean;
}

export interface SandboxedRun {
  /**
   * The shell command to run, with `env` added to its environment: the whole of a shell's script
   * (`bash -c`), as it starts with `exec`. The shell that runs it has nothing left to do after it, and
   * a shell that forks the sandbox and waits for it costs a fork and a wait per command (about 2.5 ms
   * of a trivial command's 30 here, sandbox.bench.ts).
   */
  command: string;
  env: Record<string, string>;
  /**
   * After the command ended: frees what the run held, withdraws questions still waiting, and says
   * which fences it hit, if any, from what it printed and from what the sandbox recorded (writes it
   * refused, protected paths the command made, which were moved out of the workspace). A write the
   * sandbox refused counts as a hit when the command failed (`exitCode` other than 0); when it went
   * on and succeeded, it is a note. A connection that was asked about and refused is an answer, not
   * a hit: it is not among them.
   */
  finish(output: string, exitCode?: number | null): SandboxRunOutcome;
}

export interface SandboxRunOutcome {
  /** What the command printed, less what only the sandbox made it print (runtimeNotices.ts): the output as it would be outside. Absent: as printed. */
  output?: string;
  hits: FenceHit[];
  /** What else the person and the model should know: refused writes the command got over, trouble with a cache folder. */
  notes: string[];
}

/** Asks about one connection of the running command; `signal` is aborted when the command ends (the question is withdrawn). */
export type ConnectionQuestion = (request: NetworkRequest & { signal: AbortSignal }) => Promise<boolean>;

export interface CommandSandboxOptions {
  workspace: string;
  dataDir: string;
  custom?: SandboxFence;
  unavailable?: SandboxUnavailableChoice;
  /** Why nothing may run outside the sandbox (the managed policy), when that is so. */
  required?: string;
  home?: string;
  /** The project's folder, under which "Allow always" keeps a host in `<dataDir>/sandbox.json`; without it nothing is kept. */
  projectPath?: string;
  /** The session whose private /tmp commands get (kept between its runs); without one, a folder of this sandbox's own, removed with it. */
  sessionId?: string;
  /** Hosts allowed for this run only (`tether run --allow-host`). */
  runHosts?: readonly string[];
  /** The PATH to find bubblewrap on (tests take it away). */
  pathEnv?: string;
  platform?: NodeJS.Platform;
}

export function createCommandSandbox(options: CommandSandboxOptions): CommandSandbox {
  const privateTmp = options.sessionId ? sessionTempDir(options.dataDir, options.sessionId) : runTempDir(options.dataDir);
  const fence = effectiveFence({
    workspace: options.workspace,
    dataDir: options.dataDir,
    privateTmp,
    ...(options.projectPath ? { projectPath: options.projectPath } : {}),
    ...(options.runHosts ? { runHosts: options.runHosts } : {}),
    ...(options.home ? { home: options.home } : {}),
    ...(options.custom ? { custom: options.custom } : {}),
  });
  // Probed when first asked (a command, a hook, a request that names the sandbox): a run that does
  // neither never starts the probe's process.
  let checked: SandboxAvailability | undefined;
  const availability = (): SandboxAvailability =>
    (checked ??= checkSandboxAvailability({
      ...(options.pathEnv !== undefined ? { pathEnv: options.pathEnv } : {}),
      ...(options.platform ? { platform: options.platform } : {}),
    }));
  let profile: Promise<SandboxProfile> | undefined;
  let holding = false;
  let disposed = false;
  // A call the session stopped waiting for may still reach here after the session ended: it must
  // neither run nor start the runtime again for nobody.
  const ended = () => new SandboxStartError('The session ended before this command started; nothing was run.');
  const currentProfile = async (): Promise<SandboxProfile> => {
    if (!holding) {
      holding = true;
      await holdRuntime();
    }
    if (disposed) throw ended();
    const held = profile ? await profile.catch(() => undefined) : undefined;
    if (held?.isCurrent()) return held;
    held?.release();
    profile = prepareProfile(fence, randomUUID());
    return profile;
  };
  return {
    get availability() {
      return availability();
    },
    unavailable: options.unavailable ?? 'ask',
    ...(options.required ? { required: options.required } : {}),
    fence,
    tempDir: privateTmp,
    commandPlaces: (options.platform ?? process.platform) === 'darwin' ? [privateTmp] : ['/tmp'],
    async wrap(command, cwd, runOptions) {
      const found = availability();
      if (!found.available) throw new Error(`No sandbox is available: ${found.reason}`);
      if (disposed) throw ended();
      // Made again when deleted since the last command: a command never finds them gone.
      ensureSessionTemp(fence.privateTmp);
      ensureCacheFolders(fence.caches);
      const ready = await currentProfile();
      if (disposed) throw ended();
      const runId = randomUUID();
      const since = Date.now();
      const questions = runOptions?.ask ? askedOncePerHost(runOptions.ask) : undefined;
      const form = (runOptions?.staysLocal ? ready.localCommand : undefined) ?? ready.command;
      const gitConfig = runOptions?.plainGitConfig ? writableGitConfig(form, fence.workspace) : undefined;
      const runEnv = ready.begin(runId, questions?.ask);
      let finished = false;
      return {
        command: `exec ${gitConfig?.command ?? form}`,
        env: {
          ...cacheEnvironment(fence.caches, process.env, options.home),
          ...runEnv,
          [COMMAND_VARIABLE]: command,
        },
        finish(output, exitCode) {
          questions?.withdraw();
          if (finished) return { output: withoutRuntimeNotices(output), hits: [], notes: [] };
          finished = true;
          const end = ready.end(runId, since);
          const denials = end.denials.filter((denial) => !questions?.refused(denial.host, denial.port));
          const hits = findFenceHits({ output, cwd, fence, denials, ...(options.home ? { home: options.home } : {}) });
          for (const moved of end.moved) hits.push({ fence: 'write', target: moved.path, message: describeMoved(moved, fence.workspace) });
          const notPlain = gitConfig?.guard.check() ?? [];
          if (notPlain.length > 0) hits.push({ fence: 'write', target: gitConfig!.guard.file, message: notPlainMessage(notPlain) });
          const notes = cacheTrouble(fence.caches, output);
          // In the form that leaves .git/config writable, a write there was not refused (the write
          // observer knows only the profile's lists): the guard above judged it.
          const attempts = gitConfig ? end.writes.filter((attempt) => path.normalize(attempt.path) !== gitConfig.guard.file) : end.writes;
          const refused = refusedWrites(attempts).filter(
            (target) => !hits.some((hit) => hit.fence === 'write' && isAtOrUnder(hit.target, target, fence.workspace)),
          );
          if (refused.length > 0 && exitCode !== 0 && exitCode !== undefined) {
            for (const target of refused) hits.push({ fence: 'write', target, message: refusedWriteMessage(target) });
          } else if (refused.length > 0) {
            notes.push(
              `The sandbox refused writes the command went on without: ${refused.join(', ')} (outside the places commands may write).`,
            );
          }
          return { output: withoutRuntimeNotices(output), hits, notes };
        },
      };
    },
    alwaysEntry(host, port) {
      return options.projectPath ? fenceEntryFor(host, port) : undefined;
    },
    allowAlways(entry) {
      const projectPath = options.projectPath;
      if (!projectPath) throw new Error('This session has no project whose fence could keep the host.');
      const settings = readSandboxSettings(options.dataDir);
      const current = projectFence(settings, projectPath);
      if (!current.allowedDomains.includes(entry)) {
        writeSandboxSettings(options.dataDir, {
          ...settings,
          projects: { ...settings.projects, [projectPath]: { ...current, allowedDomains: [...current.allowedDomains, entry] } },
        });
      }
      // The running profile reads the list for each connection: it holds from the next one on.
      if (!fence.allowedDomains.includes(entry)) fence.allowedDomains.push(entry);
    },
    dispose() {
      disposed = true;
      // A /tmp of no session's goes with its sandbox; a session's is kept for its next run.
      if (!options.sessionId) fs.rmSync(privateTmp, { recursive: true, force: true });
      const last = profile;
      profile = undefined;
      if (!holding) return;
      holding = false;
      void (last ?? Promise.resolve(undefined))
        .then(
          (held) => held?.release(),
          () => undefined,
        )
        .finally(letGoOfRuntime);
    },
  };
}

/** Every folder a session's commands can write, as the host sees them: the workspace, the session's /tmp, the caches, what the project adds. */
export function agentWritable(sandbox: CommandSandbox): string[] {
  return [...sandbox.fence.allowWrite, sandbox.fence.caches, ...(sandbox.tempDir ? [sandbox.tempDir] : [])];
}

/**
 * The profile's command with the workspace's `.git/config` writable, and the guard that checks it
 * after; undefined when the fence does not pin that file (no repository at the root, a worktree's
 * `.git` file, macOS), where the line runs in its ordinary form.
 */
function writableGitConfig(form: string, workspace: string): { command: string; guard: GitConfigGuard } | undefined {
  const file = path.join(workspace, '.git', 'config');
  const command = withWritableGitConfig(form, file);
  const guard = command === undefined ? undefined : guardGitConfig(file);
  return command !== undefined && guard !== undefined ? { command, guard } : undefined;
}

function notPlainMessage(settings: string[]): string {
  return `the write fence: .git/config, where the command changed ${settings.join(', ')}, settings that can decide what git runs or where it sends your work; Tether put the file back as it was`;
}

/** A write the sandbox recorded refusing, said as the fence hit it is. */
function refusedWriteMessage(target: string): string {
  return `the write fence: ${target} is outside the workspace and the other places commands may write (/tmp and Tether's toolchain caches); the sandbox refused the command's write there`;
}

/** Whether a hit's target (shown relative to the workspace, or absolute) is `target` or lies under it. */
function isAtOrUnder(shown: string, target: string, workspace: string): boolean {
  const absolute = path.resolve(workspace, shown);
  return isInside(absolute, target) || isInside(target, absolute);
}

/**
 * What "Allow always" adds to the project's fence for a connection: a name as it is, for every port
 * (`registry.npmjs.org`, the domain a person would type in Settings); an address, or `localhost`, with
 * its port, since each port of one machine is another service (`127.0.0.1:8080`, `[::1]:8080`).
 */
export function fenceEntryFor(host: string, port: number): string {
  const version = isIP(host);
  const local = host === 'localhost' || host.endsWith('.localhost');
  if (version === 6) return `[${host}]:${port}`;
  return version === 4 || local ? `${host}:${port}` : host;
}

/**
 * One question per host and port for a run: the first connection asks, the others (a command that
 * opens hundreds) wait for the same answer. Questions still waiting when the command ends are
 * withdrawn, and the proxy hears no.
 */
function askedOncePerHost(question: ConnectionQuestion) {
  const withdrawn = new AbortController();
  const asked = new Map<string, Promise<boolean>>();
  const answers = new Map<string, boolean>();
  return {
    ask(request: NetworkRequest): Promise<boolean> {
      const key = `${request.host}:${request.port}`;
      let answer = asked.get(key);
      if (!answer) {
        answer = withdrawn.signal.aborted
          ? Promise.resolve(false)
          : question({ ...request, signal: withdrawn.signal }).then(
              (allowed) => allowed && !withdrawn.signal.aborted,
              () => false,
            );
        asked.set(key, answer);
        void answer.then((allowed) => answers.set(key, allowed));
      }
      return answer;
    },
    /** Whether this host and port was asked about and refused (so its refusal is no fence hit). */
    refused(host: string, port: number): boolean {
      return answers.get(`${canonicalHost(host)}:${port}`) === false;
    },
    withdraw(): void {
      withdrawn.abort();
    },
  };
}

/**
 * The sandbox of a run the person started without one (`--no-sandbox`): every command runs with the
 * person's full access. Its fence is still worked out, so what Settings shows stays true.
 */
export function turnedOffSandbox(options: Pick<CommandSandboxOptions, 'workspace' | 'dataDir' | 'custom'>, by: string): CommandSandbox {
  return {
    availability: { available: false, reason: `the sandbox was turned off for this run (${by})` },
    unavailable: 'ask',
    fence: effectiveFence({
      workspace: options.workspace,
      dataDir: options.dataDir,
      ...(options.custom ? { custom: options.custom } : {}),
    }),
    off: by,
    commandPlaces: [],
    async wrap() {
      throw new Error(`The sandbox was turned off for this run (${by}); nothing is wrapped.`);
    },
    alwaysEntry: () => undefined,
    allowAlways() {
      throw new Error(`The sandbox was turned off for this run (${by}); it has no fence to widen.`);
    },
    dispose() {},
  };
}

import { randomUUID } from 'node:crypto';
import type { SandboxFence, SandboxUnavailableChoice } from '../../shared/sandbox';
import { checkSandboxAvailability, type SandboxAvailability } from './availability';
import { effectiveFence, type EffectiveFence } from './fence';
import { findFenceHits, type FenceHit } from './fenceHit';
import { COMMAND_VARIABLE, holdRuntime, letGoOfRuntime, prepareProfile, SandboxStartError, type SandboxProfile } from './sandboxRuntime';

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
   * Set when the person turned the sandbox off for this run (`tether run --no-sandbox`): commands run
   * with their full access and no question about it; the words say how it was turned off.
   */
  readonly off?: string;
  /** Wraps a command in the fence; throws SandboxStartError when the sandbox cannot start. */
  wrap(command: string, cwd: string): Promise<SandboxedRun>;
  /** The session is over: frees the compiled profile. */
  dispose(): void;
}

export interface SandboxedRun {
  /** The shell command to run, with `env` added to its environment. */
  command: string;
  env: Record<string, string>;
  /** After the command ended: frees what the run held and says which fences it hit, if any. */
  finish(output: string): FenceHit[];
}

export interface CommandSandboxOptions {
  workspace: string;
  dataDir: string;
  custom?: SandboxFence;
  unavailable?: SandboxUnavailableChoice;
  home?: string;
  /** The PATH to find bubblewrap on (tests take it away). */
  pathEnv?: string;
  platform?: NodeJS.Platform;
}

export function createCommandSandbox(options: CommandSandboxOptions): CommandSandbox {
  const fence = effectiveFence({
    workspace: options.workspace,
    dataDir: options.dataDir,
    ...(options.home ? { home: options.home } : {}),
    ...(options.custom ? { custom: options.custom } : {}),
  });
  const availability = checkSandboxAvailability({
    ...(options.pathEnv !== undefined ? { pathEnv: options.pathEnv } : {}),
    ...(options.platform ? { platform: options.platform } : {}),
  });
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
    availability,
    unavailable: options.unavailable ?? 'ask',
    fence,
    async wrap(command, cwd) {
      if (!availability.available) throw new Error(`No sandbox is available: ${availability.reason}`);
      if (disposed) throw ended();
      const ready = await currentProfile();
      if (disposed) throw ended();
      const runId = randomUUID();
      const since = Date.now();
      ready.begin(runId);
      let finished = false;
      return {
        command: ready.command,
        env: { [COMMAND_VARIABLE]: command },
        finish(output) {
          const denials = finished ? [] : ready.end(runId, since);
          finished = true;
          return findFenceHits({ output, cwd, fence, denials, ...(options.home ? { home: options.home } : {}) });
        },
      };
    },
    dispose() {
      disposed = true;
      const last = profile;
      profile = undefined;
      if (!holding) return;
      holding = false;
      void (last ?? Promise.resolve(undefined))
        .then((held) => held?.release(), () => undefined)
        .finally(letGoOfRuntime);
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
    fence: effectiveFence({ workspace: options.workspace, dataDir: options.dataDir, ...(options.custom ? { custom: options.custom } : {}) }),
    off: by,
    async wrap() {
      throw new Error(`The sandbox was turned off for this run (${by}); nothing is wrapped.`);
    },
    dispose() {},
  };
}

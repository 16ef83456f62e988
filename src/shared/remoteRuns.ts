import { z } from 'zod';

/**
 * Remote runs as the UI sees them: which runner a session came from, and Settings → Remote runs
 * (whether the desk accepts runs, where it listens, the runners' tokens and the rules given to them).
 * The wire between a runner and the desk is deskProtocol.ts.
 */

/** The runner a remote session runs on, as it registered. */
export const RemoteRunInfo = z.object({
  /** The runner's name: its token's. */
  runner: z.string(),
  machine: z.string(),
  repository: z.string(),
  branch: z.string(),
  /** Whether the run is connected to this desk now. */
  connected: z.boolean(),
  /** How long the run waits for an answer before it denies, in ms. */
  waitMs: z.number().int().positive(),
  /** When it was last heard from (ms since the epoch). */
  lastSeenAt: z.number(),
});
export type RemoteRunInfo = z.infer<typeof RemoteRunInfo>;

/** A runner's token, as listed: the token itself was shown once, when it was made, and is kept only hashed. */
export const RunnerTokenView = z.object({
  name: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
export type RunnerTokenView = z.infer<typeof RunnerTokenView>;

/** A rule "Allow always" gave a repository on a runner. */
export const RunnerRuleView = z.object({
  id: z.string(),
  runner: z.string(),
  repository: z.string(),
  pattern: z.string(),
  createdAt: z.number(),
});
export type RunnerRuleView = z.infer<typeof RunnerRuleView>;

/** A runner's name: what `tether desk tokens create NAME` takes. */
export const RunnerName = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/,
    'A runner name is 1 to 63 letters, digits, dots, dashes or underscores, starting with a letter or digit.',
  );

/** Where the desk listens for runners. */
export const DeskListen = z.object({
  /** 127.0.0.1 (the default, plain WebSocket: reach it through an SSH tunnel), or an address of this machine (TLS only). */
  host: z.string().trim().min(1).max(255),
  port: z.number().int().min(1).max(65535),
});
export type DeskListen = z.infer<typeof DeskListen>;

export const RemoteRunsView = z.object({
  /** Whether this desk accepts remote runs (Settings → Remote runs, or `tether serve --remote-runs`). */
  enabled: z.boolean(),
  listen: DeskListen,
  /** off, listening, or failed (with `problem`). */
  state: z.enum(['off', 'listening', 'failed']),
  /** The address a runner's `--desk` takes, while listening. */
  url: z.string().optional(),
  /** The SHA-256 fingerprint of the desk's certificate, for `--desk-fingerprint`; only when it listens with TLS. */
  fingerprint: z.string().optional(),
  problem: z.string().optional(),
  tokens: z.array(RunnerTokenView),
  rules: z.array(RunnerRuleView),
});
export type RemoteRunsView = z.infer<typeof RemoteRunsView>;

export const RemoteRunsUpdate = z.object({ enabled: z.boolean().optional(), listen: DeskListen.optional() });
export type RemoteRunsUpdate = z.infer<typeof RemoteRunsUpdate>;

/** A token just made: shown to the person once, never again. */
export const NewRunnerToken = z.object({ name: z.string(), token: z.string() });
export type NewRunnerToken = z.infer<typeof NewRunnerToken>;

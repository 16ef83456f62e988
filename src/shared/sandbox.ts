import { z } from 'zod';

/**
 * The OS sandbox every command runs in (bubblewrap on Linux, Seatbelt on macOS): what a person may
 * add to its fence per project, what the settings screen shows, and what a permission dialog says
 * about it. The built-in fence (writes only in the workspace, secrets unreadable, no network) is
 * always there; a project's fence only adds to it.
 */

/** What a person added to a project's fence. Paths are absolute or start with `~/`. */
export const SandboxFence = z.object({
  /** Folders outside the workspace that commands may write to (a cache, a build output). */
  allowWrite: z.array(z.string().min(1)).default([]),
  /** More paths inside the workspace that commands may not write to. */
  denyWrite: z.array(z.string().min(1)).default([]),
  /** More paths commands may not read (secrets the built-in list does not know). */
  denyRead: z.array(z.string().min(1)).default([]),
  /** Domains commands may reach through the proxy: `registry.npmjs.org`, `*.github.com`, `api.example.com:443`. */
  allowedDomains: z.array(z.string().min(1)).default([]),
  /** The "package registries" preset: npm, PyPI, crates.io, Go, Maven, Gradle and RubyGems reached without a question. */
  packageRegistries: z.boolean().default(false),
  /** Folders of the home folder lit for commands besides the toolchains' (`~/.config/mytool`); the rest of it is dark. */
  litHome: z.array(z.string().min(1)).optional(),
});
export type SandboxFence = z.infer<typeof SandboxFence>;

/** What happens to a command when no sandbox is available: ask the person every time, or never run it. */
export const SandboxUnavailableChoice = z.enum(['ask', 'refuse']);
export type SandboxUnavailableChoice = z.infer<typeof SandboxUnavailableChoice>;

/** The sandbox's part in a permission request. */
export const SandboxNote = z.object({
  /**
   * `fence_hit`: the command hit the fence, and this asks to run it again outside. `unavailable`: no
   * sandbox, it would run unsandboxed. `network`: the running command is connecting to a host its
   * fence does not allow, and waits for the answer (Allow always adds the host to the project's fence).
   * `outside_write`: the command writes a file outside the fence, which inside the sandbox would fail;
   * a person's allow runs it outside the sandbox, once (so a write outside asks once, not twice).
   */
  kind: z.enum(['fence_hit', 'unavailable', 'network', 'outside_write']),
  /** Which fence it hit (a path or a domain), or why no sandbox is available, in words a person can read. */
  reason: z.string(),
  /** Asked within a call that was already allowed: a yes or no about that very command, which cannot be edited. */
  followUp: z.boolean().optional(),
  /** For `network`: the host the command connects to (a name or an address) and the port. */
  host: z.string().optional(),
  port: z.number().int().nonnegative().optional(),
  /**
   * Where data would go if the person allows it. `secrets`: secret files the fence kept from the
   * command, which it reads outside it (what it prints goes back to the model, so to `provider`);
   * `sends`: what the line sends off the machine, in words ("curl sends its input to example.com").
   * Either makes keeping the command in the fence the request's default answer.
   */
  secrets: z.array(z.string()).optional(),
  sends: z.array(z.string()).optional(),
  /** The model provider the session talks to (its host), where a command's output goes. */
  provider: z.string().optional(),
});
export type SandboxNote = z.infer<typeof SandboxNote>;

/** The sandbox as the settings screen shows it for one project. */
export const SandboxView = z.object({
  available: z.boolean(),
  /** Why no sandbox is available, and what to do about it. */
  reason: z.string().optional(),
  /** What runs when none is available. */
  unavailable: SandboxUnavailableChoice,
  /** The fence every command gets, whatever the project adds (shown, not editable). */
  builtIn: z.object({
    allowWrite: z.array(z.string()),
    denyWrite: z.array(z.string()),
    denyRead: z.array(z.string()),
    /** The project's toolchain caches, in Tether's data folder (npm, pip, cargo, go, …). */
    caches: z.string().optional(),
    /** What of the home folder commands see (it is dark but for these): the toolchains' installations, and why each. */
    litHome: z.array(z.object({ path: z.string(), why: z.string() })).optional(),
  }),
  /** The hosts the package registries preset lets through, by ecosystem. */
  registries: z.array(z.object({ ecosystem: z.string(), domains: z.array(z.string()) })).optional(),
  /** What the person added for this project. */
  fence: SandboxFence,
});
export type SandboxView = z.infer<typeof SandboxView>;

export const SandboxUpdate = z.object({
  projectId: z.string(),
  fence: SandboxFence.optional(),
  unavailable: SandboxUnavailableChoice.optional(),
});
export type SandboxUpdate = z.infer<typeof SandboxUpdate>;

/** A session's private /tmp: the folder on this machine its sandboxed commands see at /tmp. */
export const SandboxTempView = z.object({
  /** Where it is on this machine (in Tether's data folder). */
  path: z.string(),
  /** Whether it exists yet (a session's first sandboxed command makes it). */
  exists: z.boolean(),
  /** Whether this session's commands run in the sandbox here; without one they see the real /tmp. */
  sandboxed: z.boolean(),
});
export type SandboxTempView = z.infer<typeof SandboxTempView>;

import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ManagedPolicyView } from '../../shared/contract';
import { OutsideContentSetting } from '../../shared/permissions';
import { PermissionSettings } from './settingsFile';

/**
 * The managed policy: a system-wide file an administrator writes, which the person's, the project's
 * and a run's settings cannot loosen. Its deny and ask rules always apply (deny beats ask beats allow
 * whatever the source), its allow rules apply, and its switches refuse what it forbids with a message
 * naming the file. A file that is there but cannot be read or understood fails closed: nothing runs
 * until it is fixed, since ignoring it would silently lift every restriction it holds.
 */

export const MANAGED_POLICY_ENV = 'TETHER_MANAGED_SETTINGS';

const ManagedPolicyFile = z.strictObject({
  permissions: PermissionSettings.optional(),
  /** `--unleashed` (allow everything that would ask) is refused. */
  disableUnleashed: z.boolean().optional(),
  /** `--no-sandbox` (commands with the person's full access) is refused. */
  disableNoSandbox: z.boolean().optional(),
  /** Commands never run outside the OS sandbox: where none is available they are refused, not asked about. */
  requireSandbox: z.boolean().optional(),
  /** The only model servers a session may talk to: base URLs, matched exactly or as a prefix ending in `/`. */
  allowedModelBaseUrls: z.array(z.url()).optional(),
  /** The least care for outside content: a person's or a run's setting below it is raised to it. */
  outsideContent: OutsideContentSetting.optional(),
  /** The only MCP servers that start, by name; any other is listed with why it did not. */
  allowedMcpServers: z.array(z.string().min(1)).optional(),
  /** Hooks in Claude Code's shape, run in every session whatever the folder's trust (hooks/hookSettings.ts reads them). */
  hooks: z.record(z.string(), z.unknown()).optional(),
});

export type ManagedPolicySettings = z.infer<typeof ManagedPolicyFile>;

export interface ManagedPolicy extends ManagedPolicySettings {
  /** Where it was read from, for every message that names it. */
  file: string;
}

/** The policy file cannot be used; every session refuses to start until it is fixed. */
export class ManagedPolicyError extends Error {
  override readonly name = 'ManagedPolicyError';
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`The managed policy ${file} ${problem} Nothing runs until it is fixed (ask whoever manages this machine).`);
  }
}

/**
 * Where the policy is on this machine: the platform's system-wide file whenever it exists, else the
 * file `TETHER_MANAGED_SETTINGS` names (for machines where nobody can write the system place, and for
 * tests). The variable never replaces a system file: anything that can set an environment variable
 * (an `.envrc` the agent wrote, a terminal profile) could otherwise point it at `{}` and lift every rule.
 */
export function managedPolicyPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  return choosePolicyFile(systemPolicyPath(env, platform), namedByEnvironment(env) ? env[MANAGED_POLICY_ENV] : undefined);
}

/** The system file when it may exist; the named one only in its absence. */
export function choosePolicyFile(system: string, named: string | undefined): string {
  return named === undefined || systemFileMayExist(system) ? system : path.resolve(named);
}

/** The platform's system-wide place, which only an administrator can write. */
function systemPolicyPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/Tether/managed-settings.json';
  if (platform === 'win32') return path.win32.join(env['ProgramData'] ?? 'C:\\ProgramData', 'Tether', 'managed-settings.json');
  return '/etc/tether/managed-settings.json';
}

/**
 * True unless the file is surely absent. A place that cannot be looked at (a folder without search
 * permission, an I/O error) may hold the policy: it is then read, and fails closed, rather than
 * letting the variable stand in for it.
 */
function systemFileMayExist(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

function namedByEnvironment(env: NodeJS.ProcessEnv): boolean {
  return (env[MANAGED_POLICY_ENV] ?? '').trim() !== '';
}

/** The machine's policy, or undefined when there is none; throws ManagedPolicyError when it is there and unusable. */
export function readManagedPolicy(file: string = managedPolicyPath()): ManagedPolicy | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Named through the environment and missing is a mistake (a typo must not lift the policy); the system path missing is no policy.
    if (code === 'ENOENT' && !namedByEnvironment(process.env)) return undefined;
    if (code === 'ENOENT' && file === systemPolicyPath()) return undefined;
    if (code === 'ENOENT') throw new ManagedPolicyError(file, `(named by ${MANAGED_POLICY_ENV}) does not exist.`);
    throw new ManagedPolicyError(file, `cannot be read (${(error as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ManagedPolicyError(file, `is not valid JSON (${(error as Error).message}).`);
  }
  const parsed = ManagedPolicyFile.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the top level';
      return issue.code === 'unrecognized_keys'
        ? `${where} has unknown key(s) ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`
        : `${where}: ${issue.message}`;
    });
    throw new ManagedPolicyError(file, `is not a valid policy: ${problems.join('; ')}.`);
  }
  return { ...parsed.data, file };
}

/** Whether the policy lets a session talk to the model server at `baseUrl`. */
export function modelBaseUrlAllowed(policy: ManagedPolicy | undefined, baseUrl: string): boolean {
  const allowed = policy?.allowedModelBaseUrls;
  if (!allowed) return true;
  const wanted = baseUrl.replace(/\/+$/, '');
  return allowed.some((entry) => {
    const base = entry.replace(/\/+$/, '');
    return wanted === base || wanted.startsWith(`${base}/`);
  });
}

const CARE: readonly OutsideContentSetting[] = ['off', 'ask', 'block'];

/** The setting a session gets: the person's or the run's, raised to the policy's floor. */
export function outsideContentWithFloor(policy: ManagedPolicy | undefined, setting: OutsideContentSetting): OutsideContentSetting {
  return atLeast(setting, policy?.outsideContent);
}

/** `setting`, or `floor` when that takes more care. */
export function atLeast(setting: OutsideContentSetting, floor: OutsideContentSetting | undefined): OutsideContentSetting {
  return floor !== undefined && CARE.indexOf(floor) > CARE.indexOf(setting) ? floor : setting;
}

/** Why the policy keeps the MCP server `name` from starting, naming the file; undefined when it may start. */
export function mcpServerRefusal(policy: ManagedPolicy | undefined, name: string): string | undefined {
  const allowed = policy?.allowedMcpServers;
  if (!policy || !allowed || allowed.includes(name)) return undefined;
  return `Not started: the managed policy ${policy.file} allows only the MCP servers ${allowed.join(', ') || '(none)'}.`;
}

/** What a run asks for that the policy may refuse. */
export interface RunRequest {
  unleashed: boolean;
  noSandbox: boolean;
  baseUrl: string;
}

/** Why the policy refuses unleashed mode (a run's --unleashed, or a session switched to it in the app); undefined when it allows it. */
export function unleashedRefusal(policy: ManagedPolicy | undefined): string | undefined {
  return policy?.disableUnleashed ? `--unleashed is turned off by the managed policy ${policy.file} (disableUnleashed).` : undefined;
}

/** Why the policy refuses this run, naming the policy file; undefined when it may go ahead. */
export function policyRefusal(policy: ManagedPolicy | undefined, run: RunRequest): string | undefined {
  if (!policy) return undefined;
  if (run.unleashed && policy.disableUnleashed) return unleashedRefusal(policy);
  if (run.noSandbox && (policy.disableNoSandbox || policy.requireSandbox)) {
    const switchName = policy.disableNoSandbox ? 'disableNoSandbox' : 'requireSandbox';
    return `--no-sandbox is turned off by the managed policy ${policy.file} (${switchName}).`;
  }
  if (!modelBaseUrlAllowed(policy, run.baseUrl)) {
    return `The model server ${run.baseUrl} is not allowed by the managed policy ${policy.file}; it allows ${(policy.allowedModelBaseUrls ?? []).join(', ')}.`;
  }
  return undefined;
}

/** What the policy fixes, one line each, as Settings lists it. */
function managedPolicyFixes(policy: ManagedPolicy): string[] {
  const fixes: string[] = [];
  const rules = policy.permissions ?? {};
  for (const action of ['deny', 'ask', 'allow'] as const) {
    const list = rules[action] ?? [];
    if (list.length > 0) fixes.push(`${action} rules that always apply: ${list.join(', ')}`);
  }
  if (policy.disableUnleashed) fixes.push('unleashed runs (--unleashed) are turned off');
  if (policy.disableNoSandbox) fixes.push('runs with no sandbox (--no-sandbox) are turned off');
  if (policy.requireSandbox) fixes.push('commands always run in the sandbox');
  if (policy.allowedModelBaseUrls) fixes.push(`model servers allowed: ${policy.allowedModelBaseUrls.join(', ') || 'none'}`);
  if (policy.outsideContent) fixes.push(`after reading outside content: at least "${policy.outsideContent}"`);
  if (policy.allowedMcpServers) fixes.push(`MCP servers allowed: ${policy.allowedMcpServers.join(', ') || 'none'}`);
  const hookEvents = Object.keys(policy.hooks ?? {});
  if (hookEvents.length > 0) fixes.push(`hooks that always run: ${hookEvents.join(', ')}`);
  return fixes;
}

/** The policy as Settings shows it; a policy that cannot be used is shown with why, so the person knows why nothing runs. */
export function managedPolicyView(): ManagedPolicyView | undefined {
  try {
    const policy = readManagedPolicy();
    if (!policy) return undefined;
    return {
      file: policy.file,
      fixes: managedPolicyFixes(policy),
      ...(policy.outsideContent ? { outsideContentFloor: policy.outsideContent } : {}),
      ...(policy.disableUnleashed ? { unleashedDisabled: true } : {}),
    };
  } catch (error) {
    if (!(error instanceof ManagedPolicyError)) throw error;
    return { file: error.file, fixes: [], problem: error.message };
  }
}

/** Why the policy refuses a change to the person's settings (a model server it does not list, less care than its floor). */
export function settingsChangeRefusal(change: { baseUrl?: string; outsideContent?: OutsideContentSetting }): string | undefined {
  const policy = readManagedPolicy();
  if (!policy) return undefined;
  if (change.baseUrl !== undefined && change.baseUrl !== '' && !modelBaseUrlAllowed(policy, change.baseUrl)) {
    return `The model server ${change.baseUrl} is not allowed by the managed policy ${policy.file}; it allows ${(policy.allowedModelBaseUrls ?? []).join(', ')}.`;
  }
  if (change.outsideContent !== undefined && outsideContentWithFloor(policy, change.outsideContent) !== change.outsideContent) {
    return `The managed policy ${policy.file} sets at least "${policy.outsideContent}" after reading outside content.`;
  }
  return undefined;
}

import picomatch from 'picomatch';
import { z } from 'zod';
import { withGitGuard } from '../workspace/gitGuard';

/**
 * The environment a command starts with: Tether's own, less every secret in it. A command's output
 * goes to the model, and a command may reach the network, so an API key in the environment is an API
 * key in the model's hands (`printenv`). Secrets are recognised by name (…KEY, …TOKEN, AWS_…) and by
 * value (a URL with a password, a token with a known prefix), and Tether's own key variables never
 * pass, whatever the settings say. Filtered here, at the source, rather than inside the sandbox, so
 * that a run with the sandbox turned off or a command run again outside it is covered too.
 *
 * The person shapes it with `shellEnvironment` in their settings, as Codex's
 * `shell_environment_policy` does: which variables to start from (`inherit`), more to leave out
 * (`exclude`), secrets to let through on purpose (`include`: the door opened for that one variable),
 * and values to set (`set`). Whatever it says, git's guard (GIT_GUARD: no core.fsmonitor, no bare
 * repository entered by discovery) is added as command-line config (GIT_CONFIG_COUNT).
 */

/** Tether's own keys: never given to a command, a hook or a server. */
export const TETHER_KEY_VARIABLES = ['TETHER_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GLOO_API_KEY'] as const;

/** What `inherit: core` keeps: enough for programs to find themselves, their home and a locale. */
const CORE_VARIABLES = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'USER',
  'USERNAME',
  'TMPDIR',
  'TEMP',
  'TMP',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TZ',
];

/** A name that says it holds a secret. */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|PRIVATE/i;

/**
 * Cloud, registry and database variables that carry credentials without saying so in their name:
 * AWS_*, AZURE_*, ARM_*, GOOGLE_APPLICATION_CREDENTIALS, GOOGLE_GHA_CREDS_PATH, CLOUDSDK_*, GCLOUD_*,
 * TF_VAR_*, VAULT_*, DATABASE_URL, *_DATABASE_URL, *_DSN, PGPASS*, MYSQL_PWD, REDIS_URL, MONGO*_URI.
 * One expression rather than globs: compiling these globs was some 4 ms of every run's start.
 */
const CREDENTIAL_NAME =
  /^(?:(?:AWS|AZURE|ARM|CLOUDSDK|GCLOUD|TF_VAR|VAULT)_.*|GOOGLE_APPLICATION_CREDENTIALS|GOOGLE_GHA_CREDS_PATH|(?:.*_)?DATABASE_URL|.*_DSN|PGPASS.*|MYSQL_PWD|REDIS_URL|MONGO.*_URI)$/is;

/** Values that are credentials whatever they are called. */
const SECRET_VALUES = [
  // A URL with a password in it: postgres://user:pass@host/db, https://user:token@git.example.
  /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(?:sk|rk)-[A-Za-z0-9_-]{20,}/,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{35}\b/,
  /\bnpm_[A-Za-z0-9]{36}\b/,
  /\bhf_[A-Za-z0-9]{30,}\b/,
  /\bsk_(?:live|test)_[A-Za-z0-9]{16,}/,
];

const VariableName = z.string().regex(/^[^=\0]+$/, 'a variable name has no "=" in it');
const notTetherKey = (name: string) => !(TETHER_KEY_VARIABLES as readonly string[]).includes(name.toUpperCase());
const tetherKeyMessage = (field: string) => ({
  message: `${field} names one of Tether's own API key variables (${TETHER_KEY_VARIABLES.join(', ')}); commands never get those.`,
});

export const ShellEnvironment = z.strictObject({
  /** Where to start: all of Tether's environment (the default), only the core variables, or nothing. */
  inherit: z.enum(['all', 'core', 'none']).optional(),
  /** More variables to leave out, as case-insensitive globs (`MY_*`). */
  exclude: z.array(z.string().min(1)).optional(),
  /** Variables to let through although they look like secrets, as case-insensitive globs: a door opened on purpose. */
  include: z.array(z.string().min(1).refine(notTetherKey, tetherKeyMessage('include'))).optional(),
  /** Variables to set, whatever else says. */
  set: z.record(VariableName.refine(notTetherKey, tetherKeyMessage('set')), z.string()).optional(),
});
export type ShellEnvironment = z.infer<typeof ShellEnvironment>;

export interface CommandEnvironment {
  env: Record<string, string>;
  /** The names left out as secrets (never their values), for a person to read. */
  withheld: string[];
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || CREDENTIAL_NAME.test(name);
}

export function looksLikeSecretValue(value: string): boolean {
  return SECRET_VALUES.some((pattern) => pattern.test(value));
}

export function commandEnvironment(source: NodeJS.ProcessEnv, policy: ShellEnvironment = {}): CommandEnvironment {
  const inherit = policy.inherit ?? 'all';
  const env: Record<string, string> = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (inherit === 'none' || (inherit === 'core' && !CORE_VARIABLES.includes(name))) continue;
    if (matchesAny(name, policy.exclude ?? [])) continue;
    // GIT_CONFIG_KEY_n holds a config key's name (`http.extraHeader`), never a secret; its value is looked at.
    const secretName = isSecretName(name) && !/^GIT_CONFIG_KEY_\d+$/.test(name);
    const secret = !notTetherKey(name) || secretName || looksLikeSecretValue(value);
    if (secret && !(notTetherKey(name) && matchesAny(name, policy.include ?? []))) {
      withheld.push(name);
      continue;
    }
    env[name] = value;
  }
  Object.assign(env, policy.set ?? {});
  // Whatever the settings say: every git a command runs starts no fsmonitor and enters no bare repository it stumbles on.
  withGitGuard(env);
  return { env, withheld: withheld.sort() };
}

function matchesAny(name: string, globs: readonly string[]): boolean {
  return globs.length > 0 && matcherFor(globs)(name);
}

/**
 * Globs compiled once per list: every git call and every command filters the whole environment, and
 * compiling the credential globs for each variable cost milliseconds a call (picomatch.isMatch
 * compiles on every call). Keyed by the list's contents, as settings are read anew for each run.
 */
const matchers = new Map<string, (name: string) => boolean>();
function matcherFor(globs: readonly string[]): (name: string) => boolean {
  const key = globs.join('\0');
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = picomatch(globs as string[], { nocase: true, dot: true });
    matchers.set(key, matcher);
  }
  return matcher;
}

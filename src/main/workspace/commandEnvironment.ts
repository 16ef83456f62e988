import picomatch from 'picomatch';
import { z } from 'zod';
import { withGitGuard } from './gitGuard';

/**
 * The environment a command starts with: dark by default. A command's output goes to the model, and a
 * command may reach the network, so whatever is in its environment is in the model's hands
 * (`printenv`); and a list of secret names is always one name short (GH_PAT, STRIPE_SK, DB_PASS,
 * SLACK_WEBHOOK_URL). So a command gets a known set, what work needs (LIT_NAMES and LIT_PATTERNS: to
 * find programs, the home folder, a locale and a terminal; the toolchains' own location and registry
 * variables; CI markers; git's identity and the config the person passes it), plus what the person
 * lights in `shellEnvironment.include`. Even then, a value that looks like a credential (a URL with a
 * password, `Password=` in a connection string, a PEM block, a JWT, a token with a known prefix) or a
 * name that says it holds one (…KEY, …TOKEN, …PASS, AWS_…) passes only when the person names that
 * variable exactly: a glob never opens that door. Tether's own key variables never pass. Filtered here,
 * at the source, rather than inside the sandbox, so that a run with the sandbox turned off or a
 * command run again outside it is covered too; hooks get the same, and MCP servers less.
 *
 * The person shapes it with `shellEnvironment` in their settings, as Codex's
 * `shell_environment_policy` does: which variables to start from (`inherit`: "core", the known set,
 * by default; "all" lights every variable, "none" none), more to leave out (`exclude`), more to light
 * (`include`), and values to set (`set`). Whatever it says, git's guard (GIT_GUARD: no core.fsmonitor,
 * no bare repository entered by discovery) is added as command-line config (GIT_CONFIG_COUNT).
 */

/** Tether's own keys: never given to a command, a hook or a server. */
export const TETHER_KEY_VARIABLES = ['TETHER_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GLOO_API_KEY'] as const;

/** What every program needs to find itself, its home, a locale and a terminal. */
const BASE_NAMES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'USERNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'LANG',
  'LANGUAGE',
  'HOSTNAME',
  'EDITOR',
  'VISUAL',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_CONFIG_DIRS',
  'XDG_DATA_DIRS',
];

/**
 * Where a toolchain or its packages are installed, where its headers and libraries are, and which
 * certificates it trusts: without them `node`, `python`, `go`, `cargo`, `java` and `cc` find the wrong
 * installation or none.
 */
const TOOLCHAIN_NAMES = [
  'JAVA_HOME',
  'JDK_HOME',
  'GRADLE_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'ANDROID_NDK_HOME',
  'GOROOT',
  'GOPATH',
  'GOBIN',
  'GOFLAGS',
  'GOTOOLCHAIN',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'NVM_DIR',
  'NVM_BIN',
  'NVM_INC',
  'VOLTA_HOME',
  'FNM_DIR',
  'BUN_INSTALL',
  'DENO_INSTALL',
  'DENO_DIR',
  'PNPM_HOME',
  'COREPACK_HOME',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'CONDA_EXE',
  'PIPX_HOME',
  'PIPX_BIN_DIR',
  'POETRY_HOME',
  'RBENV_ROOT',
  'RBENV_VERSION',
  'GEM_HOME',
  'GEM_PATH',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'MISE_DATA_DIR',
  'MISE_CONFIG_DIR',
  'SDKMAN_DIR',
  'DOTNET_ROOT',
  'OPAMROOT',
  'JULIA_DEPOT_PATH',
  'PERL5LIB',
  'PERL_LOCAL_LIB_ROOT',
  'PKG_CONFIG_PATH',
  'LD_LIBRARY_PATH',
  'LIBRARY_PATH',
  'CPATH',
  'C_INCLUDE_PATH',
  'CPLUS_INCLUDE_PATH',
  'CC',
  'CXX',
  'MANPATH',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  // Which registry or mirror a package manager uses (a company's); a URL with a password in it is still withheld.
  'npm_config_registry',
  'NPM_CONFIG_REGISTRY',
  'YARN_NPM_REGISTRY_SERVER',
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'PIP_TRUSTED_HOST',
  'UV_INDEX_URL',
  'UV_EXTRA_INDEX_URL',
  'UV_DEFAULT_INDEX',
  'GOPROXY',
  'GOPRIVATE',
  'GONOSUMDB',
  'GONOPROXY',
  'GOSUMDB',
];

/** CI markers: tools behave as on a build machine (no prompts, plain output) when these say so. */
const CI_NAMES = ['CI', 'CONTINUOUS_INTEGRATION', 'GITHUB_ACTIONS', 'GITLAB_CI', 'BUILDKITE', 'CIRCLECI', 'TRAVIS', 'TF_BUILD'];

/** git's identity and dates, the build date reproducible builds read, and config the person passes git (each value is still looked at). */
const GIT_NAMES = [
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'SOURCE_DATE_EPOCH',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
];

const LIT_NAMES = new Set([...BASE_NAMES, ...TOOLCHAIN_NAMES, ...CI_NAMES, ...GIT_NAMES].map((name) => name.toUpperCase()));
/** The locale's categories and git's config pairs. */
const LIT_PATTERNS = [/^LC_[A-Z]+$/, /^GIT_CONFIG_(?:KEY|VALUE)_\d+$/];

/** Whether `inherit: core` (the default) starts a command with this variable. */
export function litByDefault(name: string): boolean {
  return LIT_NAMES.has(name.toUpperCase()) || LIT_PATTERNS.some((pattern) => pattern.test(name.toUpperCase()));
}

/**
 * A name that says it holds a secret: a word for one (KEY, SECRET, TOKEN, a password, a webhook, a
 * signing or session credential) or a short form as a whole part of the name (`DB_PASS`, `GH_PAT`,
 * `STRIPE_SK`, `MYSQL_PWD`). `PWD` and `OLDPWD` alone are the shell's folders.
 */
const SECRET_NAME =
  /KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH(?!OR(?:S|ITY)?(?:_|$))|COOKIE|PRIVATE|WEBHOOK|SIGNING|(?:^|_)(?:PASS|PWD|PAT|SK|DSN|SALT|CERT_PASS)(?:$|_)/i;

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
  // A connection string's password: Server=db;User Id=app;Password=…; or pwd=….
  /(?:^|[;\s])(?:password|pwd)\s*=\s*[^;\s]/i,
  // A PEM block of any kind (a private key, a certificate with its key).
  /-----BEGIN [A-Z0-9 ]+-----/,
  // A JSON Web Token: three base64url parts, the first two JSON objects.
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  // A URL that is itself the credential: Slack and Discord webhooks, a signed or token-bearing query.
  /hooks\.slack\.com\/(?:services|workflows)\//i,
  /discord(?:app)?\.com\/api\/webhooks\//i,
  /[?&](?:token|access_token|api_key|apikey|key|sig|signature|X-Amz-Signature|X-Goog-Signature)=[^&\s]{8,}/i,
  /\b(?:sk|rk)-[A-Za-z0-9_-]{20,}/,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{20,}/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{35}\b/,
  /\bya29\.[0-9A-Za-z_-]{20,}/,
  /\bnpm_[A-Za-z0-9]{36}\b/,
  /\bpypi-AgE[A-Za-z0-9_-]{20,}/,
  /\bhf_[A-Za-z0-9]{30,}\b/,
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/,
  /\bshp(?:at|ss|ca|pa)_[A-Fa-f0-9]{32}\b/,
  /\bdop_v1_[a-f0-9]{64}\b/,
  /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/,
];

const VariableName = z.string().regex(/^[^=\0]+$/, 'a variable name has no "=" in it');
const notTetherKey = (name: string) => !(TETHER_KEY_VARIABLES as readonly string[]).includes(name.toUpperCase());
const tetherKeyMessage = (field: string) => ({
  message: `${field} names one of Tether's own API key variables (${TETHER_KEY_VARIABLES.join(', ')}); commands never get those.`,
});

export const ShellEnvironment = z.strictObject({
  /** Where to start: the known set work needs (the default), all of Tether's environment, or nothing. */
  inherit: z.enum(['all', 'core', 'none']).optional(),
  /** More variables to leave out, as case-insensitive globs (`MY_*`). */
  exclude: z.array(z.string().min(1)).optional(),
  /** More variables to light, as case-insensitive globs; one that looks like a secret passes only when named exactly: a door opened on purpose. */
  include: z.array(z.string().min(1).refine(notTetherKey, tetherKeyMessage('include'))).optional(),
  /** Variables to set, whatever else says. */
  set: z.record(VariableName.refine(notTetherKey, tetherKeyMessage('set')), z.string()).optional(),
});
export type ShellEnvironment = z.infer<typeof ShellEnvironment>;

export interface CommandEnvironment {
  env: Record<string, string>;
  /** The names that look like secrets and were left out (never their values), for a person to read. */
  withheld: string[];
}

export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper === 'PWD' || upper === 'OLDPWD') return false;
  return SECRET_NAME.test(name) || CREDENTIAL_NAME.test(name);
}

export function looksLikeSecretValue(value: string): boolean {
  return SECRET_VALUES.some((pattern) => pattern.test(value));
}

export function commandEnvironment(source: NodeJS.ProcessEnv, policy: ShellEnvironment = {}): CommandEnvironment {
  const inherit = policy.inherit ?? 'core';
  const include = policy.include ?? [];
  const named = new Set(include.map((entry) => entry.toUpperCase()));
  const env: Record<string, string> = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    // GIT_CONFIG_KEY_n holds a config key's name (`http.extraHeader`), never a secret; its value is looked at.
    const secretName = isSecretName(name) && !/^GIT_CONFIG_KEY_\d+$/.test(name);
    const secret = !notTetherKey(name) || secretName || looksLikeSecretValue(value);
    const lit = inherit === 'all' || (inherit === 'core' && litByDefault(name)) || matchesAny(name, include);
    // A secret passes only when the person names it exactly; Tether's own keys never.
    const passes = lit && !matchesAny(name, policy.exclude ?? []) && (!secret || (notTetherKey(name) && named.has(name.toUpperCase())));
    if (passes) env[name] = value;
    else if (secret) withheld.push(name);
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

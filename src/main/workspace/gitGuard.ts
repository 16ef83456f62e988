/**
 * Config every git gets that Tether runs or lets a command run, whatever a repository's own config
 * says: `core.fsmonitor` names a program git runs on status and diff, and a bare repository committed
 * inside a project (or any folder that looks like one) brings a config of its own, which
 * `safe.bareRepository=explicit` keeps git from entering unless it is named with --git-dir or GIT_DIR.
 * Given as command-line config (`-c` for Tether's own git, GIT_CONFIG_COUNT for commands), which wins
 * over every config file.
 */
export const GIT_GUARD: ReadonlyArray<readonly [key: string, value: string]> = [
  ['core.fsmonitor', 'false'],
  ['safe.bareRepository', 'explicit'],
];

/**
 * Adds GIT_GUARD to an environment as command-line config: after the GIT_CONFIG_KEY_n/VALUE_n pairs
 * already there (the last value of a key wins, and nothing the person set is lost), and after what
 * GIT_CONFIG_PARAMETERS holds when it is set (git reads it after the numbered pairs). A pair with a
 * half missing (a value withheld as a secret) would stop every git ("missing config value"): it is
 * left out, and the pairs after it are numbered on.
 */
export function withGitGuard(env: Record<string, string>): Record<string, string> {
  const present = (env.GIT_CONFIG_COUNT ?? '').trim();
  // A count git cannot read makes every git fail anyway ("bogus count"); then only the guard is counted.
  const count = /^\d+$/.test(present) ? Number(present) : 0;
  const pairs: Array<readonly [string, string]> = [];
  for (let index = 0; index < count; index++) {
    const key = env[`GIT_CONFIG_KEY_${index}`];
    const value = env[`GIT_CONFIG_VALUE_${index}`];
    if (key !== undefined && value !== undefined) pairs.push([key, value]);
  }
  for (const name of Object.keys(env)) if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete env[name];
  [...pairs, ...GIT_GUARD].forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(pairs.length + GIT_GUARD.length);
  if (env.GIT_CONFIG_PARAMETERS !== undefined) {
    const guard = GIT_GUARD.map(([key, value]) => `'${key}'='${value}'`).join(' ');
    env.GIT_CONFIG_PARAMETERS = env.GIT_CONFIG_PARAMETERS.trim() ? `${env.GIT_CONFIG_PARAMETERS} ${guard}` : guard;
  }
  return env;
}

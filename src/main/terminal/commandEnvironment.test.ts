import { describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import { commandEnvironment, isSecretName, looksLikeSecretValue, ShellEnvironment } from './commandEnvironment';

/** What every command gets besides: git's guard, as command-line config. */
const GUARD = {
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'safe.bareRepository',
  GIT_CONFIG_VALUE_1: 'explicit',
};
const withoutGuard = (env: Record<string, string>) =>
  Object.keys(env)
    .filter((name) => !name.startsWith('GIT_CONFIG_'))
    .sort();

const host = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/ada',
  LANG: 'en_GB.UTF-8',
  EDITOR: 'vim',
  TETHER_API_KEY: 'tk-live-1',
  OPENAI_API_KEY: 'sk-proj-abcdefghijklmnopqrstuvwx',
  GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  NPM_TOKEN: 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
  npm_config__authToken: 'abc',
  AWS_REGION: 'eu-west-1',
  AWS_SECRET_ACCESS_KEY: 'x',
  AZURE_CLIENT_ID: 'y',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/ada/gcp.json',
  DATABASE_URL: 'postgres://app:hunter2@db/app',
  SENTRY_DSN: 'https://key@o1.ingest.sentry.io/1',
  SSH_AUTH_SOCK: '/run/user/1000/ssh-agent',
  SESSION_COOKIE: 'c',
  DB_PASSWD: 'p',
  TF_VAR_db_password: 'p',
  // Named innocently, but the value gives it away.
  UPSTREAM: 'https://ada:s3cret@git.example.com/repo.git',
  SLACK_HOOK_BODY: 'xoxb-1234567890-abcdefghij',
  STRIPE: 'sk_live_abcdefghijklmnopqrstu',
  AMAZON_ID: 'AKIAABCDEFGHIJKLMNOP',
};

describe('the environment commands start with', () => {
  it('leaves out every secret, by name and by value, and keeps the rest', () => {
    const { env, withheld } = commandEnvironment(host);
    expect(withoutGuard(env)).toEqual(['EDITOR', 'HOME', 'LANG', 'PATH']);
    expect(withheld).toHaveLength(Object.keys(host).length - 4);
    expect(JSON.stringify(env)).not.toMatch(/hunter2|s3cret|ghp_|sk-|xoxb|AKIA/);
  });

  it('says which names it withheld, never their values', () => {
    const { withheld } = commandEnvironment(host);
    expect(withheld).toContain('GITHUB_TOKEN');
    expect(withheld.join(' ')).not.toContain('ghp_');
  });

  it('lets a secret through only when the person includes it, and never one of Tether’s own keys', () => {
    const { env } = commandEnvironment(host, { include: ['GITHUB_TOKEN', 'aws_*'] });
    expect(env.GITHUB_TOKEN).toBe(host.GITHUB_TOKEN);
    expect(env.AWS_REGION).toBe('eu-west-1');
    expect(env.TETHER_API_KEY).toBeUndefined();
    expect(commandEnvironment(host, { include: ['*'] }).env.OPENAI_API_KEY).toBeUndefined();
    expect(ShellEnvironment.safeParse({ include: ['OPENAI_API_KEY'] }).error?.issues[0]?.message).toMatch(/Tether's own API key variables/);
    expect(ShellEnvironment.safeParse({ set: { tether_api_key: 'x' } }).success).toBe(false);
  });

  it('inherits only the core variables, or nothing, when told', () => {
    expect(withoutGuard(commandEnvironment(host, { inherit: 'core' }).env)).toEqual(['HOME', 'LANG', 'PATH']);
    expect(commandEnvironment(host, { inherit: 'none', set: { CI: '1' } }).env).toEqual({ CI: '1', ...GUARD });
  });

  it('gives every command git’s guard, after the config the person set, whatever the settings leave out', () => {
    expect(commandEnvironment(host, { exclude: ['GIT_*'] }).env).toMatchObject(GUARD);
    const theirs = {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: './watch',
      GIT_CONFIG_PARAMETERS: "'color.ui'='never'",
    };
    const { env } = commandEnvironment({ ...host, ...theirs });
    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: './watch',
      GIT_CONFIG_KEY_1: 'core.fsmonitor',
      GIT_CONFIG_VALUE_1: 'false',
      GIT_CONFIG_KEY_2: 'safe.bareRepository',
      GIT_CONFIG_VALUE_2: 'explicit',
      GIT_CONFIG_PARAMETERS: "'color.ui'='never' 'core.fsmonitor'='false' 'safe.bareRepository'='explicit'",
    });
    expect(commandEnvironment({}, { set: { GIT_CONFIG_COUNT: '0' } }).env).toEqual(GUARD);
    // A pair whose value is a secret is withheld whole, and the pairs after it keep counting.
    const header = {
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Bearer ${host.GITHUB_TOKEN}`,
      GIT_CONFIG_KEY_1: 'color.ui',
      GIT_CONFIG_VALUE_1: 'never',
    };
    const withHeader = commandEnvironment(header);
    expect(withHeader.withheld).toEqual(['GIT_CONFIG_VALUE_0']);
    expect(withHeader.env).toEqual({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_0: 'color.ui',
      GIT_CONFIG_VALUE_0: 'never',
      GIT_CONFIG_KEY_1: 'core.fsmonitor',
      GIT_CONFIG_VALUE_1: 'false',
      GIT_CONFIG_KEY_2: 'safe.bareRepository',
      GIT_CONFIG_VALUE_2: 'explicit',
    });
  });

  it('leaves out more on request, matching case-insensitively, and sets what it is told last', () => {
    const { env } = commandEnvironment(host, { exclude: ['edit*'], set: { PATH: '/opt/bin' } });
    expect(env.EDITOR).toBeUndefined();
    expect(env.PATH).toBe('/opt/bin');
  });

  it('recognises the credential variables as the globs that list them do, near misses included', () => {
    // The list as globs, as the person reads it in commandEnvironment.ts; the code holds it as one expression.
    const globs = [
      'AWS_*',
      'AZURE_*',
      'ARM_*',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'GOOGLE_GHA_CREDS_PATH',
      'CLOUDSDK_*',
      'GCLOUD_*',
      'TF_VAR_*',
      'VAULT_*',
      'DATABASE_URL',
      '*_DATABASE_URL',
      '*_DSN',
      'PGPASS*',
      'MYSQL_PWD',
      'REDIS_URL',
      'MONGO*_URI',
    ];
    const listed = picomatch(globs, { nocase: true, dot: true });
    const names = [
      ...['AWS_REGION', 'aws_profile', 'AZURE_TENANT', 'ARM_SUBSCRIPTION', 'GOOGLE_APPLICATION_CREDENTIALS', 'google_gha_creds_path'],
      ...['CLOUDSDK_CORE_PROJECT', 'GCLOUD_PROJECT', 'TF_VAR_region', 'VAULT_ADDR', 'DATABASE_URL', 'ORDERS_DATABASE_URL', 'SENTRY_DSN'],
      ...['PGPASSFILE', 'PGPASS', 'MYSQL_PWD', 'REDIS_URL', 'MONGO_URI', 'MONGODB_URI', 'mongo.atlas_uri', 'AWS_', 'A_B_DSN', 'x\ny_DSN'],
      ...['AWS', 'MY_AWS_REGION', 'AWSX', 'DSN', 'XDATABASE_URL', 'DATABASE_URLS', 'MONGO_URL', 'MYSQL_PWD2', 'REDIS_URLS', 'TF_VARX'],
      ...['VAULT', 'GCLOUD', 'GOOGLE_APPLICATION_CREDENTIALS_X', 'XPGPASS', 'PATH', 'ARMS_LENGTH', 'NODE_ENV', 'EDITOR'],
    ];
    for (const name of names) {
      if (/KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|PRIVATE/i.test(name)) continue;
      expect(isSecretName(name), name).toBe(listed(name));
    }
  });

  it('recognises secret names and values on their own', () => {
    for (const name of [
      'MY_API_KEY',
      'private_key_path',
      'VAULT_ADDR',
      'ORDERS_DATABASE_URL',
      'PGPASSFILE',
      'ARM_CLIENT_SECRET',
      'CLOUDSDK_CONFIG',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['PATH', 'HOME', 'NODE_ENV', 'EDITOR', 'PWD']) expect(isSecretName(name), name).toBe(false);
    expect(looksLikeSecretValue('-----BEGIN OPENSSH PRIVATE KEY-----\nabc')).toBe(true);
    expect(looksLikeSecretValue('https://example.com/path?q=1')).toBe(false);
    expect(looksLikeSecretValue('/usr/local/bin')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import fc from 'fast-check';
import { commandEnvironment, isSecretName, litByDefault, looksLikeSecretValue, ShellEnvironment } from './commandEnvironment';

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
  it('is dark by default: only what work needs, and no secret even among that', () => {
    const { env, withheld } = commandEnvironment(host);
    expect(withoutGuard(env)).toEqual(['EDITOR', 'HOME', 'LANG', 'PATH']);
    expect(withheld).toEqual(
      Object.keys(host)
        .filter((name) => !['PATH', 'HOME', 'LANG', 'EDITOR'].includes(name))
        .sort(),
    );
    expect(JSON.stringify(env)).not.toMatch(/hunter2|s3cret|ghp_|sk-|xoxb|AKIA|eu-west/);
  });

  it('says which names it withheld, never their values', () => {
    const { withheld } = commandEnvironment(host);
    expect(withheld).toContain('GITHUB_TOKEN');
    expect(withheld.join(' ')).not.toContain('ghp_');
  });

  it('lights what the person includes; a secret passes only when named exactly, never by a glob, and never one of Tether’s own keys', () => {
    const { env } = commandEnvironment(host, { include: ['GITHUB_TOKEN', 'aws_*', 'AWS_REGION'] });
    expect(env.GITHUB_TOKEN).toBe(host.GITHUB_TOKEN);
    expect(env.AWS_REGION).toBe('eu-west-1');
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(commandEnvironment({ ...host, MY_APP_HOST: 'db.internal' }, { include: ['MY_APP_*'] }).env.MY_APP_HOST).toBe('db.internal');
    expect(env.TETHER_API_KEY).toBeUndefined();
    expect(commandEnvironment(host, { include: ['*'] }).env.OPENAI_API_KEY).toBeUndefined();
    expect(commandEnvironment(host, { include: ['*'] }).env.GITHUB_TOKEN).toBeUndefined();
    expect(ShellEnvironment.safeParse({ include: ['OPENAI_API_KEY'] }).error?.issues[0]?.message).toMatch(/Tether's own API key variables/);
    expect(ShellEnvironment.safeParse({ set: { tether_api_key: 'x' } }).success).toBe(false);
  });

  it('inherits everything but secrets, or nothing, when told', () => {
    expect(withoutGuard(commandEnvironment(host, { inherit: 'all' }).env)).toEqual(['EDITOR', 'HOME', 'LANG', 'PATH']);
    expect(withoutGuard(commandEnvironment({ ...host, NODE_ENV: 'test' }, { inherit: 'all' }).env)).toContain('NODE_ENV');
    expect(commandEnvironment(host, { inherit: 'none', set: { CI: '1' } }).env).toEqual({ CI: '1', ...GUARD });
  });

  it('keeps secrets under other names out, whatever inherit says (issue 31: each passed before)', () => {
    const others = {
      GH_PAT: 'not-a-prefix-we-know-0123456789',
      STRIPE_SK: 'live-looking-value',
      DB_PASS: 'hunter2',
      MYAPP_PASS: 'correct horse',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXXXXXX',
      REPORTS: 'Server=db;Database=app;User Id=sa;Password=hunter2;',
      SESSION_BLOB: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ',
      UPLOAD_TO: 'https://bucket.s3.amazonaws.com/x?X-Amz-Signature=abcdef0123456789',
      LEGACY_DISCORD: 'https://discord.com/api/webhooks/1/abc',
      PEM_BLOB: '-----BEGIN CERTIFICATE-----\nMIIB',
      SHOPIFY: 'shpat_0123456789abcdef0123456789abcdef',
    };
    for (const inherit of ['core', 'all'] as const) {
      const { env, withheld } = commandEnvironment({ ...others, PATH: '/usr/bin' }, { inherit, include: ['*'] });
      expect(Object.keys(env).filter((name) => !name.startsWith('GIT_CONFIG_'))).toEqual(['PATH']);
      expect(withheld).toEqual(Object.keys(others).sort());
    }
  });

  it('never starts a command with a variable it does not know, whatever its name or value (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,30}$/), fc.string()), (source) => {
        const { env } = commandEnvironment(source);
        for (const name of Object.keys(env)) expect(litByDefault(name) || name.startsWith('GIT_CONFIG_'), name).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('lights what toolchains, locales and CI need, and keeps sockets and displays dark', () => {
    const machine = {
      JAVA_HOME: '/usr/lib/jvm/17',
      GOPATH: '/home/ada/go',
      CARGO_HOME: '/home/ada/.cargo',
      NVM_DIR: '/home/ada/.nvm',
      VIRTUAL_ENV: '/w/.venv',
      LC_ALL: 'C.UTF-8',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      npm_config_registry: 'https://registry.company.example/',
      PIP_INDEX_URL: 'https://ada:s3cret@pypi.company.example/simple',
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
      SOURCE_DATE_EPOCH: '1767225600',
      SSH_AUTH_SOCK: '/run/user/1000/ssh-agent',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      DISPLAY: ':0',
      WAYLAND_DISPLAY: 'wayland-0',
      XDG_RUNTIME_DIR: '/run/user/1000',
      GPG_AGENT_INFO: '/run/user/1000/gnupg/S.gpg-agent',
      KUBECONFIG: '/home/ada/.kube/config',
      NODE_ENV: 'development',
    };
    const { env } = commandEnvironment(machine);
    expect(withoutGuard(env)).toEqual(
      [
        'CARGO_HOME',
        'CI',
        'GITHUB_ACTIONS',
        'GIT_AUTHOR_NAME',
        'GIT_AUTHOR_DATE',
        'SOURCE_DATE_EPOCH',
        'GOPATH',
        'JAVA_HOME',
        'LC_ALL',
        'NVM_DIR',
        'VIRTUAL_ENV',
        'npm_config_registry',
      ].sort(),
    );
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
      if (/KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|PRIVATE|(?:^|_)(?:PASS|PWD|PAT|SK|DSN|SALT)(?:$|_)/i.test(name))
        continue;
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

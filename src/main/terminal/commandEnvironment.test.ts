import { describe, expect, it } from 'vitest';
import { commandEnvironment, isSecretName, looksLikeSecretValue, ShellEnvironment } from './commandEnvironment';

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
    expect(Object.keys(env).sort()).toEqual(['EDITOR', 'HOME', 'LANG', 'PATH']);
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
    expect(Object.keys(commandEnvironment(host, { inherit: 'core' }).env).sort()).toEqual(['HOME', 'LANG', 'PATH']);
    expect(commandEnvironment(host, { inherit: 'none', set: { CI: '1' } }).env).toEqual({ CI: '1' });
  });

  it('leaves out more on request, matching case-insensitively, and sets what it is told last', () => {
    const { env } = commandEnvironment(host, { exclude: ['edit*'], set: { PATH: '/opt/bin' } });
    expect(env.EDITOR).toBeUndefined();
    expect(env.PATH).toBe('/opt/bin');
  });

  it('recognises secret names and values on their own', () => {
    for (const name of ['MY_API_KEY', 'private_key_path', 'VAULT_ADDR', 'ORDERS_DATABASE_URL', 'PGPASSFILE', 'ARM_CLIENT_SECRET', 'CLOUDSDK_CONFIG']) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['PATH', 'HOME', 'NODE_ENV', 'EDITOR', 'PWD']) expect(isSecretName(name), name).toBe(false);
    expect(looksLikeSecretValue('-----BEGIN OPENSSH PRIVATE KEY-----\nabc')).toBe(true);
    expect(looksLikeSecretValue('https://example.com/path?q=1')).toBe(false);
    expect(looksLikeSecretValue('/usr/local/bin')).toBe(false);
  });
});

import path from 'node:path';
import { looksLikeSecretValue } from '../workspace/commandEnvironment';
import { DerivedSettings, readSettingsFile } from './derivedSettingsFile';
import type { LitPlace } from './litHomeFolders';

/**
 * The person's ~/.npmrc as commands see it inside the fence: its settings that change how npm works
 * (`omit-lockfile-registry-resolved`, `save-exact`, `fund`, `registry`, `nodedir`, …), so a lockfile or
 * a build comes out inside as it does outside, without what logs in anywhere. ~/.npmrc is a
 * credential store (the read fence's list), so it stays dark; this copy is written into Tether's data
 * folder and bound at ~/.npmrc (Linux) or named by NPM_CONFIG_USERCONFIG (macOS).
 *
 * Dark by default here too: only the settings below are carried (how npm resolves, saves, installs
 * and reports), and even those not when the value looks like a credential (a URL with a password, a
 * token by its prefix). Left out: every setting for one registry (`//host/:_authToken`, …: npm's
 * per-registry settings are its credentials), credentials, client certificates, proxies (inside, the
 * fence's proxy is the way out), and anything else. The copy says in comments how many lines were
 * left out and why, never their keys or values.
 */
const CARRIED = new Set([
  'registry',
  'omit-lockfile-registry-resolved',
  'save',
  'save-exact',
  'save-prefix',
  'save-dev',
  'package-lock',
  'package-lock-only',
  'lockfile-version',
  'engine-strict',
  'legacy-peer-deps',
  'strict-peer-deps',
  'install-links',
  'install-strategy',
  'ignore-scripts',
  'include',
  'omit',
  'optional',
  'prefer-offline',
  'prefer-online',
  'offline',
  'fetch-retries',
  'fetch-retry-factor',
  'fetch-retry-mintimeout',
  'fetch-retry-maxtimeout',
  'fetch-timeout',
  'maxsockets',
  'strict-ssl',
  'fund',
  'audit',
  'audit-level',
  'update-notifier',
  'progress',
  'loglevel',
  'color',
  'unicode',
  'yes',
  'nodedir',
  'python',
  'node-gyp',
  'script-shell',
  'git-tag-version',
  'sign-git-tag',
  'tag-version-prefix',
  'message',
  'init-license',
  'init-version',
  'init-author-name',
  'init-author-url',
  'workspaces-update',
]);

/** Where the derived copy is written, and where it is lit; undefined when there is no ~/.npmrc to derive. */
export function deriveNpmrc(home: string, folder: string): LitPlace | undefined {
  const source = path.join(home, '.npmrc');
  const text = readSettingsFile(source);
  if (text === undefined) return undefined;
  const derived = new DerivedSettings('Derived by Tether from ~/.npmrc for sandboxed commands: its credentials are left out.');
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const at = line.indexOf('=');
    const key = (at < 0 ? line : line.slice(0, at)).trim();
    const value = at < 0 ? '' : line.slice(at + 1).trim();
    const why = key.startsWith('//')
      ? 'a setting for one registry, where npm keeps its credentials'
      : !CARRIED.has(key.toLowerCase()) && !/^@[\w.-]+:registry$/i.test(key)
        ? 'not a setting sandboxed commands are given'
        : looksLikeSecretValue(value)
          ? 'its value looks like a credential'
          : undefined;
    if (why === undefined) derived.keep(`${key}=${value}`);
    else derived.leaveOut(why);
  }
  return { source: derived.write(folder, 'npmrc'), dest: source };
}

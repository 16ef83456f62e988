import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveNpmrc } from './derivedNpmrc';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function home(npmrc?: string): { home: string; folder: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-npmrc-'));
  made.push(dir);
  if (npmrc !== undefined) fs.writeFileSync(path.join(dir, '.npmrc'), npmrc);
  return { home: dir, folder: path.join(dir, 'derived') };
}

describe('deriveNpmrc', () => {
  it('keeps the settings that shape npm’s work and drops every credential, counting what it left out without naming it', () => {
    const { home: dir, folder } = home(
      [
        'omit-lockfile-registry-resolved=true',
        'save-exact=true',
        'registry=https://registry.company.example/',
        '@acme:registry=https://npm.acme.example/',
        '//npm.acme.example/:_authToken=npm_TOKEN1234567890abcdef',
        '//registry.npmjs.org/:_password=c2VjcmV0',
        '_auth=dXNlcjpwYXNz',
        'email=ada@example.com',
        'keyfile=/home/ada/.npm/client.key',
        'proxy=http://ada:hunter2@proxy.example:8080',
        'registry=https://ada:hunter2@registry.company.example/',
        '; a comment',
      ].join('\r\n'),
    );
    const lit = deriveNpmrc(dir, folder)!;
    expect(lit).toEqual({ source: path.join(folder, 'npmrc'), dest: path.join(dir, '.npmrc') });
    const text = fs.readFileSync(lit.source, 'utf8');
    for (const kept of [
      'omit-lockfile-registry-resolved=true',
      'save-exact=true',
      'registry=https://registry.company.example/',
      '@acme:registry=https://npm.acme.example/',
    ])
      expect(text).toContain(kept);
    for (const secret of ['npm_TOKEN', 'c2VjcmV0', 'dXNlcjpwYXNz', 'ada@example.com', 'client.key', 'hunter2'])
      expect(text).not.toContain(secret);
    expect(text).toContain('# 2 lines left out: a setting for one registry, where npm keeps its credentials');
    expect(text).toContain('# 4 lines left out: not a setting sandboxed commands are given');
    expect(text).toContain('# 1 line left out: its value looks like a credential');
    expect(text).not.toMatch(/acme\.example\/:|_auth|keyfile|email/);
    expect(fs.statSync(lit.source).mode & 0o777).toBe(0o600);
  });

  it('derives nothing when there is no ~/.npmrc, or it is not a file', () => {
    expect(deriveNpmrc(home().home, path.join(os.tmpdir(), 'unused'))).toBeUndefined();
    const { home: dir, folder } = home();
    fs.mkdirSync(path.join(dir, '.npmrc'));
    expect(deriveNpmrc(dir, folder)).toBeUndefined();
  });
});

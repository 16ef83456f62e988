import { describe, expect, it } from 'vitest';
import type { DarkHome } from './darkHome';
import { seatbeltDarkHome } from './seatbeltDarkHome';

const home = '/Users/pat';
const dark: DarkHome = {
  hidden: ['/Users', '/var/root', home],
  lit: [
    { source: `${home}/.nvm`, dest: `${home}/.nvm` },
    { source: `${home}/.cargo/bin`, dest: `${home}/.cargo/bin` },
    { source: '/Users/pat/Library/Application Support/Tether/sandbox/git/p1/gitconfig', dest: `${home}/.gitconfig` },
  ],
  masked: [`${home}/.nvm/versions/node/v22.0.0/etc/npmrc`],
  visible: [`${home}/code/app`, '/Users/pat/Library/Application Support/Tether/sandbox/caches/app-1', '/private/var/folders/tmp'],
  derivedFolder: '/Users/pat/Library/Application Support/Tether/sandbox/git/p1',
};

/** The rule (an s-expression spanning lines) that the comment line before it introduces. */
function ruleAfter(profile: string, comment: string): string {
  const start = profile.indexOf(comment);
  expect(start, comment).toBeGreaterThanOrEqual(0);
  const rest = profile.slice(profile.indexOf('\n', start) + 1);
  // A rule ends on the line whose last two characters close its last clause and itself.
  const lines = rest.split('\n');
  const end = lines.findIndex((line) => line.endsWith('))'));
  return lines.slice(0, end + 1).join('\n');
}

describe('the dark home in Seatbelt’s form', () => {
  const profile = seatbeltDarkHome(dark);

  it('denies every read in the home folder and in other people’s homes, and nothing about writes (the runtime allows only the fence’s places)', () => {
    const deny = ruleAfter(profile, 'the home folder is dark');
    expect(deny).toBe('(deny file-read*\n  (subpath "/Users")\n  (subpath "/var/root")\n  (subpath "/Users/pat"))');
    expect(profile).not.toMatch(/deny file-write|allow file-write/);
  });

  it('lights the installations and the fence’s own places after the deny, so they win (Seatbelt takes the last matching rule)', () => {
    const lit = ruleAfter(profile, 'installations');
    expect(lit).toBe('(allow file-read*\n  (subpath "/Users/pat/.nvm")\n  (subpath "/Users/pat/.cargo/bin"))');
    expect(profile.indexOf(lit)).toBeGreaterThan(profile.indexOf('(deny file-read*'));
    const own = ruleAfter(profile, 'the fence’s own places');
    expect(own).toContain('(subpath "/Users/pat/code/app")');
    expect(own).toContain('(subpath "/Users/pat/Library/Application Support/Tether/sandbox/caches/app-1")');
    // A place outside the dark folders needs no rule of this function's.
    expect(own).not.toContain('/private/var/folders');
  });

  it('denies a settings file inside a lit installation after the allow that lit it, so the deny wins', () => {
    const masked = ruleAfter(profile, 'settings files inside what is lit');
    expect(masked).toBe('(deny file-read*\n  (literal "/Users/pat/.nvm/versions/node/v22.0.0/etc/npmrc"))');
    expect(profile.indexOf(masked)).toBeGreaterThan(profile.indexOf('(subpath "/Users/pat/.nvm")'));
  });

  it('the derived git config is allowed as the one file it is, never ~/.gitconfig itself', () => {
    expect(ruleAfter(profile, 'derived git config')).toBe(
      '(allow file-read*\n  (literal "/Users/pat/Library/Application Support/Tether/sandbox/git/p1/gitconfig"))',
    );
    expect(profile).not.toContain('"/Users/pat/.gitconfig"');
  });

  it('the folders on the way to a lit place allow their own metadata only, not a listing or what else is in them', () => {
    const metadata = ruleAfter(profile, 'on the way to what is lit');
    expect(metadata.startsWith('(allow file-read-metadata\n')).toBe(true);
    for (const folder of [
      '/Users',
      '/Users/pat',
      '/Users/pat/.cargo',
      '/Users/pat/code',
      '/Users/pat/Library/Application Support/Tether/sandbox',
    ])
      expect(metadata).toContain(`(literal "${folder}")`);
    expect(metadata).not.toContain('subpath');
    expect(metadata).not.toContain('"/Users/pat/.ssh"');
  });

  it('a secret store is in no allow rule', () => {
    for (const store of [
      '.ssh',
      '.aws',
      '.claude',
      '.codex',
      '.config/gh',
      '.password-store',
      'Library/Keychains',
      '.cargo/credentials.toml',
    ])
      expect(profile).not.toContain(`"${home}/${store}`);
  });

  it('quotes paths for SBPL', () => {
    const odd = seatbeltDarkHome({ ...dark, lit: [{ source: `${home}/we"ird\\path`, dest: `${home}/we"ird\\path` }] });
    expect(odd).toContain('(subpath "/Users/pat/we\\"ird\\\\path")');
  });

  it('nothing when no folder is hidden', () => {
    expect(seatbeltDarkHome({ ...dark, hidden: [] })).toBe('');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withDarkHome, type DarkHome } from './darkHome';
import { litEntryRefusal, litHomePlaces } from './litHomeFolders';
import { settingsInInstallations } from './settingsInInstallations';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('withDarkHome (the runtime’s bubblewrap options with the home dark)', () => {
  const home = '/home/pat';
  const dark: DarkHome = {
    hidden: ['/home', '/root', home],
    lit: [{ source: `${home}/.nvm`, dest: `${home}/.nvm` }],
    masked: [],
    visible: [`${home}/code/app`, `${home}/.config/tether/sandbox/caches/app-1`],
    derivedFolder: `${home}/.config/tether/sandbox/git/p1`,
  };
  const library: Array<[string, ...string[]]> = [
    ['--ro-bind', '/', '/'],
    ['--bind', '/data/tmp/s1', '/tmp'],
    ['--bind', `${home}/code/app`, `${home}/code/app`],
    ['--ro-bind', `${home}/code/app/.git/hooks`, `${home}/code/app/.git/hooks`],
    ['--tmpfs', `${home}/.ssh`],
    ['--ro-bind', '/dev/null', `${home}/.netrc`],
    ['--ro-bind', `${home}/.bashrc`, `${home}/.bashrc`],
    ['--ro-bind', '/dev/null', `${home}/code/app/.env`],
    ['--tmpfs', '/etc/ssh/ssh_config.d'],
    ['--dev', '/dev'],
    ['--proc', '/proc'],
  ];
  const fitted = withDarkHome(library, 2, dark);

  it('covers the homes right after the private /tmp, binds the lit places back, and makes the covers read-only after every mount', () => {
    expect(fitted.slice(0, 6)).toEqual([
      ['--ro-bind', '/', '/'],
      ['--bind', '/data/tmp/s1', '/tmp'],
      ['--tmpfs', '/home'],
      ['--tmpfs', '/root'],
      ['--tmpfs', home],
      ['--ro-bind', `${home}/.nvm`, `${home}/.nvm`],
    ]);
    expect(fitted.slice(-3)).toEqual([
      ['--remount-ro', '/home'],
      ['--remount-ro', '/root'],
      ['--remount-ro', home],
    ]);
  });

  it('keeps the runtime’s mounts in the visible places and outside the homes, and leaves out its masks and binds in the dark', () => {
    const middle = fitted.slice(6, -3);
    expect(middle).toEqual([
      ['--bind', `${home}/code/app`, `${home}/code/app`],
      ['--ro-bind', `${home}/code/app/.git/hooks`, `${home}/code/app/.git/hooks`],
      ['--ro-bind', '/dev/null', `${home}/code/app/.env`],
      ['--tmpfs', '/etc/ssh/ssh_config.d'],
      ['--dev', '/dev'],
      ['--proc', '/proc'],
    ]);
  });

  it('darkens again a settings file inside a lit installation, over the bind that lit it', () => {
    const npmrc = `${home}/.nvm/versions/node/v22.0.0/etc/npmrc`;
    const masked = withDarkHome(library, 2, { ...dark, masked: [npmrc] });
    const lit = masked.findIndex((option) => option[0] === '--ro-bind' && option[2] === `${home}/.nvm`);
    const mask = masked.findIndex((option) => option[0] === '--ro-bind' && option[2] === npmrc);
    expect(masked[mask]).toEqual(['--ro-bind', '/dev/null', npmrc]);
    expect(mask).toBeGreaterThan(lit);
  });

  it('changes nothing when no folder is hidden', () => {
    expect(withDarkHome(library, 2, { ...dark, hidden: [] })).toEqual(library);
  });
});

describe('settingsInInstallations', () => {
  it('finds the global npmrc of each Node layout, conda, pip and gem settings, and nothing else in an installation', () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-lit-')));
    made.push(home);
    const wanted = [
      '.nvm/versions/node/v20.1.0/etc/npmrc',
      '.nodenv/versions/18.0.0/etc/npmrc',
      '.fnm/node-versions/v22.0.0/installation/etc/npmrc',
      '.volta/tools/image/node/20.1.0/etc/npmrc',
      '.asdf/installs/nodejs/20.1.0/etc/npmrc',
      '.local/share/mise/installs/node/22/etc/npmrc',
      '.npm-global/etc/npmrc',
      'miniconda3/.condarc',
      'miniconda3/envs/ml/.condarc',
      '.pyenv/versions/3.12.1/pip.conf',
      '.rbenv/versions/3.3.0/etc/gemrc',
      '.rvm/rubies/ruby-3.3.0/etc/gemrc',
    ];
    const ordinary = ['.nvm/versions/node/v20.1.0/bin/node', '.nvm/versions/node/v20.1.0/lib/node_modules/npm/npmrc', '.pyenv/README.md'];
    for (const file of [...wanted, ...ordinary]) {
      fs.mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
      fs.writeFileSync(path.join(home, file), 'x');
    }
    const places = [
      '.nvm',
      '.nodenv',
      '.fnm',
      '.volta',
      '.asdf',
      '.local/share/mise',
      '.npm-global',
      'miniconda3',
      '.pyenv',
      '.rbenv',
      '.rvm',
    ];
    const found = settingsInInstallations(places.map((place) => path.join(home, place))).map((file) => path.relative(home, file));
    expect(found.sort()).toEqual([...wanted].sort());
  });
});

describe('litHomePlaces', () => {
  it('lights what exists of the table, PATH and the person’s entries, and not a link that leads into the dark', () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-lit-')));
    made.push(home);
    for (const folder of ['.nvm', '.cargo/bin', '.ssh', 'bin', '.config/mytool', '.local/share/pipx/venvs/black/bin'])
      fs.mkdirSync(path.join(home, folder), { recursive: true });
    fs.mkdirSync(path.join(home, '.local', 'bin'), { recursive: true });
    fs.symlinkSync(path.join(home, '.ssh'), path.join(home, '.local', 'lib'));
    fs.symlinkSync(path.join(home, '.local/share/pipx/venvs/black/bin'), path.join(home, '.pyenv'));
    const places = litHomePlaces(home, { PATH: `${home}/bin:/usr/bin:${home}` }, ['~/.config/mytool', '~/.ssh']);
    const dests = places.map((place) => path.relative(home, place.dest));
    expect(dests).toEqual(
      expect.arrayContaining(['.nvm', '.cargo/bin', 'bin', '.config/mytool', '.local/bin', '.local/share/pipx', '.pyenv']),
    );
    // A link into the dark (~/.local/lib → ~/.ssh), a secret named by the person, and the home itself on PATH: not lit.
    expect(dests).not.toContain('.local/lib');
    expect(dests).not.toContain('.ssh');
    expect(dests).not.toContain('');
    // Outer places first, so an inner one is bound on top.
    expect(dests.indexOf('.local/bin')).toBeLessThan(dests.indexOf('.local/share/pipx'));
  });

  it('binds a lit folder inside another only where it shows something else: a link to elsewhere, not the same folder again', () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-lit-')));
    made.push(home);
    for (const folder of ['.pyenv/bin', '.pyenv/shims', '.pyenv/plugins/virtualenv/shims', '.local/share/pipx/venvs/black/bin'])
      fs.mkdirSync(path.join(home, folder), { recursive: true });
    // ~/.pyenv/versions leads out of ~/.pyenv, to a place the PATH lights: inside the fence it needs its own bind.
    fs.symlinkSync(path.join(home, '.local/share/pipx/venvs/black/bin'), path.join(home, '.pyenv', 'versions'));
    const PATH = [
      `${home}/.pyenv/bin`,
      `${home}/.pyenv/shims`,
      `${home}/.pyenv/plugins/virtualenv/shims`,
      `${home}/.pyenv/versions`,
      '/usr/bin',
    ].join(':');
    const places = litHomePlaces(home, { PATH, PYENV_ROOT: `${home}/.pyenv` });
    const dests = places.map((place) => path.relative(home, place.dest));
    expect(dests).toContain('.pyenv');
    expect(dests).toContain('.pyenv/versions');
    expect(dests).not.toContain('.pyenv/bin');
    expect(dests).not.toContain('.pyenv/shims');
    expect(dests).not.toContain('.pyenv/plugins/virtualenv/shims');
  });

  it('refuses what the person may not light, saying why', () => {
    expect(litEntryRefusal('~/.config/mytool', '/home/pat')).toBeUndefined();
    expect(litEntryRefusal('~/.gnupg/pubring.kbx', '/home/pat')).toMatch(/~\/\.gnupg, which holds credentials/);
    expect(litEntryRefusal('~/.local/share', '/home/pat')).toMatch(/~\/\.local\/share\/keyrings/);
    expect(litEntryRefusal('/home/pat/', '/home/pat')).toMatch(/whole home folder/);
    expect(litEntryRefusal('/home/other/x', '/home/pat')).toMatch(/outside the home folder/);
  });
});

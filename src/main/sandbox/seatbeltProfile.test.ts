import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seatbeltDecider, type SeatbeltDecider } from '../../../test/support/seatbelt';
import { effectiveFence, type EffectiveFence } from './fence';
import { libraryFence } from './libraryFence';
import { readWords } from './runtimeCommand';
import { seatbeltRules } from './seatbeltRules';
import { seatbeltCommand, seatbeltProfile } from './seatbeltProfile';
import { cacheEnvironment } from './toolchainCaches';

// The fence on macOS is the Seatbelt profile sandbox-exec is given. It cannot run here (Linux), so
// the profile is generated as Tether generates it on a Mac and read the way Seatbelt decides with it
// (test/support/seatbelt.ts): each rule of the fence asked as a question, "may a command read or
// write this path?".

const home = os.homedir();
const ports = { httpProxyPort: 3128, socksProxyPort: 1080 };
let root: string;
let ws: string;
let dataDir: string;
let fence: EffectiveFence;
let profile: SeatbeltDecider;
let words: string[];

function gitRepository(folder: string): void {
  fs.mkdirSync(path.join(folder, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(folder, '.git', 'info'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(folder, '.git', 'config'), '[core]\n\tbare = false\n');
}

beforeAll(() => {
  // Outside /tmp, as a project in ~/code is on a Mac.
  root = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'tether-seatbelt-')));
  ws = path.join(root, 'app');
  dataDir = path.join(root, 'data');
  gitRepository(ws);
  fs.writeFileSync(path.join(ws, '.env'), 'TOKEN=1\n');
  fence = effectiveFence({ workspace: ws, dataDir, home, privateTmp: path.join(dataDir, 'sandbox', 'tmp', 's1') });
  const command = seatbeltCommand(fence, ports);
  words = readWords(command);
  profile = seatbeltDecider(seatbeltProfile(fence, ports));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the Seatbelt profile of a fence', () => {
  it('leaves no trace: a protected path that does not exist is denied by rule, with nothing put there', () => {
    expect(fs.existsSync(path.join(ws, '.tether'))).toBe(false);
    for (const target of [
      '.tether',
      '.tether/settings.json',
      '.tether/hooks/x.sh',
      '.git/hooks/pre-commit',
      '.git/config',
      '.git/info/attributes',
    ]) {
      expect(profile.writable(path.join(ws, target)), target).toBe(false);
    }
    // bubblewrap can only mount on what exists, so Linux watches the missing ones; Seatbelt needs none.
    expect(libraryFence(fence, 'darwin').watched).toEqual([]);
    expect(libraryFence(fence, 'linux').watched.map((entry) => entry.path)).toContain(path.join(ws, '.tether'));
    expect(libraryFence(fence, 'darwin').filesystem.denyWrite).toContain(path.join(ws, '.tether'));
    // The rest of the project is the command's, git's everyday writes included.
    for (const target of ['src/index.ts', '.gitignore', '.git/index', '.git/objects/ab/cdef', '.git/refs/heads/topic', '.git/refs/stash']) {
      expect(profile.writable(path.join(ws, target)), target).toBe(true);
    }
  });

  it('gives the session its own /tmp: the real one is dark and unwritable, TMPDIR is the session’s folder', () => {
    for (const target of ['/tmp/x', '/private/tmp/x', '/tmp/claude/x', '/private/tmp/claude/x', '/tmp/.X11-unix/X0']) {
      expect(profile.readable(target), target).toBe(false);
      expect(profile.writable(target), target).toBe(false);
    }
    const own = fence.privateTmp;
    expect(profile.writable(path.join(own, 'build', 'a.o'))).toBe(true);
    expect(profile.readable(path.join(own, 'notes.txt'))).toBe(true);
    expect(words).toContain(`TMPDIR=${own}`);
    expect(words.filter((word) => word.startsWith('TMPDIR='))).toHaveLength(1);
    // realpath() must still get through /tmp (a link to /private/tmp); listing it is not allowed.
    expect(profile.allows('file-read-metadata', '/private/tmp')).toBe(true);
    expect(profile.allows('file-read-data', '/private/tmp')).toBe(false);
  });

  it('makes the project’s caches writable and never the person’s, whatever the person set', () => {
    const person = {
      npm_config_cache: path.join(home, 'my-npm-cache'),
      PIP_CACHE_DIR: path.join(home, 'my-pip'),
      GOMODCACHE: '/opt/gomod',
    };
    const wired = cacheEnvironment(fence.caches, person, home);
    const folders = Object.values(wired).filter((value) => path.isAbsolute(value) && value.startsWith(fence.caches));
    expect(folders.length).toBeGreaterThan(8);
    for (const folder of folders) {
      expect(profile.writable(path.join(folder, 'entry')), folder).toBe(true);
      expect(profile.readable(path.join(folder, 'entry')), folder).toBe(true);
    }
    const persons = [
      ...Object.values(person),
      '~/.npm/_cacache',
      '~/.npm/_logs',
      '~/.cache/pip',
      '~/.cache/uv',
      '~/.cargo/registry',
      '~/.cargo/bin',
      '~/go/pkg/mod',
      '~/Library/Caches/go-build',
      '~/.m2/repository',
      '~/.gradle/caches',
      '~/.claude/debug',
    ].map((entry) => entry.replace(/^~/, home));
    for (const folder of persons) expect(profile.writable(path.join(folder, 'entry')), folder).toBe(false);
  });

  it('keeps what is outside the project read-only, and secrets and Tether’s data dark', () => {
    for (const target of ['/usr/bin/git', '/usr/lib/x.dylib', path.join(home, '.gitconfig'), path.join(ws, 'README.md')]) {
      expect(profile.readable(target), target).toBe(true);
    }
    for (const target of [
      '/usr/bin/git',
      '/etc/hosts',
      path.join(home, '.zshrc'),
      path.join(home, '.gitconfig'),
      path.join(root, 'other', 'x'),
    ]) {
      expect(profile.writable(target), target).toBe(false);
    }
    for (const target of [
      path.join(home, '.ssh', 'id_ed25519'),
      path.join(home, '.aws', 'credentials'),
      path.join(ws, '.env'),
      path.join(ws, 'api', '.env.local'),
      path.join(dataDir, 'tether.db'),
    ]) {
      expect(profile.readable(target), target).toBe(false);
    }
  });

  it('lets commands reach only the proxy, so loopback and registries take its question', () => {
    expect(profile.reaches('localhost:3128')).toBe(true);
    expect(profile.reaches('localhost:1080')).toBe(true);
    expect(profile.reaches('localhost:9700')).toBe(false);
    expect(profile.reaches('localhost:5432')).toBe(false);
    // Nothing sends loopback around the proxy: NO_PROXY is taken out, the proxy is named.
    expect(words.slice(0, 5)).toEqual(['env', '-u', 'NO_PROXY', '-u', 'no_proxy']);
    expect(words.some((word) => /^no_proxy=/i.test(word))).toBe(false);
    expect(words).toContain('HTTP_PROXY=http://localhost:3128');
    // The registries preset opens hosts in the proxy, not in the profile: it is the same with it on.
    const withRegistries = effectiveFence({
      workspace: ws,
      dataDir,
      home,
      privateTmp: fence.privateTmp,
      custom: { packageRegistries: true } as never,
    });
    expect(withRegistries.allowedDomains).toContain('registry.npmjs.org');
    const tagless = (text: string) => text.replace(/CMD64_[^"]*_SBX/g, 'TAG');
    expect(tagless(seatbeltProfile(withRegistries, ports))).toBe(tagless(seatbeltProfile(fence, ports)));
  });

  it('keeps the fence’s own folders under /tmp its own (a project there), with their protections', () => {
    const underTmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-seatbelt-tmp-')));
    try {
      const project = path.join(underTmp, 'app');
      gitRepository(project);
      const tmpFence = effectiveFence({
        workspace: project,
        dataDir: path.join(underTmp, 'data'),
        home,
        privateTmp: path.join(underTmp, 'data', 'tmp', 's2'),
      });
      const decider = seatbeltDecider(seatbeltProfile(tmpFence, ports));
      expect(decider.writable(path.join(project, 'src', 'main.c'))).toBe(true);
      expect(decider.readable(path.join(project, 'src', 'main.c'))).toBe(true);
      expect(decider.writable(path.join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(decider.writable(path.join(project, '.tether', 'settings.json'))).toBe(false);
      expect(decider.writable(path.join(tmpFence.privateTmp, 'x'))).toBe(true);
      expect(decider.readable(path.join(underTmp, 'neighbour', 'x'))).toBe(false);
      expect(decider.readable('/tmp/other-project/x')).toBe(false);
    } finally {
      fs.rmSync(underTmp, { recursive: true, force: true });
    }
  });
});

describe('seatbeltRules', () => {
  it('spells a root under /tmp both ways, since macOS resolves /tmp to /private/tmp', () => {
    const decider = seatbeltDecider(
      `(version 1)\n(allow default)\n${seatbeltRules({ rootsUnderTmp: ['/private/tmp/ws'], notWritable: ['/tmp/claude'] })}`,
    );
    expect(decider.readable('/private/tmp/ws/a')).toBe(true);
    expect(decider.readable('/tmp/ws/a')).toBe(true);
    expect(decider.readable('/private/tmp/wsx/a')).toBe(false);
    expect(decider.writable('/private/tmp/claude/a')).toBe(false);
    expect(decider.allows('file-read-metadata', '/private/tmp')).toBe(true);
  });

  it('quotes paths so a name cannot close the rule', () => {
    const rules = seatbeltRules({ rootsUnderTmp: ['/tmp/a") (allow file-write* (subpath "/'], notWritable: [] });
    const decider = seatbeltDecider(`(version 1)\n(deny default)\n${rules}`);
    expect(decider.writable('/etc/passwd')).toBe(false);
    expect(decider.readable('/tmp/a") (allow file-write* (subpath "/')).toBe(false);
  });
});

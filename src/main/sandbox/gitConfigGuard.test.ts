import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardGitConfig } from './gitConfigGuard';

let root: string;
let file: string;
const PERSONS = '[core]\n\tbare = false\n\tfsmonitor = true\n[user]\n\tname = Person\n[branch "topic"]\n\tremote = origin\n';

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-config-guard-'));
  file = path.join(root, 'config');
  fs.writeFileSync(file, PERSONS, { mode: 0o640 });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** The line of `[branch "main"]` that says which remote it follows. */
const MAIN_FOLLOWS = /(?<=\[branch "main"\]\n)\tremote = origin/;

/** Guards the file, lets `change` do what a command would, and returns what the check refused. */
function afterCommand(change: () => void): string[] {
  const guard = guardGitConfig(file)!;
  change();
  return guard.check();
}

describe('guardGitConfig', () => {
  it('keeps plain changes: a branch section gone, a remote added, an identity, even beside a setting of the person’s that runs something', () => {
    const cloned = `${PERSONS}[remote "origin"]\n\turl = o\n`;
    fs.writeFileSync(file, cloned);
    const refused = afterCommand(() =>
      fs.writeFileSync(
        file,
        '[core]\n\tbare = false\n\tfsmonitor = true\n[user]\n\tname = Other\n[remote "origin"]\n\turl = o\n[remote "up"]\n\turl = x\n\tfetch = +refs/heads/*:refs/remotes/up/*\n',
      ),
    );
    expect(refused).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toContain('[remote "up"]');
  });

  it('keeps what git carries with a branch or a remote: a section dropped, renamed or copied, whatever it held', () => {
    const withSections = `${PERSONS}[branch "feature"]\n\tvscode-merge-base = origin/main\n[remote "fork"]\n\turl = u\n\tuploadpack = /opt/up\n`;
    fs.writeFileSync(file, withSections);
    // git branch -D feature; git remote rename fork upstream; git branch -c topic copy.
    const after = `${PERSONS}[remote "upstream"]\n\turl = u\n\tuploadpack = /opt/up\n[branch "copy"]\n\tremote = origin\n`;
    expect(afterCommand(() => fs.writeFileSync(file, after))).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe(after);
  });

  it('refuses a value that comes from nowhere in a branch or remote, and one that moves into another section', () => {
    const withRemote = `${PERSONS}[remote "origin"]\n\turl = u\n\tuploadpack = /opt/up\n`;
    fs.writeFileSync(file, withRemote);
    expect(afterCommand(() => fs.writeFileSync(file, `${withRemote}[remote "mine"]\n\tuploadpack = touch planted\n`))).toEqual([
      'remote.mine.uploadpack',
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(withRemote);
    expect(afterCommand(() => fs.writeFileSync(file, `${withRemote}[core]\n\tpager = /opt/up\n`))).toEqual(['core.pager']);
    expect(fs.readFileSync(file, 'utf8')).toBe(withRemote);
  });

  it('puts the file back whole when a setting that is not plain was added, changed or removed', () => {
    for (const changed of [
      PERSONS + '[alias]\n\tst = !touch planted\n',
      PERSONS.replace('fsmonitor = true', 'fsmonitor = touch planted'),
      PERSONS.replace('\tfsmonitor = true\n', ''),
      PERSONS.replace('[user]', '[include]\n\tpath = ../evil\n[user]'),
      PERSONS + '[Core]\n\tHooksPath = hooks\n',
      PERSONS.replace('bare = false', 'bare = true'),
    ]) {
      const refused = afterCommand(() => fs.writeFileSync(file, changed));
      expect(refused.length, changed).toBeGreaterThan(0);
      expect(fs.readFileSync(file, 'utf8')).toBe(PERSONS);
      expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    }
  });

  it('refuses what sends the person’s own push or pull somewhere new, over one command or two', () => {
    const cloned = `${PERSONS}[remote "origin"]\n\turl = https://example.com/ours.git\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n`;
    const evil = 'https://evil.example/x.git';
    const redirections: [string, string, string[]][] = [
      ['set-url', cloned.replace('https://example.com/ours.git', evil), ['remote.origin.url']],
      ['a push address', cloned.replace('[branch "main"]', `\tpushurl = ${evil}\n[branch "main"]`), ['remote.origin.pushurl']],
      [
        'origin renamed away and another in its place',
        cloned.replace('[remote "origin"]', '[remote "old"]').replaceAll('remote = origin', 'remote = old') +
          `[remote "origin"]\n\turl = ${evil}\n`,
        ['remote.origin.url'],
      ],
      [
        'a branch following a new remote',
        cloned.replace(MAIN_FOLLOWS, '\tremote = x') + `[remote "x"]\n\turl = ${evil}\n`,
        ['branch.main.remote', 'remote.x.url'],
      ],
      [
        'a branch pushing to one',
        cloned.replace('merge = refs', `pushremote = x\n\tmerge = refs`) + `[remote "x"]\n\turl = ${evil}\n`,
        ['branch.main.pushremote', 'remote.x.url'],
      ],
      ['a branch following an address itself', cloned.replace(MAIN_FOLLOWS, `\tremote = ${evil}`), ['branch.main.remote']],
      ['origin added where there was none', `${PERSONS}[remote "origin"]\n\turl = ${evil}\n`, ['remote.origin.url']],
    ];
    for (const [what, after, keys] of redirections) {
      fs.writeFileSync(file, cloned);
      // Named: what the command changed on the way there (the branches that followed a renamed remote too).
      expect(
        afterCommand(() => fs.writeFileSync(file, after)),
        what,
      ).toEqual(expect.arrayContaining(keys));
      expect(fs.readFileSync(file, 'utf8'), what).toBe(cloned);
    }
    // Two commands: the remote added first is plain; following it afterwards is not.
    fs.writeFileSync(file, cloned);
    const added = `${cloned}[remote "x"]\n\turl = ${evil}\n`;
    expect(afterCommand(() => fs.writeFileSync(file, added))).toEqual([]);
    expect(afterCommand(() => fs.writeFileSync(file, added.replace(MAIN_FOLLOWS, '\tremote = x')))).toEqual(['branch.main.remote']);
  });

  it('refuses a name no remote holds where a push goes: git takes it for a path in the work tree, which a command can fill', () => {
    const cloned = `${PERSONS}[remote "origin"]\n\turl = https://example.com/ours.git\n`;
    const paths: [string, string, string[]][] = [
      ['a branch pushing to a bare word', `${cloned}[branch "main"]\n\tpushremote = evil\n`, ['branch.main.pushremote']],
      [
        'origin renamed: a push to origin is a push to the folder origin',
        cloned.replace('[remote "origin"]', '[remote "mine"]'),
        ['remote.origin.url'],
      ],
      ['origin removed', PERSONS, ['remote.origin.url']],
    ];
    for (const [what, after, keys] of paths) {
      fs.writeFileSync(file, cloned);
      const refused = afterCommand(() => fs.writeFileSync(file, after));
      expect(refused.length, what).toBeGreaterThan(0);
      expect(refused, what).toEqual(expect.arrayContaining(keys));
      expect(fs.readFileSync(file, 'utf8'), what).toBe(cloned);
    }
  });

  it('counts the only remote as followed, whatever its name, and keeps every remote’s addresses', () => {
    const one = `${PERSONS}[remote "gh"]\n\turl = https://example.com/ours.git\n`;
    fs.writeFileSync(file, one);
    // git pushes to a repository's only remote: its address is the person's push.
    expect(afterCommand(() => fs.writeFileSync(file, one.replace('example.com/ours', 'evil.example/x')))).toEqual(['remote.gh.url']);
    // A first remote where there was none is where the next push goes.
    fs.writeFileSync(file, PERSONS);
    expect(afterCommand(() => fs.writeFileSync(file, `${PERSONS}[remote "gh"]\n\turl = https://evil.example/x.git\n`))).toEqual([
      'remote.gh.url',
    ]);
    // A remote nothing follows keeps its address too: which one a push goes to can be set outside the file.
    const two = `${one}[remote "origin"]\n\turl = https://example.com/o.git\n`;
    fs.writeFileSync(file, two);
    expect(afterCommand(() => fs.writeFileSync(file, two.replace('example.com/ours', 'evil.example/x')))).toEqual(['remote.gh.url']);
  });

  it('counts a branch made to follow this repository (.) as redirected: a pull from it merges refs a command can write, and fetches nothing first', () => {
    const cloned = `${PERSONS}[remote "origin"]\n\turl = https://example.com/ours.git\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n`;
    fs.writeFileSync(file, cloned);
    expect(
      afterCommand(() =>
        fs.writeFileSync(file, cloned.replace(MAIN_FOLLOWS, '\tremote = .').replace('refs/heads/main', 'refs/remotes/origin/main')),
      ),
    ).toEqual(expect.arrayContaining(['branch.main.remote']));
    // One that followed it before keeps doing so.
    const local = `${PERSONS}[branch "main"]\n\tremote = .\n\tmerge = refs/heads/base\n`;
    fs.writeFileSync(file, local);
    expect(afterCommand(() => fs.writeFileSync(file, `${local}[user]\n\temail = a@b\n`))).toEqual([]);
  });

  it('counts the remote remote.pushDefault names as followed', () => {
    const withDefault = `${PERSONS}[remote]\n\tpushDefault = mine\n[remote "mine"]\n\turl = https://example.com/mine.git\n`;
    fs.writeFileSync(file, withDefault);
    expect(afterCommand(() => fs.writeFileSync(file, withDefault.replace('example.com/mine', 'evil.example/x')))).toEqual([
      'remote.mine.url',
    ]);
  });

  it('keeps what leaves the person’s push and pull where they went: a remote added beside, renamed or removed when nothing follows it, a branch tracking origin', () => {
    const cloned = `${PERSONS}[remote "origin"]\n\turl = https://example.com/ours.git\n[remote "fork"]\n\turl = https://example.com/fork.git\n`;
    const kept = [
      `${cloned}[remote "upstream"]\n\turl = https://example.com/theirs.git\n`,
      cloned.replace('[remote "fork"]', '[remote "mine"]'),
      cloned.replace('[remote "fork"]\n\turl = https://example.com/fork.git\n', ''),
      `${cloned}[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n`,
    ];
    for (const after of kept) {
      fs.writeFileSync(file, cloned);
      expect(
        afterCommand(() => fs.writeFileSync(file, after)),
        after,
      ).toEqual([]);
    }
  });

  it('names the settings it refused', () => {
    expect(afterCommand(() => fs.writeFileSync(file, PERSONS + '[core]\n\tsshCommand = x\n[user]\n\temail = a@b\n'))).toEqual([
      'core.sshcommand',
    ]);
  });

  it('puts the file back when it is no longer a config git reads: a link, a folder, gone, or broken', () => {
    const changes = [
      () => {
        fs.rmSync(file);
        fs.symlinkSync(path.join(root, 'elsewhere'), file);
      },
      () => {
        fs.rmSync(file);
        fs.mkdirSync(path.join(file, 'inside'), { recursive: true });
      },
      () => fs.rmSync(file),
      () => fs.writeFileSync(file, '[core\n\tbare = '),
    ];
    for (const change of changes) {
      expect(afterCommand(change)).toHaveLength(1);
      expect(fs.lstatSync(file).isFile()).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toBe(PERSONS);
    }
  });

  it('guards nothing where there is no config file to keep', () => {
    expect(guardGitConfig(path.join(root, 'missing'))).toBeUndefined();
    fs.mkdirSync(path.join(root, 'folder'));
    expect(guardGitConfig(path.join(root, 'folder'))).toBeUndefined();
  });
});

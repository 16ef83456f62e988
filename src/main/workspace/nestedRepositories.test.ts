import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NestedRepositoryWatch } from './nestedRepositories';

// Real git, no sandbox: the watch itself. What a command does is done here by hand between begin()
// and check(); test/plantedRepositories.test.ts drives the same through the loop and bubblewrap.

let base: string;
let ws: string;

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-nested-')));
  ws = path.join(base, 'ws');
  repository(ws);
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** git as the person runs it: no guard, their own config only. */
function git(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function repository(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-qm', 'first');
  return dir;
}

/** A monitor that appends where it ran to `marker` when git runs it. */
function monitor(): { command: string; marker: string } {
  const marker = path.join(base, 'marker');
  return { command: `sh -c 'pwd >> ${marker}' --`, marker };
}

function begun(): Promise<NestedRepositoryWatch> {
  const watch = new NestedRepositoryWatch(ws);
  return watch.begin().then(() => watch);
}

describe('NestedRepositoryWatch', () => {
  it('leaves the person’s own nested repositories as they are, monitor and all, and finds nothing when nothing changed', async () => {
    const own = repository(path.join(ws, 'theirs'));
    git(own, 'config', 'core.fsmonitor', monitor().command);
    fs.writeFileSync(path.join(own, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n', { mode: 0o755 });
    const config = fs.readFileSync(path.join(own, '.git', 'config'), 'utf8');
    const watch = await begun();
    expect(await watch.check()).toEqual([]);
    git(own, 'commit', '-q', '--allow-empty', '-m', 'the person works in it');
    expect(await watch.check()).toEqual([]);
    expect(fs.readFileSync(path.join(own, '.git', 'config'), 'utf8')).toBe(config);
    expect(fs.existsSync(path.join(own, '.git', 'hooks', 'pre-commit'))).toBe(true);
  });

  it('takes a new repository’s monitor out of its config, keeps the config aside, and the repository works', async () => {
    const watch = await begun();
    const sub = repository(path.join(ws, 'sub'));
    const { command, marker } = monitor();
    git(sub, 'config', 'core.fsmonitor', command);
    git(sub, 'config', 'alias.st', '!touch planted');
    const head = git(sub, 'rev-parse', 'HEAD');
    const planted = fs.readFileSync(path.join(sub, '.git', 'config'), 'utf8');
    git(ws, 'add', 'sub');
    const found = await watch.check();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ path: 'sub', gitDir: 'sub/.git', found: 'new', rewritten: ['sub/.git/config'] });
    expect(found[0]!.programs.join('\n')).toContain(`core.fsmonitor = ${command} (in sub/.git/config)`);
    expect(found[0]!.programs.join('\n')).toContain('alias.st = !touch planted');
    const aside = found[0]!.moved[0]!.to;
    expect(aside).toMatch(/^sub\/\.git\/config\.tether-quarantined-\d{8}T\d{6}Z$/);
    expect(fs.readFileSync(path.join(ws, aside), 'utf8')).toBe(planted);
    expect(fs.readFileSync(path.join(sub, '.git', 'config'), 'utf8')).not.toMatch(/fsmonitor|alias/);
    git(ws, 'status', '--porcelain');
    expect(fs.existsSync(marker)).toBe(false);
    expect(git(sub, 'rev-parse', 'HEAD')).toBe(head);
    // Looked at again only when it changes; putting the config back is a change.
    expect(await watch.check()).toEqual([]);
    fs.copyFileSync(path.join(ws, aside), path.join(sub, '.git', 'config'));
    expect((await watch.check())[0]).toMatchObject({ path: 'sub', found: 'changed' });
  });

  it('moves hooks aside by name, not the samples, and a hooksPath out of the config', async () => {
    const watch = await begun();
    const sub = repository(path.join(ws, 'sub'));
    fs.writeFileSync(path.join(sub, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\ntouch planted\n', { mode: 0o755 });
    fs.writeFileSync(path.join(sub, '.git', 'hooks', 'notes.txt'), 'not executable\n');
    fs.mkdirSync(path.join(ws, 'tools'));
    git(sub, 'config', 'core.hooksPath', '../tools');
    const found = await watch.check();
    expect(found.map((repository) => repository.path)).toEqual(['sub']);
    expect(found[0]!.moved.map(({ from }) => from).sort()).toEqual(['sub/.git/config', 'sub/.git/hooks/post-checkout']);
    expect(
      fs
        .readdirSync(path.join(sub, '.git', 'hooks'))
        .filter((name) => !name.endsWith('.sample'))
        .sort(),
    ).toEqual(['notes.txt', expect.stringMatching(/^post-checkout\.tether-quarantined-/)]);
    expect(fs.readFileSync(path.join(sub, '.git', 'config'), 'utf8')).not.toMatch(/hooksPath/i);
  });

  it('renames a .git file that names a git folder outside the workspace, and fixes one inside in place', async () => {
    const watch = await begun();
    const outside = path.join(base, 'elsewhere.git');
    git(base, 'init', '-q', '--bare', outside);
    git(base, 'config', '--file', path.join(outside, 'config'), 'core.fsmonitor', monitor().command);
    fs.mkdirSync(path.join(ws, 'far'));
    fs.writeFileSync(path.join(ws, 'far', '.git'), `gitdir: ${outside}\n`);
    const vault = path.join(ws, 'vault');
    git(ws, 'init', '-q', '--bare', vault);
    git(ws, 'config', '--file', path.join(vault, 'config'), 'core.fsmonitor', monitor().command);
    git(ws, 'config', '--file', path.join(vault, 'config'), 'core.bare', 'false');
    fs.mkdirSync(path.join(ws, 'near'));
    fs.writeFileSync(path.join(ws, 'near', '.git'), 'gitdir: ../vault\n');
    const outsideConfig = fs.readFileSync(path.join(outside, 'config'), 'utf8');
    const found = await watch.check();
    const far = found.find((repository) => repository.path === 'far')!;
    expect(far.gitDir).toBe(outside);
    expect(far.moved).toEqual([{ from: 'far/.git', to: expect.stringMatching(/^far\/\.git\.tether-quarantined-/) }]);
    expect(fs.readFileSync(path.join(outside, 'config'), 'utf8')).toBe(outsideConfig);
    const near = found.find((repository) => repository.path === 'near')!;
    expect(near).toMatchObject({ gitDir: 'vault', rewritten: ['vault/config'] });
    expect(fs.readFileSync(path.join(ws, 'near', '.git'), 'utf8')).toBe('gitdir: ../vault\n');
  });

  it('finds a repository in an ignored folder at once: the person’s git (or their prompt’s) runs there as soon as they cd in', async () => {
    fs.writeFileSync(path.join(ws, '.gitignore'), 'build/\nvendor/\nnode_modules/\n');
    fs.mkdirSync(path.join(ws, 'build'));
    fs.mkdirSync(path.join(ws, 'vendor'));
    fs.mkdirSync(path.join(ws, 'node_modules', 'left-pad', 'lib'), { recursive: true });
    const watch = await begun();
    const hidden = repository(path.join(ws, 'build', 'hidden'));
    git(hidden, 'config', 'core.fsmonitor', monitor().command);
    const later = repository(path.join(ws, 'vendor', 'later'));
    git(later, 'config', 'core.pager', 'touch planted');
    const deep = repository(path.join(ws, 'node_modules', 'left-pad', 'lib', 'dist'));
    git(deep, 'config', 'alias.st', '!touch planted');
    expect((await watch.check()).map((repository) => repository.path).sort()).toEqual([
      'build/hidden',
      'node_modules/left-pad/lib/dist',
      'vendor/later',
    ]);
    expect(fs.readFileSync(path.join(deep, '.git', 'config'), 'utf8')).not.toContain('touch planted');
  });

  it('finds a bare repository split over two folders, a HEAD and a commondir naming the rest, and takes the program out of the config they share', async () => {
    const watch = await begun();
    // What a command can leave: the bare repository in docs/y, its HEAD moved to docs/x, which says where the rest is.
    git(ws, 'clone', '-q', '--bare', '.', 'docs/y');
    fs.mkdirSync(path.join(ws, 'docs', 'x'));
    fs.renameSync(path.join(ws, 'docs', 'y', 'HEAD'), path.join(ws, 'docs', 'x', 'HEAD'));
    fs.writeFileSync(path.join(ws, 'docs', 'x', 'commondir'), '../y\n');
    git(ws, 'config', '-f', 'docs/y/config', 'core.pager', 'touch planted; cat');
    expect((await watch.check()).map((repository) => repository.path)).toContain('docs/x');
    expect(fs.readFileSync(path.join(ws, 'docs', 'y', 'config'), 'utf8')).not.toContain('touch planted');
  });

  it('finds a git folder whose objects and refs are executable files, as git’s discovery accepts them', async () => {
    const watch = await begun();
    const src = path.join(ws, 'src');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(src, 'config'), `[core]\n\tworktree = ..\n\tfsmonitor = ${monitor().command}\n`);
    for (const name of ['objects', 'refs']) fs.writeFileSync(path.join(src, name), '', { mode: 0o755 });
    expect((await watch.check()).map((repository) => repository.path)).toContain('src');
    expect(fs.readFileSync(path.join(src, 'config'), 'utf8')).not.toContain('fsmonitor = sh');
  });

  it('finds one planted in an ignored folder of a nested repository of the person’s, and leaves that repository as it was', async () => {
    const vendored = repository(path.join(ws, 'vendored'));
    git(vendored, 'config', 'core.pager', 'less -R');
    fs.writeFileSync(path.join(vendored, '.gitignore'), 'out/\n');
    fs.mkdirSync(path.join(vendored, 'out'));
    const watch = await begun();
    const planted = repository(path.join(vendored, 'out', 'x'));
    git(planted, 'config', 'core.fsmonitor', monitor().command);
    expect((await watch.check()).map((repository) => repository.path)).toEqual(['vendored/out/x']);
    expect(git(vendored, 'config', '--get', 'core.pager').trim()).toBe('less -R');
  });

  it('follows gitlinks: a repository a nested repository’s index links', async () => {
    const watch = await begun();
    const outer = repository(path.join(ws, 'outer'));
    const inner = repository(path.join(outer, 'inner'));
    git(inner, 'config', 'include.path', '../../../evil.cfg');
    git(outer, 'add', 'inner');
    const found = await watch.check();
    expect(found.map((repository) => repository.path)).toEqual(['outer/inner']);
    expect(found[0]!.programs[0]).toContain('include.path = ../../../evil.cfg');
  });

  it('leaves a harmless clone alone, and a deep tree costs no git when nothing changed', async () => {
    const upstream = repository(path.join(base, 'upstream'));
    for (let i = 0; i < 50; i++) fs.mkdirSync(path.join(ws, 'src', `m${i}`, 'deep'), { recursive: true });
    const watch = await begun();
    git(ws, 'clone', '-q', upstream, 'cloned');
    git(ws, 'add', 'cloned');
    expect(await watch.check()).toEqual([]);
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect(await watch.check()).toEqual([]);
    expect((performance.now() - started) / 20).toBeLessThan(20);
  });

  it('does not hang on a FIFO planted as a config, and moves it aside', async () => {
    const watch = await begun();
    const sub = repository(path.join(ws, 'sub'));
    fs.rmSync(path.join(sub, '.git', 'config'));
    execFileSync('mkfifo', [path.join(sub, '.git', 'config')]);
    const found = await watch.check();
    expect(found[0]!.programs[0]).toContain('a config git cannot read');
    expect(fs.existsSync(path.join(sub, '.git', 'config'))).toBe(false);
  });

  it('never changes the workspace’s own repository', async () => {
    const watch = await begun();
    git(ws, 'config', 'core.pager', 'less -R');
    fs.writeFileSync(path.join(ws, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n', { mode: 0o755 });
    expect(await watch.check()).toEqual([]);
    expect(git(ws, 'config', '--get', 'core.pager').trim()).toBe('less -R');
  });
});

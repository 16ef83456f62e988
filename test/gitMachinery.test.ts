import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionEngine } from '../src/main/permissions/engine';
import { initShellParser } from '../src/main/shell/analyzeCommand';
import { command } from './support/permissionQueries';
import { createCommandSandbox, turnedOffSandbox, type CommandSandbox } from '../src/main/sandbox/commandSandbox';
import { runtimeStopped } from '../src/main/sandbox/sandboxRuntime';
import { createPtyTerminal } from '../src/main/terminal/pty';
import { runCommand } from '../src/main/tools/runCommand';
import { makeToolContext } from './support/toolContext';

// Issue 16, item 3: git's machinery is out of reach. From inside the sandbox (real bubblewrap, real
// git) nothing git reads to decide what to run can be written, while committing and branching work;
// entering another repository inside the workspace is not "only reading"; and no git a command runs
// starts a repository's core.fsmonitor or enters a bare repository it stumbles on.

const terminal = createPtyTerminal();
const sandboxes: CommandSandbox[] = [];
const made: string[] = [];

beforeAll(() => initShellParser());
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.dispose();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  terminal.dispose();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await runtimeStopped();
});

function tempRoot(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-gitmachinery-')));
  made.push(dir);
  return dir;
}

/** git as the person runs it: none of Tether's guard, so a planted trap would go off. */
function git(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  return execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A repository with one commit and an identity of its own, so commits inside the sandbox need no -c. */
function repository(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Tester');
  git(dir, 'config', 'user.email', 'tester@example.com');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'first');
  return dir;
}

/** run_command in the session's real sandbox (or with it turned off); a fence hit is never run again outside. */
function commands(workspace: string, options: { off?: boolean } = {}) {
  const dataDir = path.join(path.dirname(workspace), `data-${path.basename(workspace)}`);
  const sandbox = options.off ? turnedOffSandbox({ workspace, dataDir }, 'test') : createCommandSandbox({ workspace, dataDir });
  sandboxes.push(sandbox);
  const ctx = makeToolContext(workspace, { terminal, sandbox, confirm: async () => ({ allowed: false }) });
  return async (text: string) => {
    const result = await runCommand.execute(runCommand.parameters.parse({ command: text, timeout_ms: 30_000 }), ctx);
    return { output: result.output, exitCode: Number(/exit code (\d+)/.exec(result.output)?.[1] ?? -1) };
  };
}

/** Everything under a folder, as relative path → content (folders as "dir"), to show nothing changed. */
function tree(folder: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(folder, full);
      if (entry.isDirectory()) {
        found[relative] = 'dir';
        walk(full);
      } else {
        found[relative] = entry.isSymbolicLink() ? `link:${fs.readlinkSync(full)}` : fs.readFileSync(full, 'utf8');
      }
    }
  };
  walk(folder);
  return found;
}

/** The machinery of a git directory: all but objects, refs, logs and index, which commits change. */
function machinery(gitDir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(tree(gitDir)).filter(([name]) => !/^(objects|refs|logs)(\/|$)|^index$/.test(name)));
}

describe('from inside the sandbox, git’s machinery cannot be written', () => {
  it('in the workspace’s own .git: commondir, config.worktree, modules, hooks, info, config, description, and a submodule’s git directory', async () => {
    const root = tempRoot();
    const upstream = repository(path.join(root, 'upstream'));
    const ws = repository(path.join(root, 'ws'));
    git(ws, 'submodule', '-q', 'add', upstream, 'lib');
    git(ws, 'commit', '-qm', 'a submodule');
    git(ws, 'worktree', 'add', '-q', path.join(root, 'wt'), '-b', 'elsewhere');
    const gitDir = path.join(ws, '.git');
    const before = machinery(gitDir);
    const run = commands(ws);
    const planted = [
      '.git/commondir',
      '.git/config.worktree',
      '.git/config',
      '.git/description',
      '.git/hooks/pre-commit',
      '.git/hooks/post-checkout',
      '.git/info/attributes',
      '.git/info/exclude',
      '.git/modules/lib/config',
      '.git/modules/lib/hooks/post-checkout',
      '.git/modules/lib/commondir',
      '.git/modules/other/config',
      '.git/worktrees/wt/commondir',
      '.git/worktrees/wt/config.worktree',
      '.git/worktrees/other/commondir',
    ];
    for (const target of planted) {
      const result = await run(`mkdir -p ${path.dirname(target)}; printf '[core]\\n\\tfsmonitor = touch planted\\n' > ${target}`);
      expect(result.output, target).toMatch(
        /the write fence: \.git\/(commondir|config\.worktree|config|description|hooks|info|modules|worktrees)/,
      );
    }
    // Nor replaced: a mount point can be neither removed nor renamed, nor can .git itself be moved aside.
    for (const attempt of [
      'rm -f .git/commondir',
      'rm -rf .git/hooks',
      'mv .git/config .git/config.old',
      'mv .git/modules .git/modules.old',
      'mv .git .git-old && mkdir -p .git/hooks',
    ]) {
      await run(attempt);
    }
    expect(machinery(gitDir)).toEqual(before);
    expect(fs.existsSync(path.join(ws, 'planted'))).toBe(false);
    expect(git(ws, 'status', '--porcelain')).toBe('');
  });

  it('in a worktree workspace: its git directory’s commondir, gitdir and config.worktree, and the main repository’s machinery', async () => {
    const root = tempRoot();
    const main = repository(path.join(root, 'main'));
    const wt = path.join(root, 'wt');
    git(main, 'worktree', 'add', '-q', wt, '-b', 'session');
    const own = path.join(main, '.git', 'worktrees', 'wt');
    const before = machinery(path.join(main, '.git'));
    const run = commands(wt);
    for (const target of [
      `${own}/commondir`,
      `${own}/gitdir`,
      `${own}/config.worktree`,
      `${own}/modules/m/config`,
      `${main}/.git/config`,
      `${main}/.git/hooks/pre-commit`,
      `${main}/.git/commondir`,
      `${main}/.git/worktrees/other/commondir`,
    ]) {
      const result = await run(`mkdir -p ${path.dirname(target)}; printf x > ${target}`);
      expect(result.output, target).toContain('the write fence');
    }
    expect(machinery(path.join(main, '.git'))).toEqual(before);
    expect(git(wt, 'rev-parse', '--git-common-dir').trim()).toBe(path.join(main, '.git'));
  });
});

describe('inside the sandbox, committing and branching work', () => {
  it('in a repository: add, commit, amend, branch, checkout -b, tag, stash, stash pop, merge, cherry-pick, rebase, reset --soft', async () => {
    const ws = repository(path.join(tempRoot(), 'ws'));
    const run = commands(ws);
    const steps = [
      'echo b > b.txt && git add b.txt && git commit -qm b',
      'git commit -q --amend -m "b, amended"',
      'git branch feature && git checkout -qb topic && echo c > c.txt && git add c.txt && git commit -qm c',
      'git tag v1 && git tag -a v1-annotated -m "annotated"',
      'echo dirty >> a.txt && git stash -q && git stash list | grep -q . && git stash pop -q && git checkout -q -- a.txt',
      'git checkout -q main && git merge -q --ff-only topic',
      'git checkout -q feature && git cherry-pick topic >/dev/null && git rebase -q main',
      'git reset -q --soft HEAD~1 && git commit -qm "again"',
      'git merge -q --no-ff -m "merged" topic && git tag -d v1 >/dev/null',
    ];
    for (const step of steps) {
      const result = await run(step);
      expect(result.output, step).not.toContain('fence');
      expect(result.exitCode, `${step}\n${result.output}`).toBe(0);
    }
    expect(git(ws, 'log', '--format=%s', 'feature').split('\n')).toContain('again');
    expect(git(ws, 'tag').trim()).toBe('v1-annotated');
    expect(git(ws, 'branch', '--format=%(refname:short)').trim().split('\n').sort()).toEqual(['feature', 'main', 'topic']);
    // What the sandbox held while commands ran is gone.
    expect(fs.existsSync(path.join(ws, '.git', 'commondir'))).toBe(false);
    expect(fs.existsSync(path.join(ws, '.git', 'modules'))).toBe(false);
    expect(git(ws, 'fsck', '--no-progress', '--no-dangling')).toBe('');
  });

  it('in a worktree: add, commit, branch, checkout -b, tag, stash and stash apply', async () => {
    const root = tempRoot();
    const main = repository(path.join(root, 'main'));
    const wt = path.join(root, 'wt');
    git(main, 'worktree', 'add', '-q', wt, '-b', 'session');
    const run = commands(wt);
    const result = await run(
      'echo w > w.txt && git add w.txt && git commit -qm w && git branch keep && git checkout -qb next && git tag wt-1 && echo d >> a.txt && git stash -q && git stash apply -q && git commit -qam d',
    );
    expect(result.output).not.toContain('fence');
    expect(result.exitCode, result.output).toBe(0);
    expect(git(main, 'log', '--format=%s', 'next').split('\n').slice(0, 2)).toEqual(['d', 'w']);
    expect(git(main, 'branch', '--list', 'keep').trim()).toBe('keep');
  });
});

describe('inside the sandbox, a branch deleted, a remote added, a plain setting: git rewrites .git/config as outside', () => {
  it('deletes, renames and tracks branches, adds and renames remotes, sets an identity, with no warning and no fence hit', async () => {
    const ws = repository(path.join(tempRoot(), 'ws'));
    // A clone's origin: a first remote where there is none is where the person's push goes, and asks.
    git(ws, 'remote', 'add', 'origin', 'https://example.com/ours.git');
    git(ws, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
    git(ws, 'branch', '--track', 'topic', 'main');
    // What VS Code keeps for a branch it made: not a plain setting, yet it goes with the branch.
    git(ws, 'config', 'branch.topic.vscode-merge-base', 'origin/main');
    const run = commands(ws);
    for (const step of [
      'git branch -D -q topic',
      'git branch -q later && git branch -m later renamed && git branch --list renamed',
      'git remote add upstream https://example.com/up.git && git remote rename upstream up && git remote -v',
      'git config user.email dev@example.com',
      'git branch --set-upstream-to=origin/main renamed',
    ]) {
      const result = await run(step);
      expect(result.output, step).not.toMatch(/fence|refused|warning|could not|error/i);
      expect(result.exitCode, `${step}\n${result.output}`).toBe(0);
    }
    const config = git(ws, 'config', '--list', '--local');
    expect(config).not.toContain('branch.topic.');
    expect(config).toContain('branch.renamed.merge=refs/heads/main');
    expect(config).toContain('branch.renamed.remote=origin');
    expect(config).toContain('remote.up.url=https://example.com/up.git');
    expect(config).toContain('user.email=dev@example.com');
    expect(git(ws, 'branch', '--format=%(refname:short)').trim().split('\n').sort()).toEqual(['main', 'renamed']);
  });

  it('runs no hook while .git/config can be written, and the person’s hooks as before for every other line', async () => {
    const ws = repository(path.join(tempRoot(), 'ws'));
    git(ws, 'branch', 'topic');
    // The person's own hooks; one that starts the project's code would run whatever the agent wrote there.
    for (const hook of ['reference-transaction', 'post-commit']) {
      fs.writeFileSync(path.join(ws, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> ran-hooks.txt\n`, { mode: 0o755 });
    }
    const run = commands(ws);
    expect((await run('git branch -D -q topic')).exitCode).toBe(0);
    expect(fs.existsSync(path.join(ws, 'ran-hooks.txt'))).toBe(false);
    expect((await run('git commit -q --allow-empty -m empty')).exitCode).toBe(0);
    expect(fs.readFileSync(path.join(ws, 'ran-hooks.txt'), 'utf8')).toContain('post-commit');
  });

  it('keeps .git/config read-only for a setting that can decide what git runs, and for a line that also writes', async () => {
    const ws = repository(path.join(tempRoot(), 'ws'));
    const before = fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8');
    const run = commands(ws);
    for (const step of [
      'git config core.fsmonitor "touch planted"',
      'git config alias.st "!touch planted"',
      'git config user.name Other && echo x > notes.txt && git config core.hooksPath hooks',
      'git -c user.name=x config core.pager "touch planted"',
    ]) {
      const result = await run(step);
      expect(result.output, step).toMatch(/the write fence: .*\.git\/config/);
    }
    expect(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8')).toBe(before);
    git(ws, 'status');
    expect(fs.existsSync(path.join(ws, 'planted'))).toBe(false);
  });

  it('puts the file back, whole, when a line given the writable form changed a setting that is not plain', async () => {
    const ws = repository(path.join(tempRoot(), 'ws'));
    const file = path.join(ws, '.git', 'config');
    const before = fs.readFileSync(file, 'utf8');
    const sandbox = createCommandSandbox({ workspace: ws, dataDir: path.join(path.dirname(ws), 'data') });
    sandboxes.push(sandbox);
    // As if the proof had gone wrong: the form is forced for lines it would never pass.
    const forced = async (line: string) => {
      const prepared = await sandbox.wrap(line, ws, { staysLocal: true, plainGitConfig: true });
      const result = await terminal.run({
        command: prepared.command,
        env: prepared.env,
        cwd: ws,
        timeoutMs: 30_000,
        signal: new AbortController().signal,
      });
      return prepared.finish(result.output, result.exitCode);
    };
    const changed = await forced('git config user.name Other && git config core.fsmonitor "touch planted"');
    expect(changed.hits.map((hit) => hit.message).join('\n')).toMatch(
      /\.git\/config, where the command changed core\.fsmonitor.*put the file back/,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    const replaced = await forced('rm .git/config && ln -s ../a.txt .git/config');
    expect(replaced.hits).toHaveLength(1);
    expect(fs.lstatSync(file).isFile()).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    // A plain change made the same way stays.
    const plain = await forced('git config user.name Other');
    expect(plain.hits).toEqual([]);
    expect(git(ws, 'config', 'user.name').trim()).toBe('Other');
    git(ws, 'status');
    expect(fs.existsSync(path.join(ws, 'planted'))).toBe(false);
  });
});

describe('inside the sandbox, nothing a command leaves sends the person’s own push or pull elsewhere', () => {
  /** A repository whose origin is a bare one beside it, and a bare one an attacker would push to. */
  function cloned() {
    const root = tempRoot();
    const ours = path.join(root, 'ours.git');
    const evil = path.join(root, 'evil.git');
    git(root, 'init', '-q', '--bare', ours);
    git(root, 'init', '-q', '--bare', evil);
    const ws = repository(path.join(root, 'ws'));
    git(ws, 'remote', 'add', 'origin', ours);
    git(ws, 'push', '-q', '-u', 'origin', 'main');
    return { ws, ours, evil };
  }
  const refsOf = (bare: string) => git(bare, 'for-each-ref', '--format=%(refname)').trim();

  it('a remote’s address changed, or a branch made to follow a new remote, puts .git/config back and says why', async () => {
    const { ws, ours, evil } = cloned();
    const config = path.join(ws, '.git', 'config');
    const before = fs.readFileSync(config, 'utf8');
    const run = commands(ws);
    for (const step of [
      `git remote set-url origin ${evil}`,
      `git remote set-url --add --push origin ${evil}`,
      'git config branch.main.pushremote evil',
    ]) {
      const result = await run(step);
      expect(result.output, step).toMatch(
        /the write fence: \.git\/config, where the command changed (remote\.origin\.(push)?url|branch\.main\.pushremote).*where it sends your work/,
      );
    }
    // Over two commands: adding a remote beside origin is plain; making main follow it is not.
    expect((await run(`git remote add x ${evil}`)).output).not.toContain('fence');
    await run('git fetch -q x 2>/dev/null; git update-ref refs/remotes/x/main HEAD');
    expect((await run('git branch -q -u x/main main')).output).toMatch(/where the command changed branch\.main\.remote/);
    expect(git(ws, 'config', 'branch.main.remote').trim()).toBe('origin');
    expect(fs.readFileSync(config, 'utf8')).toBe(
      before.replace(/$/, '') + `[remote "x"]\n\turl = ${evil}\n\tfetch = +refs/heads/*:refs/remotes/x/*\n`,
    );
    // The person's own push goes where it went.
    fs.writeFileSync(path.join(ws, 'b.txt'), 'b\n');
    git(ws, 'add', '.');
    git(ws, 'commit', '-qm', 'b');
    git(ws, 'push', '-q');
    expect(refsOf(evil)).toBe('');
    expect(git(ours, 'log', '--format=%s', '-1', 'main').trim()).toBe('b');
  });

  it('a file under .git/remotes or .git/branches, or any name git’s work does not make, is moved out of the workspace', async () => {
    const { ws, evil } = cloned();
    // A repository with no origin, where a plain `git push` goes to whatever .git/remotes/origin names.
    git(ws, 'remote', 'remove', 'origin');
    fs.rmSync(path.join(ws, '.git', 'branches'), { recursive: true, force: true });
    const run = commands(ws);
    for (const [step, shown] of [
      [`mkdir -p .git/remotes && printf 'URL: ${evil}\\nPush: refs/heads/*:refs/heads/*\\n' > .git/remotes/origin`, '.git/remotes'],
      [`mkdir -p .git/branches && printf '${evil}#main' > .git/branches/origin`, '.git/branches'],
      ['printf x > .git/not-git-s && ln -s /etc .git/a-link', '.git/not-git-s'],
    ] as const) {
      const result = await run(step);
      expect(result.output, step).toContain(`the write fence: ${shown} is protected from commands (git's machinery`);
    }
    for (const name of ['remotes', 'branches', 'not-git-s', 'a-link']) expect(fs.existsSync(path.join(ws, '.git', name)), name).toBe(false);
    expect(() => git(ws, 'push', '-q')).toThrow();
    expect(refsOf(evil)).toBe('');
  });

  it('a symbolic link left in git’s folder, which the person’s git would write through, is moved out', async () => {
    const { ws } = cloned();
    const outside = path.join(path.dirname(ws), 'bashrc');
    fs.writeFileSync(outside, '# the person’s\n');
    const run = commands(ws);
    const planted = await run(
      `ln -sf ${outside} .git/logs/HEAD && ln -sf ${outside} .git/FETCH_HEAD && ln -sf ${outside} .git/COMMIT_EDITMSG && mkdir -p .git/rebase-merge && ln -sf ${path.join(ws, 'a.txt')} .git/rebase-merge/git-rebase-todo`,
    );
    expect(planted.output).toContain('git makes no link, FIFO or socket there');
    for (const name of ['logs/HEAD', 'FETCH_HEAD', 'COMMIT_EDITMSG', 'rebase-merge/git-rebase-todo']) {
      expect(fs.lstatSync(path.join(ws, '.git', name), { throwIfNoEntry: false })?.isSymbolicLink() ?? false, name).toBe(false);
    }
    // The person's own commit and fetch write where git's files are, not through a link.
    git(ws, 'config', 'user.name', 'x;touch MARKER;#');
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'mine');
    git(ws, 'fetch', '-q', 'origin');
    expect(fs.readFileSync(outside, 'utf8')).toBe('# the person’s\n');
  });

  it('leaves what git’s own work makes there: a worktree, notes, a bisect, a rebase stopped on a conflict', async () => {
    const ws = repository(path.join(tempRoot(), 'ws'));
    const run = commands(ws);
    for (const step of [
      'git worktree add -q ../side -b side',
      'git notes add -m "a note"',
      'echo b > b.txt && git add b.txt && git commit -qm b && git bisect start HEAD HEAD~1 >/dev/null && git bisect reset >/dev/null 2>&1',
      'git checkout -qb conflict HEAD~1 && echo theirs > b.txt && git add b.txt && git commit -qm theirs',
    ]) {
      const result = await run(step);
      expect(result.output, step).not.toContain('fence');
      expect(result.exitCode, `${step}\n${result.output}`).toBe(0);
    }
    const stopped = await run('git rebase main');
    expect(stopped.output).not.toContain('fence');
    expect(stopped.exitCode).not.toBe(0);
    expect(git(ws, 'status')).toContain('rebase in progress');
    expect(fs.existsSync(path.join(ws, '.git', 'worktrees', 'side'))).toBe(true);
    expect(git(ws, 'notes', 'show', 'HEAD~1').trim()).toBe('a note');
  });
});

describe('another repository inside the workspace', () => {
  /**
   * A workspace whose repository holds a committed bare repository (docs/history), a nested
   * repository (nested) and a nested one registered as a gitlink (vendored), each with a planted
   * core.fsmonitor that appends its name to a marker file in the workspace, which the sandbox lets
   * commands write: if the monitor ran, the marker would be there.
   */
  function trapped() {
    const ws = repository(path.join(tempRoot(), 'ws'));
    const marker = path.join(ws, 'monitor-ran');
    const monitor = path.join(ws, 'tools', 'monitor.sh');
    fs.mkdirSync(path.dirname(monitor));
    fs.writeFileSync(monitor, `#!/bin/sh\necho "$(pwd)" >> ${marker}\n`, { mode: 0o755 });
    const history = path.join(ws, 'docs', 'history');
    git(ws, 'init', '-q', '--bare', history);
    for (const [key, value] of [
      ['core.fsmonitor', monitor],
      ['core.bare', 'false'],
      ['core.worktree', '..'],
    ] as const)
      git(ws, 'config', '-f', path.join(history, 'config'), key, value);
    const nested = repository(path.join(ws, 'nested'));
    git(nested, 'config', 'core.fsmonitor', monitor);
    const vendored = repository(path.join(ws, 'vendored'));
    git(vendored, 'config', 'core.fsmonitor', monitor);
    fs.mkdirSync(path.join(ws, 'src'));
    fs.writeFileSync(path.join(ws, 'src', 'main.ts'), 'export {};\n');
    git(ws, 'add', 'docs', 'tools', 'src');
    git(ws, 'update-index', '--add', '--cacheinfo', `160000,${git(vendored, 'rev-parse', 'HEAD').trim()},vendored`);
    git(ws, 'commit', '-qm', 'history, tools, a gitlink');
    fs.writeFileSync(path.join(ws, 'src', 'main.ts'), 'export const changed = 1;\n');
    return { ws, marker };
  }

  it('entering it asks in the engine; the workspace’s own repository stays read-only', () => {
    const { ws } = trapped();
    fs.symlinkSync(path.join(ws, 'docs', 'history'), path.join(ws, 'history-link'));
    git(ws, 'init', '-q', '--bare', path.join(ws, '.git', 'modules', 'lib'));
    const engine = createPermissionEngine({ workspaceRoot: ws, mode: 'ask', outsideContent: 'ask', rules: [], projectTrusted: false });
    const verdict = (text: string) => engine.evaluate(command(text)).action;
    for (const text of [
      'git -C docs/history status',
      'git -C docs/history log --oneline',
      'git -C docs/history/refs status',
      'git -C ./docs/../docs/history diff',
      'git -C src -C ../docs/history status',
      'git -C history-link status',
      'cd nested && git log',
      'cd docs/history; git status',
      'pushd vendored && git status',
      'git -C nested/src log',
      'git -C vendored diff',
      'git --git-dir=docs/history log',
      'git --git-dir docs/history --work-tree . status',
      'GIT_DIR=docs/history git log',
      'env GIT_DIR=nested/.git git log',
      'git -C nested/.git log',
      'git -C .git/modules/lib log',
    ]) {
      expect(verdict(text), text).toBe('ask');
    }
    expect(engine.evaluate(command('git status', { args: { command: 'git status', cwd: 'docs/history' } })).action).toBe('ask');
    for (const text of [
      'git status',
      'git -C src log',
      'git log -- docs/history',
      'git diff -- nested vendored',
      'git -C . status',
      'git -C .git log -1',
      'cd src && git log',
      'ls docs/history && cat nested/.git/config',
    ]) {
      expect(verdict(text), text).toBe('allow');
    }
  });

  it('runs no planted core.fsmonitor and enters no bare repository through run_command, sandboxed or not', async () => {
    const { ws, marker } = trapped();
    // Plain git runs every trap: the checks below can fail.
    git(ws, 'status', '--porcelain');
    git(path.join(ws, 'nested'), 'status', '--porcelain');
    git(path.join(ws, 'docs', 'history'), 'status', '--porcelain');
    expect(fs.readFileSync(marker, 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(3);
    fs.rmSync(marker);

    for (const off of [false, true]) {
      const run = commands(ws, { off });
      const bare = await run('git -C docs/history status');
      expect(bare.exitCode).toBe(128);
      expect(bare.output).toMatch(/cannot use bare repository .*safe\.bareRepository/);
      for (const text of [
        'git status',
        'git -C nested status',
        'cd nested && git diff',
        'git -C vendored status',
        'git status --porcelain --ignore-submodules=none',
      ]) {
        const result = await run(text);
        expect(result.exitCode, `${text}\n${result.output}`).toBe(0);
      }
      expect(fs.existsSync(marker), off ? 'with the sandbox off' : 'sandboxed').toBe(false);
      // What the guard is made of, as a command sees it.
      expect((await run('git config --get core.fsmonitor; git config --get safe.bareRepository')).output).toMatch(/^false\r?\nexplicit/);
    }
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../src/shared/events';
import { SessionRewinder } from '../src/main/app/sessions/sessionRewinder';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { startScriptedModel } from './fixtures/scriptedModel';
import { closedAfterEach } from './support/loopLifetime';
import { outsideTempDir, tempDir } from './support/tempDirs';
import { toolOutputs } from './support/toolResults';

// Issue 16, item 3: a command inside the sandbox creates a repository in the workspace whose config
// (or hooks) runs a program, and links it into the person's index; the person's next plain git, outside
// any sandbox, would run it. Through the real loop, bubblewrap and git: after the command Tether moves
// what runs aside, logs repository.quarantined and tells the model; the person's git then runs nothing
// planted, and no file is lost. Each case first runs the same command with plain bash in a control
// workspace, where the person's git does run the trap: without Tether these tests fail.

const loop = closedAfterEach();

/** git as the person runs it, outside any sandbox: none of Tether's guard, so a planted trap would go off. */
function personGit(cwd: string, ...args: string[]): { ok: boolean; output: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  try {
    const output = execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, output };
  } catch (error) {
    return { ok: false, output: String((error as { stderr?: string }).stderr ?? error) };
  }
}

/**
 * A workspace repository with one commit, and a program outside it that records (in `marker`) where it
 * ran. Outside /tmp: inside the sandbox /tmp is the session's own, where the program would not be.
 */
function setting() {
  const base = fs.realpathSync(outsideTempDir('tether-planted-'));
  const marker = path.join(base, 'marker');
  const monitor = path.join(base, 'monitor.sh');
  fs.writeFileSync(monitor, `#!/bin/sh\npwd >> ${marker}\n`, { mode: 0o755 });
  const upstream = path.join(base, 'upstream');
  const workspace = (name: string) => {
    const ws = path.join(base, name);
    fs.mkdirSync(ws);
    personGit(ws, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
    personGit(ws, 'add', 'a.txt');
    personGit(ws, 'commit', '-qm', 'first');
    return ws;
  };
  fs.mkdirSync(upstream);
  personGit(upstream, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(upstream, 'lib.txt'), 'a harmless library\n');
  personGit(upstream, 'add', '.');
  personGit(upstream, 'commit', '-qm', 'lib');
  return { base, marker, monitor, upstream, workspace };
}

/** `git commit` in a new repository inside the sandbox, with an identity of its own (no -c needed from the person). */
const COMMIT = '-c user.name=a -c user.email=a@example.com commit -q --allow-empty -m planted';

/** Runs `commands` as run_command calls, one per step, through the real loop with the sandbox the session's project gets. */
async function session(workspace: string, commands: string[], options: { sandboxOffBy?: string } = {}) {
  const dataDir = tempDir('tether-data-');
  const core = (loop.core = createCore({ dataDir }));
  const server = (loop.server = await startScriptedModel({
    turns: [
      ...commands.map((command, index) => ({ toolCalls: [{ id: `call_${index}`, name: 'run_command', arguments: { command } }] })),
      { text: 'Done.' },
    ],
  }));
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace, task: 'set up the repositories', model, maxSteps: 20 });
  await core.run(sessionId, {
    model,
    broker: new HeadlessBroker({ unleashed: true }),
    signal: new AbortController().signal,
    ...(options.sandboxOffBy ? { sandboxOffBy: options.sandboxOffBy } : {}),
  });
  const events = core.store.events.list(sessionId);
  const told = toolOutputs(server.requests[server.requests.length - 1]!);
  const quarantined = events.flatMap((stored: StoredEvent) => (stored.event.type === 'repository.quarantined' ? [stored.event] : []));
  const finished = events.flatMap((stored: StoredEvent) => (stored.event.type === 'tool.finished' ? [stored.event] : []));
  return { sessionId, events, told, quarantined, finished };
}

/** Every file under `root` but its own .git, with what differs by the clock (objects, refs, logs, index) left out, as path → contents; `.tether-quarantined-…` names count as the name they had. */
function contents(root: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full).replace(/\.tether-quarantined-[0-9TZ-]+/g, '');
      if (relative === '.git' || /(^|\/)(objects|logs|refs)(\/|$)|(^|\/)index$/.test(relative)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) found.set(relative, [...(found.get(relative) ?? []), fs.readFileSync(full, 'utf8')]);
    }
  };
  walk(root);
  return found;
}

function expectNothingLost(control: string, ws: string, differs?: RegExp): void {
  const before = contents(control);
  const after = contents(ws);
  for (const [file, [text]] of before) {
    if (differs?.test(file)) expect(after.has(file), file).toBe(true);
    else expect(after.get(file), file).toContain(text);
  }
  // The commits are there too (their ids differ by the clock), where the repository is still one.
  for (const repository of ['sub', 'vault']) {
    const at = (root: string) => path.join(root, repository);
    if (!fs.existsSync(at(control)) || (repository === 'sub' && !fs.existsSync(path.join(at(ws), '.git')))) continue;
    const count = (root: string) => personGit(at(root), 'rev-list', '--count', '--all').output;
    expect(count(ws), repository).toBe(count(control));
  }
}

interface Case {
  name: string;
  /** What the model runs, in the workspace (one step). */
  command: (s: ReturnType<typeof setting>) => string;
  /** What the person then runs, outside any sandbox, that would run the planted program. */
  trigger: (ws: string) => void;
  /** What the log and the model's result name. */
  names: RegExp;
  /** Files whose contents depend on where the command ran ($TMPDIR): only their being there is checked. */
  differs?: RegExp;
}

const cases: Case[] = [
  {
    name: 'git init, a core.fsmonitor, git add',
    command: ({ monitor }) => `git init -q sub && git -C sub ${COMMIT} && git -C sub config core.fsmonitor ${monitor} && git add sub`,
    trigger: (ws) => personGit(ws, 'status'),
    names: /core\.fsmonitor = .*monitor\.sh \(in sub\/\.git\/config\)/,
  },
  {
    name: 'a sub/.git/config written by hand, linked with update-index',
    command: ({ monitor }) =>
      `mkdir -p sub/.git/objects sub/.git/refs/heads && printf 'ref: refs/heads/main\\n' > sub/.git/HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tfsmonitor = ${monitor}\\n' > sub/.git/config && echo hand-made > sub/notes.txt && git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub`,
    trigger: (ws) => personGit(ws, 'status'),
    names: /core\.fsmonitor = .*monitor\.sh \(in sub\/\.git\/config\)/,
  },
  {
    name: 'a sub/.git file naming a bare repository elsewhere in the workspace (gitdir: ../vault)',
    command: ({ monitor }) =>
      `git init -q --bare vault && git --git-dir=vault config core.bare false && git --git-dir=vault config core.fsmonitor ${monitor} && mkdir sub && printf 'gitdir: ../vault\\n' > sub/.git && git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub`,
    trigger: (ws) => personGit(ws, 'status'),
    names: /core\.fsmonitor = .*monitor\.sh \(in vault\/config\)/,
  },
  {
    // Inside the sandbox $TMPDIR is the session's private /tmp: on the person's side the .git file names
    // a folder of the real /tmp that is not there, and that anyone may make there later.
    name: 'a sub/.git file naming a bare repository the command made in $TMPDIR',
    command: ({ monitor }) =>
      `T=\${TMPDIR:-/tmp}/planted-$$ && git init -q --bare $T && git --git-dir=$T config core.bare false && git --git-dir=$T config core.fsmonitor ${monitor} && mkdir sub && echo "gitdir: $T" > sub/.git && git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub`,
    trigger: (ws) => personGit(ws, 'status'),
    names: /a \.git file naming a git folder that is not there, outside the workspace \(\/tmp\/planted-\d+\)/,
    differs: /^sub\/\.git$/,
  },
  {
    name: 'a core.hooksPath to a folder of hooks the command wrote',
    command: ({ monitor }) =>
      `git init -q sub && mkdir planted-hooks && cp ${monitor} planted-hooks/pre-commit && git -C sub config core.hooksPath ../planted-hooks && git -C sub ${COMMIT} --no-verify && git add sub`,
    trigger: (ws) => personGit(path.join(ws, 'sub'), 'commit', '-q', '--allow-empty', '-m', 'the person commits'),
    names: /core\.hookspath = \.\.\/planted-hooks \(in sub\/\.git\/config\)/i,
  },
  {
    name: 'an include.path to config the command wrote',
    command: ({ monitor }) =>
      `git init -q sub && git -C sub ${COMMIT} && printf '[core]\\n\\tfsmonitor = ${monitor}\\n' > extra.cfg && git -C sub config include.path ../../extra.cfg && git add sub`,
    trigger: (ws) => personGit(ws, 'status'),
    names: /include\.path = \.\.\/\.\.\/extra\.cfg/,
  },
  {
    name: 'an alias that runs a shell command',
    command: ({ monitor }) => `git init -q sub && git -C sub ${COMMIT} && git -C sub config alias.st '!${monitor}' && git add sub`,
    trigger: (ws) => personGit(path.join(ws, 'sub'), 'st'),
    names: /alias\.st = !.*monitor\.sh/,
  },
];

describe('a repository a command plants in the workspace runs nothing when the person’s git looks at it', () => {
  for (const planted of cases) {
    it(
      planted.name,
      async () => {
        const s = setting();
        // Control: the same command with plain bash and no Tether; the person's git runs the trap.
        const control = s.workspace('control');
        execFileSync('bash', ['-c', planted.command(s)], { cwd: control, stdio: 'ignore' });
        planted.trigger(control);
        expect(fs.existsSync(s.marker), 'the trap goes off without Tether').toBe(true);
        fs.rmSync(s.marker);

        const ws = s.workspace('ws');
        const { quarantined, told, finished } = await session(ws, [planted.command(s)]);
        expect(finished[0]!.outcome, finished[0]!.output).toBe('ok');
        expect(finished[0]!.metadata).toMatchObject({ sandbox: 'sandboxed' });
        planted.trigger(ws);
        personGit(ws, 'status');
        personGit(ws, 'diff');
        expect(fs.existsSync(s.marker) ? fs.readFileSync(s.marker, 'utf8') : 'not run').toBe('not run');
        expectNothingLost(control, ws, planted.differs);

        expect(quarantined).toHaveLength(1);
        expect(quarantined[0]).toMatchObject({ callId: 'call_0', path: 'sub', found: 'new' });
        expect(quarantined[0]!.programs.join('\n')).toMatch(planted.names);
        expect(quarantined[0]!.moved.length).toBeGreaterThan(0);
        expect(quarantined[0]!.failed).toBeUndefined();
        const result = told.get('call_0')!;
        expect(result).toContain('[tether] After this command, a git repository in the workspace could run a program');
        expect(result).toMatch(planted.names);
        for (const { to } of quarantined[0]!.moved) expect(result).toContain(to);
      },
      60_000,
    );
  }

  // Issue 31: where git add -A never looks, the person's own git (or their prompt's) still runs as soon as they cd in.
  const hidden: Array<{ name: string; command: (monitor: string) => string; at: string; trigger: string[] }> = [
    {
      name: 'a repository in a .gitignore’d folder (dist/), never linked in any index',
      command: (monitor) => `printf 'dist/\\n' > .gitignore && git init -q dist/app && git -C dist/app config core.fsmonitor ${monitor}`,
      at: 'dist/app',
      trigger: ['status'],
    },
    {
      name: 'a repository deep in node_modules',
      command: (monitor) =>
        `printf 'node_modules/\\n' > .gitignore && mkdir -p node_modules/left-pad/lib && git init -q node_modules/left-pad/lib/x && git -C node_modules/left-pad/lib/x config alias.st '!${monitor}'`,
      at: 'node_modules/left-pad/lib/x',
      trigger: ['st'],
    },
    {
      name: 'a bare repository, which git enters when the person stands in it',
      command: (monitor) =>
        `printf 'build/\\n' > .gitignore && git init -q --bare build/cache.git && git --git-dir=build/cache.git config alias.st '!${monitor}'`,
      at: 'build/cache.git',
      trigger: ['st'],
    },
  ];
  for (const plant of hidden) {
    it(
      plant.name,
      async () => {
        const s = setting();
        const control = s.workspace('control');
        execFileSync('bash', ['-c', plant.command(s.monitor)], { cwd: control, stdio: 'ignore' });
        personGit(path.join(control, plant.at), ...plant.trigger);
        expect(fs.existsSync(s.marker), 'the trap goes off without Tether').toBe(true);
        fs.rmSync(s.marker);

        const ws = s.workspace('ws');
        const { quarantined, told } = await session(ws, [plant.command(s.monitor)]);
        personGit(path.join(ws, plant.at), ...plant.trigger);
        personGit(path.join(ws, plant.at), 'status');
        expect(fs.existsSync(s.marker) ? fs.readFileSync(s.marker, 'utf8') : 'not run').toBe('not run');
        expect(quarantined.map((event) => event.path)).toEqual([plant.at]);
        expect(told.get('call_0')).toContain('[tether] After this command, a git repository in the workspace could run a program');
      },
      60_000,
    );
  }

  // Issue 31: an operation left in progress in the workspace's own repository runs its exec lines on the person's next continue.
  const REBASE_LEFT = (monitor: string) =>
    `echo b > b.txt && git add b.txt && git ${COMMIT.replace('--allow-empty -m planted', '-m second')} && ` +
    `GIT_SEQUENCE_EDITOR="sed -i '1i break'" git -c user.name=a -c user.email=a@example.com rebase -q -i -x '${monitor}' HEAD~1`;

  it('a rebase left stopped with an exec line: the person’s git rebase --continue runs nothing planted, and the rebase still finishes', async () => {
    const s = setting();
    const control = s.workspace('control');
    execFileSync('bash', ['-c', REBASE_LEFT(s.monitor)], { cwd: control, stdio: 'ignore' });
    expect(fs.existsSync(s.marker), 'the break stops it before the exec').toBe(false);
    personGit(control, 'rebase', '--continue');
    expect(fs.existsSync(s.marker), 'the trap goes off without Tether').toBe(true);
    fs.rmSync(s.marker);

    const ws = s.workspace('ws');
    const { quarantined, told } = await session(ws, [REBASE_LEFT(s.monitor)]);
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]).toMatchObject({ path: '.', found: 'changed' });
    expect(quarantined[0]!.programs[0]).toMatch(
      /exec .*monitor\.sh \(in \.git\/rebase-merge\/git-rebase-todo: git rebase --continue would run it\)/,
    );
    expect(told.get('call_0')).toContain('[tether] After this command');
    const continued = personGit(ws, 'rebase', '--continue');
    expect(continued.ok, continued.output).toBe(true);
    expect(fs.existsSync(s.marker) ? fs.readFileSync(s.marker, 'utf8') : 'not run').toBe('not run');
    expect(personGit(ws, 'log', '--format=%s').output.split('\n')[0]).toBe('second');
    // Nothing deleted: the original todo is kept beside the rebase's folder, which git removed as it finished.
    const kept = fs
      .readdirSync(path.join(ws, '.git'))
      .filter((name) => name.startsWith('rebase-merge-git-rebase-todo.tether-quarantined-'));
    expect(kept).toHaveLength(1);
    expect(fs.readFileSync(path.join(ws, '.git', kept[0]!), 'utf8')).toContain(`exec ${s.monitor}`);
    expect(fs.existsSync(path.join(ws, '.git', 'rebase-merge'))).toBe(false);
  }, 60_000);

  it('a rebase the person had stopped with exec lines before the session is theirs: left as it is', async () => {
    const s = setting();
    const ws = s.workspace('ws');
    execFileSync('bash', ['-c', REBASE_LEFT('true')], { cwd: ws, stdio: 'ignore' });
    const todo = fs.readFileSync(path.join(ws, '.git', 'rebase-merge', 'git-rebase-todo'), 'utf8');
    const { quarantined } = await session(ws, ['echo hi > later.txt']);
    expect(quarantined).toEqual([]);
    expect(fs.readFileSync(path.join(ws, '.git', 'rebase-merge', 'git-rebase-todo'), 'utf8')).toBe(todo);
  }, 60_000);

  it('outside the sandbox too (tether run --no-sandbox), and a rewind of the step still works', async () => {
    const s = setting();
    const ws = s.workspace('ws');
    const { quarantined, told, sessionId } = await session(ws, [cases[0]!.command(s), 'echo after > later.txt'], {
      sandboxOffBy: 'the test',
    });
    expect(quarantined.map((event) => event.path)).toEqual(['sub']);
    expect(told.get('call_0')).toContain('sub/.git/config.tether-quarantined-');
    expect(told.get('call_1')).not.toContain('[tether] After this command');
    personGit(ws, 'status');
    expect(fs.existsSync(s.marker)).toBe(false);

    const events = loop.core!.store.events.list(sessionId);
    const task = events.find((stored) => stored.event.type === 'user.messaged')!;
    const rewinder = new SessionRewinder(loop.core!.store, loop.core!.checkpoints);
    await rewinder.rewind(sessionId, task.seq, 'files', () => {});
    expect(fs.existsSync(path.join(ws, 'later.txt'))).toBe(false);
    // Snapshots never hold a nested repository: it stays as it was made harmless, for the person to look at.
    expect(fs.readdirSync(path.join(ws, 'sub', '.git')).some((name) => name.startsWith('config.tether-quarantined-'))).toBe(true);
    personGit(ws, 'status');
    expect(fs.existsSync(s.marker)).toBe(false);
  }, 60_000);

  it('leaves a harmless clone and the person’s own nested repository alone', async () => {
    const s = setting();
    const ws = s.workspace('ws');
    // The person's own, there before the session, with a monitor of their own.
    const theirs = path.join(ws, 'theirs');
    fs.mkdirSync(theirs);
    personGit(theirs, 'init', '-q');
    personGit(theirs, 'config', 'core.fsmonitor', 'true');
    personGit(theirs, 'config', 'alias.lg', 'log --oneline');
    fs.writeFileSync(path.join(theirs, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const theirConfig = fs.readFileSync(path.join(theirs, '.git', 'config'), 'utf8');
    const { quarantined, told, finished } = await session(ws, [
      `git clone -q ${s.upstream} cloned && git add cloned && git -C cloned log --oneline`,
    ]);
    expect(finished[0]!.outcome, finished[0]!.output).toBe('ok');
    expect(quarantined).toEqual([]);
    expect(told.get('call_0')).not.toContain('[tether]');
    expect(fs.readFileSync(path.join(theirs, '.git', 'config'), 'utf8')).toBe(theirConfig);
    expect(fs.existsSync(path.join(theirs, '.git', 'hooks', 'pre-commit'))).toBe(true);
    const anywhere = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((entry) => (entry.isDirectory() ? anywhere(path.join(dir, entry.name)) : [entry.name]));
    expect(anywhere(ws).filter((name) => name.includes('tether-quarantined'))).toEqual([]);
    expect(personGit(ws, 'status', '--porcelain').output).toContain('A  cloned');
  }, 60_000);
});

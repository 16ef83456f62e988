import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../src/main/shell/analyzeCommand';
import { createCommandSandbox, type CommandSandbox } from '../src/main/sandbox/commandSandbox';
import { runtimeStopped } from '../src/main/sandbox/sandboxRuntime';
import { createPtyTerminal } from '../src/main/terminal/pty';
import { runCommand } from '../src/main/tools/runCommand';
import { makeToolContext } from './support/toolContext';

// Issue 30: the fence fits real work. Through run_command in the real sandbox (bubblewrap, git): the
// workspace looks the same inside as outside, /tmp is the session's own, toolchains cache in Tether's
// folders, and a command that failed at the fence is known by what the sandbox refused, whatever it
// printed.

/** A fixed identity and clock for git. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Tester',
  GIT_AUTHOR_EMAIL: 'tester@example.com',
  GIT_COMMITTER_NAME: 'Tester',
  GIT_COMMITTER_EMAIL: 'tester@example.com',
  GIT_AUTHOR_DATE: '2025-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2025-01-01T00:00:00Z',
};

const terminal = createPtyTerminal();
const sandboxes: CommandSandbox[] = [];
const made: string[] = [];

// Commands inside and outside commit with the same identity and clock, so their commits have the same ids.
const saved = new Map<string, string | undefined>();
beforeAll(async () => {
  for (const [name, value] of Object.entries(GIT_ENV)) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
  await initShellParser();
});
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.dispose();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  terminal.dispose();
  await new Promise((resolve) => setTimeout(resolve, 100));
  await runtimeStopped();
});

function tempRoot(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tether-fits-')));
  made.push(dir);
  return dir;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A repository like a person's: one commit, an ignored build folder, an untracked file, no .tether. */
function project(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, '.gitignore'), 'build/\n');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'app.js'), 'console.log("app");\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'first');
  fs.mkdirSync(path.join(dir, 'build'));
  fs.writeFileSync(path.join(dir, 'build', 'out.txt'), 'built\n');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'untracked\n');
  return dir;
}

function sandboxFor(workspace: string, options: { sessionId?: string; dataDir?: string } = {}): CommandSandbox {
  const dataDir = options.dataDir ?? path.join(path.dirname(workspace), `data-${path.basename(workspace)}`);
  const sandbox = createCommandSandbox({ workspace, dataDir, ...(options.sessionId ? { sessionId: options.sessionId } : {}) });
  sandboxes.push(sandbox);
  return sandbox;
}

/** run_command in the real sandbox; running again outside it is never allowed. */
function inside(workspace: string, sandbox = sandboxFor(workspace)) {
  const ctx = makeToolContext(workspace, { terminal, sandbox, confirm: async () => ({ allowed: false }) });
  return async (text: string) => {
    const result = await runCommand.execute(runCommand.parameters.parse({ command: text, timeout_ms: 60_000 }), ctx);
    const output = result.output;
    return {
      output,
      body: output.replace(/\n\n(exit code|killed by|timed out)[\s\S]*$/, ''),
      exitCode: Number(/exit code (\d+)/.exec(output)?.[1] ?? -1),
    };
  };
}

/** The same command in the same terminal, outside any sandbox. */
async function outside(workspace: string, text: string): Promise<string> {
  const result = await terminal.run({ command: text, cwd: workspace, timeoutMs: 60_000, signal: new AbortController().signal });
  return result.output.replace(/\n+$/, '');
}

describe('the workspace looks the same inside the sandbox as outside it', () => {
  it('ls -a, git status, git add -A, git stash -u, git clean -nd, find, tar and a worktree give what they give outside', async () => {
    const root = tempRoot();
    const a = project(path.join(root, 'a'));
    const b = path.join(root, 'b');
    fs.cpSync(a, b, { recursive: true });
    const run = inside(a);
    const steps = [
      'ls -a',
      'git status --porcelain',
      'git clean -nd',
      'find . -path ./.git/objects -prune -o -print | sort',
      'tar cf - --exclude=./.git/objects . | tar tf - | sort',
      'git add -A && git commit -qm everything && git log --format="%H %s"',
      'echo more >> notes.txt && echo new > fresh.txt && git stash -u && git status --porcelain && git stash pop -q && git status --porcelain',
      'git worktree add -q "$TMPDIR/wt-feature" -b feature && git -C "$TMPDIR/wt-feature" log --oneline | wc -l && git worktree remove "$TMPDIR/wt-feature"',
      'ls -a .git | grep -v -e ORIG_HEAD -e logs',
    ];
    for (const step of steps) {
      const result = await run(step);
      expect(result.body.replaceAll(a, '<ws>'), step).toBe((await outside(b, step)).replaceAll(b, '<ws>'));
      expect(result.output, step).not.toContain('fence');
    }
    expect(fs.existsSync(path.join(a, '.tether'))).toBe(false);
    for (const name of ['modules', 'commondir', 'config.worktree']) expect(fs.existsSync(path.join(a, '.git', name)), name).toBe(false);
  });

  it('a protected path that is not there is still kept from commands: what a command makes there goes to Tether’s data folder, and the result says where', async () => {
    const root = tempRoot();
    const ws = project(path.join(root, 'ws'));
    fs.rmSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    const dataDir = path.join(root, 'data');
    const run = inside(ws, sandboxFor(ws, { dataDir }));
    const attempts: Array<[string, string, string | undefined]> = [
      ['.tether', 'mkdir -p .tether && echo \'{"hooks":{}}\' > .tether/settings.json', undefined],
      [
        '.git/hooks',
        'mkdir -p .git/hooks && printf "#!/bin/sh\\ntouch planted\\n" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit',
        undefined,
      ],
      ['.git/commondir', 'echo ../../elsewhere > .git/commondir', '../../elsewhere\n'],
      [
        '.git/config.worktree',
        'printf "[core]\\n\\tfsmonitor = touch planted\\n" > .git/config.worktree',
        '[core]\n\tfsmonitor = touch planted\n',
      ],
    ];
    for (const [top, step, contents] of attempts) {
      const result = await run(step);
      expect(result.output, step).toContain(`the write fence: ${top} is protected from commands`);
      expect(fs.existsSync(path.join(ws, top)), top).toBe(false);
      const movedTo = /moved what the command made there out of the workspace, to (\S+?)[;.]?(?:\s|$)/.exec(result.output)?.[1];
      expect(movedTo, result.output).toBeDefined();
      expect(movedTo!.startsWith(path.join(dataDir, 'sandbox', 'quarantine')), movedTo).toBe(true);
      // What the command wrote is kept there, not deleted.
      expect(fs.existsSync(movedTo!), movedTo).toBe(true);
      if (contents !== undefined) expect(fs.readFileSync(movedTo!, 'utf8')).toBe(contents);
    }
    // The person's git runs nothing that was made, and sees nothing of it.
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'the person commits');
    expect(fs.existsSync(path.join(ws, 'planted'))).toBe(false);
    expect(git(ws, 'status', '--porcelain')).toBe('?? notes.txt\n');
  });
});

describe('/tmp is the session’s own', () => {
  it('is writable, kept from one command to the next, TMPDIR, and never the real /tmp', async () => {
    const root = tempRoot();
    const ws = project(path.join(root, 'ws'));
    const run = inside(ws);
    const name = `tether-fits-${path.basename(root)}`;
    const first = await run(`echo scratch > /tmp/${name} && mkdir /tmp/${name}-build && tar czf /tmp/${name}.tgz src && echo "$TMPDIR"`);
    expect(first.body).toBe('/tmp');
    expect(first.output).not.toContain('fence');
    expect((await run(`cat /tmp/${name} && ls /tmp/${name}-build && tar tzf /tmp/${name}.tgz`)).body).toBe('scratch\nsrc/\nsrc/app.js');
    expect(fs.existsSync(path.join('/tmp', name))).toBe(false);
    expect(fs.existsSync(path.join('/tmp', `${name}.tgz`))).toBe(false);
  });

  it('refuses the real /tmp through /proc and through a symbolic link, either way round', async () => {
    const root = tempRoot();
    const ws = project(path.join(root, 'ws'));
    const real = path.join('/tmp', `tether-real-${path.basename(root)}`);
    fs.writeFileSync(real, 'the real /tmp\n');
    made.push(real);
    const run = inside(ws);
    for (const step of [
      `cat /proc/1/root${real}`,
      `cat /proc/self/root${real}`,
      `cat /proc/$$/cwd/../..${real}`,
      `ln -s ${real} link && cat link`,
      `cat ${real}`,
      `ls /proc/*/root/tmp 2>&1 | grep -c tether-real-`,
    ]) {
      expect((await run(step)).output, step).not.toContain('the real /tmp');
    }
    // A link the command leaves into its /tmp leads, outside, to a real /tmp it never wrote.
    const planted = `/tmp/tether-planted-${path.basename(root)}`;
    await run(`echo payload > ${planted} && ln -sf ${planted} leads-out`);
    expect(fs.existsSync(planted)).toBe(false);
    expect(fs.existsSync(path.join(ws, 'leads-out'))).toBe(false);
  });

  it('is the session’s across its runs, and each session has its own', async () => {
    const root = tempRoot();
    const ws = project(path.join(root, 'ws'));
    const dataDir = path.join(root, 'data');
    await inside(ws, sandboxFor(ws, { dataDir, sessionId: 's1' }))('echo kept > /tmp/kept.txt');
    expect((await inside(ws, sandboxFor(ws, { dataDir, sessionId: 's1' }))('cat /tmp/kept.txt')).body).toBe('kept');
    expect((await inside(ws, sandboxFor(ws, { dataDir, sessionId: 's2' }))('cat /tmp/kept.txt')).body).toContain('No such file');
    expect(fs.readFileSync(path.join(dataDir, 'sandbox', 'tmp', 's1', 'kept.txt'), 'utf8')).toBe('kept\n');
  });
});

describe('toolchain caches', () => {
  it('are Tether’s folders for the project, whatever the person set, and the person’s own are never written', async () => {
    const root = tempRoot();
    const ws = project(path.join(root, 'ws'));
    // Outside /tmp, where the person's cache would be (inside the sandbox /tmp is the session's own).
    const personal = fs.mkdtempSync('/var/tmp/tether-persons-cache-');
    made.push(personal);
    const before = { npm: process.env.npm_config_cache, pip: process.env.PIP_CACHE_DIR };
    process.env.npm_config_cache = personal;
    process.env.PIP_CACHE_DIR = personal;
    try {
      const dataDir = path.join(root, 'data');
      const run = inside(ws, sandboxFor(ws, { dataDir }));
      const names = ['npm_config_cache', 'PIP_CACHE_DIR', 'UV_CACHE_DIR', 'CARGO_HOME', 'GOMODCACHE', 'GRADLE_USER_HOME', 'XDG_CACHE_HOME'];
      const shown = (await run(`printenv ${names.join(' ')}; echo "$MAVEN_OPTS"`)).body.split('\n');
      for (const value of shown)
        expect(value.startsWith(path.join(dataDir, 'sandbox', 'caches')) || value.includes('-Dmaven.repo.local='), value).toBe(true);
      const writes = await run(
        `npm config get cache && touch "$npm_config_cache/ours" && python3 -c "import os; open(os.path.join(os.environ['PIP_CACHE_DIR'], 'ours'), 'w')" && touch ${personal}/theirs`,
      );
      expect(writes.body.split('\n')[0]).toBe(path.join(shown[0]!));
      expect(writes.output).toContain(`the write fence: ${personal}/theirs`);
      expect(fs.readdirSync(personal)).toEqual([]);
    } finally {
      for (const [name, value] of [
        ['npm_config_cache', before.npm],
        ['PIP_CACHE_DIR', before.pip],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('a cache folder deleted while a command runs is named in its result, and made again for the next one', async () => {
    const root = tempRoot();
    const ws = project(path.join(root, 'ws'));
    const run = inside(ws);
    const deleted = await run('rm -rf "$npm_config_cache"; exit 1');
    expect(deleted.output).toMatch(/Tether's npm cache folder \S+\/npm was deleted while the command ran/);
    expect((await run('test -d "$npm_config_cache" && echo there')).body).toBe('there');
  });
});

describe('a command that failed at the fence is known by what the sandbox refused', () => {
  it('whatever it printed: nothing, a misleading ENOENT, or its own words', async () => {
    const root = tempRoot();
    const ws = project(path.join(root, 'ws'));
    const run = inside(ws);
    const away = path.join(os.homedir(), `.tether-fits-${path.basename(root)}`);
    for (const step of [
      `python3 -c "import os; os.makedirs('${away}/a/b')" 2>/dev/null; exit 3`,
      `node -e "try { require('fs').mkdirSync('${away}/x/y', { recursive: true }) } catch (e) { console.error('could not set things up: ' + e.code); process.exit(1) }"`,
      `echo data 2>/dev/null > /etc/tether-fits-probe || exit 4`,
    ]) {
      const result = await run(step);
      expect(result.exitCode, step).not.toBe(0);
      expect(result.output, step).toMatch(/The command hit the sandbox fence: the write fence: \/(root|home|etc)\S*/);
    }
    expect(fs.existsSync(away)).toBe(false);
  });
});

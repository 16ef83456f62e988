import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../src/shared/events';
import type { Decision } from '../src/shared/permissions';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker, type ApprovalRequest, type Broker } from '../src/main/permissions/broker';
import { createCommandSandbox } from '../src/main/sandbox/commandSandbox';
import { startScriptedModel } from './fixtures/scriptedModel';
import { closedAfterEach } from './support/loopLifetime';
import { outsideTempDir, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';

// Issue 6, item 1 through the real loop: run_command in bubblewrap, a fence hit, and the second question.

const loop = closedAfterEach();

/** A person who allows everything they are asked, and remembers what they were asked. */
class AllowingPerson implements Broker {
  readonly asked: ApprovalRequest[] = [];
  async decide(request: ApprovalRequest): Promise<Decision> {
    this.asked.push(request);
    return { action: 'allow', scope: 'once', by: 'person' };
  }
}

async function runWriteOutside(
  broker: Broker,
  settings?: object,
  options: {
    noSandbox?: boolean;
    inside?: boolean;
    command?: (outside: string, workspace: string) => string;
    home?: string;
    sandboxOffBy?: string;
    prepare?: (workspace: string) => void;
    /** Why nothing may run outside the sandbox (the managed policy's requireSandbox). */
    required?: string;
  } = {},
) {
  const dataDir = tempDir('tether-data-');
  if (settings) writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(settings));
  const workspace = tempDir('tether-ws-');
  options.prepare?.(workspace);
  const outside = options.inside ? path.join(workspace, 'inside.txt') : path.join(outsideTempDir(), 'escaped.txt');
  const core = (loop.core = createCore({ dataDir }));
  const server = (loop.server = await startScriptedModel({
    turns: [
      { toolCalls: [{ name: 'run_command', arguments: { command: options.command?.(outside, workspace) ?? `touch ${outside}` } }] },
      { text: 'Done.' },
    ],
  }));
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace, task: 'touch a file', model, maxSteps: 5 });
  const sandbox = options.noSandbox
    ? createCommandSandbox({
        workspace,
        dataDir,
        pathEnv: path.join(workspace, 'no-bin'),
        ...(options.required ? { required: options.required } : {}),
      })
    : options.home
      ? createCommandSandbox({ workspace, dataDir, home: options.home })
      : undefined;
  await core.run(sessionId, {
    model,
    broker,
    signal: new AbortController().signal,
    ...(sandbox ? { sandbox } : {}),
    ...(options.sandboxOffBy ? { sandboxOffBy: options.sandboxOffBy } : {}),
  });
  const events = core.store.events.list(sessionId);
  return { outside, events, told: allToolOutputs(server.requests[1]!).join('\n') };
}

function asked(events: StoredEvent[]): Extract<SessionEvent, { type: 'approval.asked' }>[] {
  return events.flatMap((stored) => (stored.event.type === 'approval.asked' ? [stored.event] : []));
}

function answered(events: StoredEvent[]): Extract<SessionEvent, { type: 'approval.answered' }>[] {
  return events.flatMap((stored) => (stored.event.type === 'approval.answered' ? [stored.event] : []));
}

describe('run_command in the sandbox, through the agent loop', () => {
  it('asks a second question after a fence hit, and runs the command outside the sandbox once allowed', async () => {
    const person = new AllowingPerson();
    const { outside, events, told } = await runWriteOutside(person);
    expect(existsSync(outside)).toBe(true);
    const questions = asked(events);
    expect(questions).toHaveLength(2);
    expect(questions[0]?.sandbox).toBeUndefined();
    expect(questions[1]).toMatchObject({
      tool: 'run_command',
      callId: questions[0]?.callId,
      sandbox: { kind: 'fence_hit', reason: expect.stringContaining(`the write fence: ${outside}`) },
      allowAlways: { refused: expect.stringContaining('once') },
      reason: expect.stringMatching(/^This command hit the sandbox fence \(.*\)\. Run it again outside the sandbox\?$/),
    });
    expect(answered(events).map((event) => event.decision.scope)).toEqual(['once', 'once']);
    expect(told).toContain('the person allowed running it again outside the sandbox');
    const finished = events.find((stored) => stored.event.type === 'tool.finished')?.event;
    expect(finished).toMatchObject({ outcome: 'ok', metadata: { sandbox: 'outside' } });
  });

  it('headless tether run denies the retry, and the model reads which fence was hit', async () => {
    // The path is in a Makefile, where only the fence sees it: a path spelled on the line, or one only
    // known when it runs (`touch "$(printf %s …)"`), would ask before the command ran.
    const { outside, events, told } = await runWriteOutside(
      new HeadlessBroker({ unleashed: false }),
      { permissions: { allow: ['run_command(make escape)'] } },
      {
        command: (target, workspace) => {
          writeFileSync(path.join(workspace, 'Makefile'), `escape:\n\ttouch ${target}\n`);
          return 'make escape';
        },
      },
    );
    expect(existsSync(outside)).toBe(false);
    expect(asked(events).map((event) => event.sandbox?.kind)).toEqual(['fence_hit']);
    expect(answered(events)[0]?.decision).toMatchObject({ action: 'deny', by: 'headless' });
    expect(told).toContain(`The command hit the sandbox fence: the write fence: ${outside} is outside the workspace`);
    expect(told).toContain('only the person can choose to run without the sandbox (tether run --no-sandbox)');
  });

  it('with no sandbox available, the one dialog says so, and allowing runs the command unsandboxed', async () => {
    const person = new AllowingPerson();
    const { outside, events } = await runWriteOutside(person, undefined, { noSandbox: true, inside: true });
    expect(existsSync(outside)).toBe(true);
    expect(asked(events).map((event) => event.sandbox)).toEqual([
      { kind: 'unavailable', reason: expect.stringContaining('bubblewrap (bwrap)') },
    ]);
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({
      outcome: 'ok',
      metadata: { sandbox: 'unavailable' },
    });
  });

  it('with no sandbox available where the managed policy requires one, the request does not say the command runs unsandboxed, and it does not run', async () => {
    const person = new AllowingPerson();
    const required = 'the managed policy /etc/tether/managed-settings.json requires it (requireSandbox)';
    const { outside, events } = await runWriteOutside(person, undefined, { noSandbox: true, inside: true, required });
    expect(asked(events).map((event) => event.sandbox)).toEqual([undefined]);
    expect(existsSync(outside)).toBe(false);
  });

  it('with no sandbox available where the managed policy requires one, a hook does not run either (it would run unfenced), and says why', async () => {
    const marker = path.join(tempDir('tether-hook-marker-'), 'hook-ran');
    const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `touch ${marker}` }] }] };
    const required = 'the managed policy /etc/tether/managed-settings.json requires it (requireSandbox)';
    const { events } = await runWriteOutside(new AllowingPerson(), { hooks }, { noSandbox: true, inside: true, required });
    expect(existsSync(marker)).toBe(false);
    const ran = events.flatMap((stored) => (stored.event.type === 'hook.ran' ? [stored.event] : []));
    expect(ran.map((event) => event.result)).toEqual(['failed']);
    expect(ran[0]?.problem).toContain('No sandbox is available');

    // Without the policy, a hook runs as the session's commands then do: unfenced.
    await runWriteOutside(new AllowingPerson(), { hooks }, { noSandbox: true, inside: true });
    expect(existsSync(marker)).toBe(true);
  });

  it('with no sandbox available, a command the person edited before allowing runs after that one dialog', async () => {
    const edited = path.join(tempDir('tether-edited-'), 'edited.txt');
    const editingPerson: Broker = {
      decide: async () => ({ action: 'allow', scope: 'once', by: 'person', editedArgs: { command: `touch ${edited}` } }),
    };
    const { events } = await runWriteOutside(editingPerson, undefined, { noSandbox: true, inside: true });
    expect(asked(events).map((event) => event.sandbox?.kind)).toEqual(['unavailable']);
    expect(existsSync(edited)).toBe(true);
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({
      outcome: 'ok',
      metadata: { sandbox: 'unavailable' },
    });
  });

  it('with no sandbox available, a command the rules allow still asks: nothing runs unsandboxed silently', async () => {
    const { outside, events } = await runWriteOutside(
      new HeadlessBroker({ unleashed: false }),
      { permissions: { allow: ['run_command(touch *)'] } },
      { noSandbox: true, inside: true },
    );
    expect(existsSync(outside)).toBe(false);
    expect(asked(events).map((event) => event.sandbox?.kind)).toEqual(['unavailable']);
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({
      outcome: 'error',
      output: expect.stringContaining('Not run: No sandbox is available'),
    });
  });
});

// --unleashed answers questions; it never switches the fence off. Each member of the class: a write
// outside the workspace, a read of a secret, a machine with no sandbox at all.
describe('headless --unleashed never leaves the sandbox', () => {
  const unleashed = () => new HeadlessBroker({ unleashed: true });

  it('refuses to run a write outside the workspace again outside the sandbox, naming the path', async () => {
    const { outside, events, told } = await runWriteOutside(unleashed());
    expect(existsSync(outside)).toBe(false);
    // The command itself is allowed (a headless stand-in answers it); running it again outside is not.
    expect(asked(events).map((event) => event.sandbox?.kind)).toEqual([undefined, 'fence_hit']);
    expect(answered(events).map((event) => event.decision.action)).toEqual(['allow', 'deny']);
    expect(told).toContain(`the write fence: ${outside}`);
    expect(told).toContain('--unleashed included');
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({
      outcome: 'error',
      metadata: { sandbox: 'sandboxed' },
    });
  });

  it('refuses to read a secret outside the sandbox: the key never reaches the model', async () => {
    const home = tempDir('tether-home-');
    const key = path.join(home, '.ssh', 'id_ed25519');
    mkdirSync(path.dirname(key), { recursive: true });
    writeFileSync(key, 'PRIVATE KEY MATERIAL 7f3a');
    const { events, told } = await runWriteOutside(unleashed(), undefined, { home, command: () => `cat ${key}` });
    expect(told).not.toContain('PRIVATE KEY MATERIAL');
    expect(JSON.stringify(events)).not.toContain('PRIVATE KEY MATERIAL');
    expect(asked(events).at(-1)?.sandbox).toMatchObject({ kind: 'fence_hit', reason: expect.stringContaining(key) });
    expect(answered(events).at(-1)?.decision).toMatchObject({ action: 'deny', by: 'headless' });
    expect(told).toContain('Not run outside the sandbox');
  });

  it('with no sandbox available, does not run the command unsandboxed', async () => {
    const { outside, events, told } = await runWriteOutside(unleashed(), undefined, { noSandbox: true, inside: true });
    expect(existsSync(outside)).toBe(false);
    // The first answer (the headless stand-in's) does not cover running unsandboxed; the question that does is refused.
    expect(asked(events).map((event) => event.sandbox?.kind)).toEqual(['unavailable', 'unavailable']);
    expect(answered(events).map((event) => event.decision.action)).toEqual(['allow', 'deny']);
    expect(told).toContain('Not run: No sandbox is available');
  });

  it('--no-sandbox is the explicit way out: commands run unsandboxed, and the session says so for good', async () => {
    const { outside, events } = await runWriteOutside(unleashed(), undefined, { sandboxOffBy: 'tether run --no-sandbox' });
    expect(existsSync(outside)).toBe(true);
    expect(events.map((stored) => stored.event)).toContainEqual({ type: 'sandbox.turned_off', by: 'tether run --no-sandbox' });
    expect(asked(events).some((event) => event.sandbox)).toBe(false);
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({
      outcome: 'ok',
      metadata: { sandbox: 'off' },
    });
  });
});

// The read fence covers the credential stores people have, and .env files at any depth: a sandboxed
// command reads none of them, and nothing of them reaches the model.
describe('the read fence keeps secrets from commands', () => {
  it('covers the home folder’s credential stores and a .env four folders down', async () => {
    const home = tempDir('tether-home-');
    const stores = [
      '.netrc',
      '.git-credentials',
      '.npmrc',
      '.docker/config.json',
      '.kube/config',
      '.config/gh/hosts.yml',
      '.pypirc',
      '.cargo/credentials.toml',
    ];
    for (const [i, store] of stores.entries()) {
      mkdirSync(path.dirname(path.join(home, store)), { recursive: true });
      writeFileSync(path.join(home, store), `SECRET-STORE-${i}\n`);
    }
    const deepEnv = path.join('services', 'api', 'config', 'prod', '.env.production');
    const { events, told } = await runWriteOutside(new HeadlessBroker({ unleashed: true }), undefined, {
      home,
      prepare: (workspace) => {
        mkdirSync(path.join(workspace, path.dirname(deepEnv)), { recursive: true });
        writeFileSync(path.join(workspace, deepEnv), 'SECRET-ENV=1\n');
        writeFileSync(path.join(workspace, 'README.md'), 'PUBLIC-README\n');
      },
      command: (_outside, workspace) =>
        `${[...stores.map((store) => path.join(home, store)), path.join(workspace, deepEnv)].map((file) => `cat ${file}`).join('; ')}; cat README.md`,
    });
    expect(told).toContain('PUBLIC-README');
    expect(told).not.toMatch(/SECRET-STORE-|SECRET-ENV/);
    expect(JSON.stringify(events)).not.toMatch(/SECRET-STORE-|SECRET-ENV/);
  });
});

describe('temporary files inside the sandbox', () => {
  it('TMPDIR exists and is writable: mktemp, Python tempfile and a here-document work', async () => {
    const { told, events } = await runWriteOutside(new HeadlessBroker({ unleashed: true }), undefined, {
      inside: true,
      command: () =>
        'test -d "$TMPDIR" && test -w "$TMPDIR" && echo TMPDIR-OK; f=$(mktemp) && echo hi > "$f" && cat "$f" && echo MKTEMP-OK; ' +
        'python3 -c "import tempfile; f = tempfile.NamedTemporaryFile(); print(\'PYTHON-OK\')"; cat <<EOF\nHEREDOC-OK\nEOF',
    });
    expect(told).toContain('TMPDIR-OK');
    expect(told).toContain('MKTEMP-OK');
    expect(told).toContain('PYTHON-OK');
    expect(told).toContain('HEREDOC-OK');
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({ metadata: { sandbox: 'sandboxed' } });
  });

  it("git's textconv, which writes each side of a diff to a file in TMPDIR, works", async () => {
    const { told, events } = await runWriteOutside(new HeadlessBroker({ unleashed: true }), undefined, {
      inside: true,
      prepare: (workspace) => {
        const git = (...args: string[]) =>
          execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: workspace, stdio: 'ignore' });
        git('init', '-q');
        git('config', 'diff.dump.textconv', 'od -c');
        writeFileSync(path.join(workspace, '.gitattributes'), '*.bin diff=dump\n');
        writeFileSync(path.join(workspace, 'a.bin'), 'first\0');
        git('add', '.');
        git('commit', '-qm', 'one');
        writeFileSync(path.join(workspace, 'a.bin'), 'second\0');
        git('commit', '-qam', 'two');
      },
      command: () => 'git log -p --textconv -1 -- a.bin && echo TEXTCONV-OK',
    });
    expect(told).toContain('TEXTCONV-OK');
    // od's rendering of both blobs, which git could only hand it through files in TMPDIR.
    expect(told).toMatch(/-0000000 +f +i +r +s +t +\\0/);
    expect(told).toMatch(/\+0000000 +s +e +c +o +n +d +\\0/);
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({ metadata: { sandbox: 'sandboxed' } });
  });
});

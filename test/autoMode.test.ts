import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker, type ApprovalRequest, type Broker } from '../src/main/permissions/broker';
import { createCommandSandbox } from '../src/main/sandbox/commandSandbox';
import { startScriptedModel } from './fixtures/scriptedModel';
import { eventsOf } from './support/events';
import { closedAfterEach } from './support/loopLifetime';
import { outsideTempDir, tempDir } from './support/tempDirs';

// Mode auto through the real loop, real bubblewrap and the scripted model: commands the sandbox holds
// run without a question, what leaves the fence asks (headless: is denied), and with no sandbox auto
// works as ask.

const loop = closedAfterEach();

async function runAuto(commands: string[], options: { noSandbox?: boolean; broker?: Broker } = {}) {
  const dataDir = tempDir('tether-data-');
  const workspace = tempDir('tether-ws-');
  mkdirSync(path.join(workspace, 'build'));
  writeFileSync(path.join(workspace, 'build', 'out.o'), 'x');
  writeFileSync(path.join(workspace, 'repro.py'), "open('repro.txt', 'w').write('reproduced')\n");
  const core = (loop.core = createCore({ dataDir }));
  const server = (loop.server = await startScriptedModel({
    turns: [...commands.map((command) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] })), { text: 'Done.' }],
  }));
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace, task: 'fix it', model, maxSteps: commands.length + 2 });
  const sandbox = options.noSandbox ? createCommandSandbox({ workspace, dataDir, pathEnv: path.join(workspace, 'no-bin') }) : undefined;
  await core.run(sessionId, {
    model,
    broker: options.broker ?? new HeadlessBroker({ unleashed: false }),
    mode: 'auto',
    signal: new AbortController().signal,
    ...(sandbox ? { sandbox } : {}),
  });
  return { workspace, events: core.store.events.list(sessionId) };
}

describe('mode auto', () => {
  it('runs what the sandbox holds without a question, and asks (headless: denies) when a command would leave it', async () => {
    const outside = path.join(outsideTempDir(), 'escaped.txt');
    const { workspace, events } = await runAuto(['python3 repro.py', 'rm -rf build', `touch "$(printf %s ${outside})"`]);
    expect(existsSync(path.join(workspace, 'repro.txt'))).toBe(true);
    expect(existsSync(path.join(workspace, 'build'))).toBe(false);
    expect(existsSync(outside)).toBe(false);
    // The only question is the one at the fence: run the last command again outside the sandbox.
    expect(eventsOf(events, 'approval.asked').map((event) => event.sandbox?.kind)).toEqual(['fence_hit']);
    expect(eventsOf(events, 'tool.finished').map((event) => event.outcome)).toEqual(['ok', 'ok', 'error']);
  });

  it('runs scratch work in /tmp without a question: it is the session’s own', async () => {
    const { events } = await runAuto([
      'echo scratch > /tmp/notes.txt && mkdir -p /tmp/build && cp repro.py /tmp/build/ && python3 /tmp/build/repro.py',
      'f=$(mktemp) && echo x > "$f" && tar czf /tmp/src.tgz build && cat /tmp/notes.txt',
    ]);
    expect(eventsOf(events, 'approval.asked')).toEqual([]);
    expect(eventsOf(events, 'tool.finished').map((event) => [event.outcome, event.metadata])).toEqual([
      ['ok', expect.objectContaining({ sandbox: 'sandboxed', exitCode: 0 })],
      ['ok', expect.objectContaining({ sandbox: 'sandboxed', exitCode: 0 })],
    ]);
  });

  it('asks once about a write outside: the question says it runs outside the sandbox, and the person’s allow does that', async () => {
    const outside = path.join(outsideTempDir(), 'notes.txt');
    const asked: ApprovalRequest[] = [];
    const person: Broker = {
      decide: async (request) => {
        asked.push(request);
        return { action: 'allow', scope: 'once', by: 'person' };
      },
    };
    const { events } = await runAuto([`echo remember >> ${outside}`], { broker: person });
    expect(readFileSync(outside, 'utf8')).toBe('remember\n');
    const questions = eventsOf(events, 'approval.asked');
    expect(questions).toHaveLength(1);
    expect(questions[0]?.sandbox).toEqual({ kind: 'outside_write', reason: expect.stringContaining(outside) });
    expect(questions[0]?.allowAlways).toEqual({ refused: expect.stringContaining('never always') });
    expect(eventsOf(events, 'tool.finished')[0]).toMatchObject({ outcome: 'ok', metadata: { sandbox: 'outside' } });
  });

  it('works as ask where no sandbox is available: every command asks, and headless denies it', async () => {
    const { workspace, events } = await runAuto(['python3 repro.py'], { noSandbox: true });
    expect(existsSync(path.join(workspace, 'repro.txt'))).toBe(false);
    expect(eventsOf(events, 'approval.asked')).toHaveLength(1);
    expect(eventsOf(events, 'approval.asked')[0]?.reason).toMatch(/no sandbox holds this session’s commands/);
    expect(eventsOf(events, 'tool.finished').map((event) => event.outcome)).toEqual(['denied']);
  });
});

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../src/shared/events';
import { createCore, type Core } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { createCommandSandbox } from '../src/main/sandbox/commandSandbox';
import { startScriptedModel, type ScriptedModel } from './fixtures/scriptedModel';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Mode auto through the real loop, real bubblewrap and the scripted model: commands the sandbox holds
// run without a question, what leaves the fence asks (headless: is denied), and with no sandbox auto
// works as ask.

let core: Core | undefined;
let server: ScriptedModel | undefined;

afterEach(async () => {
  core?.close();
  core = undefined;
  await server?.close();
  server = undefined;
  removeTempDirs();
});

const of = <T extends SessionEvent['type']>(events: StoredEvent[], type: T) =>
  events.flatMap((stored) => (stored.event.type === type ? [stored.event as Extract<SessionEvent, { type: T }>] : []));

async function runAuto(commands: string[], options: { noSandbox?: boolean } = {}) {
  const dataDir = tempDir('tether-data-');
  const workspace = tempDir('tether-ws-');
  mkdirSync(path.join(workspace, 'build'));
  writeFileSync(path.join(workspace, 'build', 'out.o'), 'x');
  writeFileSync(path.join(workspace, 'repro.py'), "open('repro.txt', 'w').write('reproduced')\n");
  core = createCore({ dataDir });
  server = await startScriptedModel({
    turns: [...commands.map((command) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] })), { text: 'Done.' }],
  });
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace, task: 'fix it', model, maxSteps: commands.length + 2 });
  const sandbox = options.noSandbox ? createCommandSandbox({ workspace, dataDir, pathEnv: path.join(workspace, 'no-bin') }) : undefined;
  await core.run(sessionId, { model, broker: new HeadlessBroker({ unleashed: false }), mode: 'auto', signal: new AbortController().signal, ...(sandbox ? { sandbox } : {}) });
  return { workspace, events: core.store.events.list(sessionId) };
}

describe('mode auto', () => {
  it('runs what the sandbox holds without a question, and asks (headless: denies) when a command would leave it', async () => {
    const outside = path.join(tempDir('tether-outside-'), 'escaped.txt');
    const { workspace, events } = await runAuto(['python3 repro.py', 'rm -rf build', `touch "$(printf %s ${outside})"`]);
    expect(existsSync(path.join(workspace, 'repro.txt'))).toBe(true);
    expect(existsSync(path.join(workspace, 'build'))).toBe(false);
    expect(existsSync(outside)).toBe(false);
    // The only question is the one at the fence: run the last command again outside the sandbox.
    expect(of(events, 'approval.asked').map((event) => event.sandbox?.kind)).toEqual(['fence_hit']);
    expect(of(events, 'tool.finished').map((event) => event.outcome)).toEqual(['ok', 'ok', 'error']);
  });

  it('works as ask where no sandbox is available: every command asks, and headless denies it', async () => {
    const { workspace, events } = await runAuto(['python3 repro.py'], { noSandbox: true });
    expect(existsSync(path.join(workspace, 'repro.txt'))).toBe(false);
    expect(of(events, 'approval.asked')).toHaveLength(1);
    expect(of(events, 'approval.asked')[0]?.reason).toMatch(/no sandbox holds this session’s commands/);
    expect(of(events, 'tool.finished').map((event) => event.outcome)).toEqual(['denied']);
  });
});

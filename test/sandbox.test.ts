import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, StoredEvent } from '../src/shared/events';
import type { Decision } from '../src/shared/permissions';
import { createCore, type Core } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker, type ApprovalRequest, type Broker } from '../src/main/permissions/broker';
import { createCommandSandbox } from '../src/main/sandbox/commandSandbox';
import { startScriptedModel, type ScriptedModel } from './fixtures/scriptedModel';
import { removeTempDirs, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';

// Issue 6, item 1 through the real loop: run_command in bubblewrap, a fence hit, and the second question.

let core: Core | undefined;
let server: ScriptedModel | undefined;

afterEach(async () => {
  core?.close();
  core = undefined;
  await server?.close();
  server = undefined;
  removeTempDirs();
});

/** A person who allows everything they are asked, and remembers what they were asked. */
class AllowingPerson implements Broker {
  readonly asked: ApprovalRequest[] = [];
  async decide(request: ApprovalRequest): Promise<Decision> {
    this.asked.push(request);
    return { action: 'allow', scope: 'once', by: 'person' };
  }
}

async function runWriteOutside(broker: Broker, settings?: object, options: { noSandbox?: boolean; inside?: boolean } = {}) {
  const dataDir = tempDir('tether-data-');
  if (settings) writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(settings));
  const workspace = tempDir('tether-ws-');
  const outside = options.inside ? path.join(workspace, 'inside.txt') : path.join(tempDir('tether-outside-'), 'escaped.txt');
  core = createCore({ dataDir });
  server = await startScriptedModel({
    turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: `touch ${outside}` } }] }, { text: 'Done.' }],
  });
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
  const sessionId = core.createSession({ workspace, task: 'touch a file', model, maxSteps: 5 });
  const sandbox = options.noSandbox ? createCommandSandbox({ workspace, dataDir, pathEnv: path.join(workspace, 'no-bin') }) : undefined;
  await core.run(sessionId, { model, broker, signal: new AbortController().signal, ...(sandbox ? { sandbox } : {}) });
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
    const { outside, events, told } = await runWriteOutside(new HeadlessBroker({ unleashed: false }), {
      permissions: { allow: ['run_command(touch *)'] },
    });
    expect(existsSync(outside)).toBe(false);
    expect(asked(events).map((event) => event.sandbox?.kind)).toEqual(['fence_hit']);
    expect(answered(events)[0]?.decision).toMatchObject({ action: 'deny', by: 'headless' });
    expect(told).toContain(`The command hit the sandbox fence: the write fence: ${outside} is outside the workspace`);
    expect(told).toContain('--unleashed');
  });

  it('headless tether run with --unleashed runs it again outside', async () => {
    const { outside } = await runWriteOutside(new HeadlessBroker({ unleashed: true }));
    expect(existsSync(outside)).toBe(true);
  });

  it('with no sandbox available, the one dialog says so, and allowing runs the command unsandboxed', async () => {
    const person = new AllowingPerson();
    const { outside, events } = await runWriteOutside(person, undefined, { noSandbox: true, inside: true });
    expect(existsSync(outside)).toBe(true);
    expect(asked(events).map((event) => event.sandbox)).toEqual([{ kind: 'unavailable', reason: expect.stringContaining('bubblewrap (bwrap)') }]);
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({ outcome: 'ok', metadata: { sandbox: 'unavailable' } });
  });

  it('with no sandbox available, a command the person edited before allowing runs after that one dialog', async () => {
    const edited = path.join(tempDir('tether-edited-'), 'edited.txt');
    const editingPerson: Broker = {
      decide: async () => ({ action: 'allow', scope: 'once', by: 'person', editedArgs: { command: `touch ${edited}` } }),
    };
    const { events } = await runWriteOutside(editingPerson, undefined, { noSandbox: true, inside: true });
    expect(asked(events).map((event) => event.sandbox?.kind)).toEqual(['unavailable']);
    expect(existsSync(edited)).toBe(true);
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({ outcome: 'ok', metadata: { sandbox: 'unavailable' } });
  });

  it('with no sandbox available, a command the rules allow still asks: nothing runs unsandboxed silently', async () => {
    const { outside, events } = await runWriteOutside(new HeadlessBroker({ unleashed: false }), { permissions: { allow: ['run_command(touch *)'] } }, { noSandbox: true, inside: true });
    expect(existsSync(outside)).toBe(false);
    expect(asked(events).map((event) => event.sandbox?.kind)).toEqual(['unavailable']);
    expect(events.find((stored) => stored.event.type === 'tool.finished')?.event).toMatchObject({ outcome: 'error', output: expect.stringContaining('Not run: No sandbox is available') });
  });
});

import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEventType, StoredEvent } from '../src/shared/events';
import { RECORDED_BY_THE_LOOP } from '../bench/support/recordedByTheLoop';
import { createCore, type Core } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { createCommandSandbox, type CommandSandbox } from '../src/main/sandbox/commandSandbox';
import { effectiveFence } from '../src/main/sandbox/fence';
import { openDatabase } from '../src/main/store/sqlite/openDatabase';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { eventsOf } from './support/events';
import { closeScriptedModels, runScripted, type ScriptedRunOptions } from './support/scriptedRun';
import { allToolOutputs } from './support/toolResults';

// The real loop, tools, PTY and SQLite, against the scripted model over real HTTP and the openai SDK.

let core: Core;
let server: ScriptedModel | undefined;

beforeEach(() => {
  core = createCore({ dataDir: tempDir('tether-data-') });
});

afterEach(async () => {
  core.close();
  await server?.close();
  server = undefined;
  await closeScriptedModels();
  removeTempDirs();
});

function runTask(workspace: string, turns: Turn[], options: ScriptedRunOptions = {}) {
  return runScripted(core, workspace, turns, options);
}

const finished = (events: StoredEvent[]) => eventsOf(events, 'tool.finished');

describe.each(['responses', 'chat'] as const)('the agent loop over the %s API', (api) => {
  it('fixes a failing test: reads, edits, runs the tests, sees them pass, answers', async () => {
    const repo = fixtureRepo('failing-test');
    const { outcome, events, types, server } = await runTask(
      repo,
      [
        {
          toolCalls: [
            {
              name: 'update_plan',
              arguments: {
                steps: [
                  { step: 'Find the bug', status: 'in_progress' },
                  { step: 'Fix it', status: 'pending' },
                ],
              },
            },
          ],
        },
        {
          reasoning: 'Read the code first.',
          toolCalls: [
            { name: 'read_file', arguments: { path: 'src/price.js' } },
            { name: 'run_command', arguments: { command: 'npm test' } },
          ],
        },
        {
          toolCalls: [
            { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'cents * percent', new_string: 'cents * percent / 100' } },
          ],
        },
        { toolCalls: [{ name: 'run_command', arguments: { command: 'npm test' } }] },
        {
          toolCalls: [
            {
              name: 'update_plan',
              arguments: {
                steps: [
                  { step: 'Find the bug', status: 'done' },
                  { step: 'Fix it', status: 'done' },
                ],
              },
            },
          ],
        },
        { text: 'Fixed: the discount divided by 100 was missing. The tests pass.' },
      ],
      { api },
    );

    expect(outcome).toEqual({ status: 'done', reason: 'The model answered.' });
    expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toContain('cents - cents * percent / 100');

    // The log holds every step, in order, each call started before it finished.
    expect(types[0]).toBe('session.started');
    expect(types[1]).toBe('user.messaged');
    expect(types.filter((type) => type === 'model.requested')).toHaveLength(6);
    expect(types.at(-1)).toBe('session.finished');
    expect(finished(events).map((event) => `${event.name}:${event.outcome}`)).toEqual([
      'update_plan:ok',
      'read_file:ok',
      'run_command:error',
      'edit_file:ok',
      'run_command:ok',
      'update_plan:ok',
    ]);
    for (const [index, stored] of events.entries()) {
      if (stored.event.type !== 'tool.finished' || stored.event.outcome === 'denied') continue;
      const callId = stored.event.callId;
      const startedAt = events.findIndex((other) => other.event.type === 'tool.started' && other.event.callId === callId);
      expect(startedAt).toBeGreaterThan(-1);
      expect(startedAt).toBeLessThan(index);
    }
    expect(events.map((stored) => stored.seq)).toEqual(events.map((_, i) => i + 1));

    // The model saw the failing run, then the passing one.
    const outputs = server.requests.map(allToolOutputs);
    expect(outputs[2]?.join('\n')).toMatch(/fail 1/);
    expect(outputs[2]?.join('\n')).toMatch(/exit code 1/);
    expect(outputs[4]?.join('\n')).toMatch(/pass 1/);
    expect(outputs[4]?.join('\n')).toMatch(/exit code 0/);

    const state = core.store.sessions.get(events[0]!.sessionId);
    expect(state?.status).toBe('done');
  });
});

describe('the log before anyone acts on it', () => {
  it('has committed every event before it is announced, before the model is called and before a command starts', async () => {
    const repo = fixtureRepo('failing-test');
    // A second connection, as another process (or this one after a crash) would read the file.
    const other = openDatabase(core.store.file, { backgroundCheckpoints: false });
    const committed = other.prepare<[], string>('SELECT type FROM events ORDER BY key').pluck();
    const lastCommitted = other.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM events').pluck();
    const late: string[] = [];
    let storedWhenCommandStarted: string[] = [];
    // The model is called through fetch: what is committed when the request leaves.
    const storedWhenModelCalled: string[][] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/v1/responses')) storedWhenModelCalled.push(committed.all());
      return realFetch(input, init);
    });
    const recorded = new Set<string>();
    const appendGrouped = core.store.events.appendGrouped.bind(core.store.events);
    vi.spyOn(core.store.events, 'appendGrouped').mockImplementation((id, event) => {
      recorded.add(event.type);
      return appendGrouped(id, event);
    });
    const real = createCommandSandbox({ workspace: repo, dataDir: path.dirname(core.store.file) });
    // The sandbox wraps a command just before it is spawned: the moment the tool acts.
    const sandbox: CommandSandbox = {
      availability: real.availability,
      unavailable: real.unavailable,
      fence: real.fence,
      commandPlaces: real.commandPlaces,
      wrap(command, cwd) {
        storedWhenCommandStarted = committed.all();
        return real.wrap(command, cwd);
      },
      dispose: () => real.dispose(),
    };
    try {
      const { outcome, events } = await runTask(
        repo,
        [
          {
            toolCalls: [
              { name: 'update_plan', arguments: { steps: [{ step: 'Look', status: 'in_progress' }] } },
              { name: 'read_file', arguments: { path: 'src/price.js' } },
            ],
          },
          { toolCalls: [{ name: 'run_command', arguments: { command: 'echo checked' } }] },
          { text: 'Done.' },
        ],
        {
          sandbox,
          onEvent(stored) {
            if ((lastCommitted.get() ?? 0) < stored.seq) late.push(`${stored.seq} ${stored.event.type}`);
          },
        },
      );
      expect(outcome.status).toBe('done');
      expect(late).toEqual([]);
      const startOfCommand = events.findIndex((stored) => stored.event.type === 'tool.started' && stored.event.name === 'run_command');
      expect(storedWhenCommandStarted).toEqual(events.slice(0, startOfCommand + 1).map((stored) => stored.event.type));
      expect(storedWhenCommandStarted).toContain('tool.finished');
      // Each request left with its model.requested, and all before it, stored.
      const requestedAt = events.flatMap((stored, index) => (stored.event.type === 'model.requested' ? [index] : []));
      expect(storedWhenModelCalled).toEqual(requestedAt.map((index) => events.slice(0, index + 1).map((stored) => stored.event.type)));
      // What the event-append bench assumes the loop records rather than appends.
      expect([...recorded].sort()).toEqual(['model.responded', 'plan.updated', 'tool.finished']);
      for (const type of recorded) expect(RECORDED_BY_THE_LOOP.has(type as SessionEventType), type).toBe(true);
    } finally {
      vi.restoreAllMocks();
      other.close();
    }
  });
  it('runs a command again outside the sandbox only once the allow it asked for is stored', async () => {
    const repo = fixtureRepo('failing-test');
    const other = openDatabase(core.store.file, { backgroundCheckpoints: false });
    const committed = other.prepare<[], string>('SELECT type FROM events ORDER BY key').pluck();
    let runs = 0;
    // A sandbox that wraps nothing and reports a fence hit on the first run, so the tool asks to run again outside it.
    const sandbox: CommandSandbox = {
      availability: { available: true },
      unavailable: 'ask',
      fence: effectiveFence({ workspace: repo, dataDir: path.dirname(core.store.file) }),
      commandPlaces: ['/tmp'],
      wrap: async (command) => ({
        command,
        env: {},
        finish: () => ({
          hits: ++runs === 1 ? [{ fence: 'write', target: '/etc/hosts', message: 'writing /etc/hosts is outside the fence' }] : [],
          notes: [],
        }),
      }),
      dispose: () => {},
    };
    // The tool says it runs the command again in the same breath as it starts it.
    let storedWhenRunAgain: string[] = [];
    try {
      const { events } = await runTask(
        repo,
        [{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] }, { text: 'Done.' }],
        {
          sandbox,
          // Only a person can allow running outside the sandbox (headless --unleashed refuses it).
          broker: { decide: async () => ({ action: 'allow', scope: 'once', by: 'person' }) },
          onLive(event) {
            if (event.type === 'tool.output' && event.chunk.includes('running the command again outside the sandbox'))
              storedWhenRunAgain = committed.all();
          },
        },
      );
      expect(eventsOf(events, 'tool.finished')[0]?.outcome).toBe('ok');
      // The follow-up's answer is the log's last one (the person's allow).
      const answered = events.findLastIndex((stored) => stored.event.type === 'approval.answered');
      expect(events.slice(0, answered).some((stored) => stored.event.type === 'tool.started')).toBe(true);
      expect(storedWhenRunAgain).toEqual(events.slice(0, answered + 1).map((stored) => stored.event.type));
    } finally {
      other.close();
    }
  });
});

describe('bad input from the model goes back to it as the tool result', () => {
  it('answers malformed JSON, an unknown tool, wrong types, an escaping path and a missing command, then goes on', async () => {
    const repo = fixtureRepo('failing-test');
    const { outcome, events, server } = await runTask(repo, [
      {
        toolCalls: [
          { name: 'read_file', arguments: '{"path": "src/price.js"' },
          { name: 'delete_everything', arguments: {} },
          { name: 'read_file', arguments: { path: 42 } },
          { name: 'read_file', arguments: { path: '../../etc/passwd' } },
          { name: 'run_command', arguments: { command: 'no-such-program-xyz --version' } },
        ],
      },
      { text: 'I could not do it.' },
    ]);
    expect(outcome.status).toBe('done');
    const results = finished(events);
    expect(results.map((event) => event.outcome)).toEqual(['error', 'error', 'error', 'error', 'error']);
    const told = allToolOutputs(server.requests[1]!);
    expect(told[0]).toMatch(/not valid JSON/);
    expect(told[1]).toMatch(/no tool named "delete_everything".*read_file/s);
    expect(told[2]).toMatch(/Invalid arguments for read_file[\s\S]*path/);
    expect(told[3]).toMatch(/outside|escape|inside/i);
    expect(told[4]).toMatch(/127/);
    expect(told[4]).toMatch(/not found/);
  });
});

describe('stopping', () => {
  it('ends a runaway loop at maxSteps and says so', async () => {
    const repo = fixtureRepo('failing-test');
    const turns: Turn[] = Array.from({ length: 5 }, () => ({ toolCalls: [{ name: 'list_files', arguments: {} }] }));
    const { outcome, types } = await runTask(repo, turns, { maxSteps: 3 });
    expect(outcome.status).toBe('max_steps');
    expect(outcome.reason).toMatch(/3 model requests.*maxSteps is 3/);
    expect(types.filter((type) => type === 'model.requested')).toHaveLength(3);
    expect(types.at(-1)).toBe('session.finished');
  });

  it('stops at once on abort, kills the running command, and leaves the log consistent', async () => {
    const repo = fixtureRepo('failing-test');
    const controller = new AbortController();
    const marker = path.join(repo, 'after-sleep');
    // Stop once the command is under way, however long the run took to get there on a busy machine.
    let abortedAt = 0;
    const onEvent = (stored: StoredEvent) => {
      if (stored.event.type !== 'tool.started' || abortedAt) return;
      abortedAt = Date.now() + 300;
      setTimeout(() => controller.abort(), 300);
    };
    const { outcome, events, types } = await runTask(
      repo,
      [
        {
          toolCalls: [
            { name: 'run_command', arguments: { command: `sleep 30 && touch ${marker}` } },
            { name: 'list_files', arguments: {} },
          ],
        },
        { text: 'never' },
      ],
      { signal: controller.signal, onEvent },
    );
    expect(abortedAt).toBeGreaterThan(0);
    expect(Date.now() - abortedAt).toBeLessThan(5000);
    expect(outcome.status).toBe('aborted');
    expect(finished(events).map((event) => event.outcome)).toEqual(['aborted', 'aborted']);
    expect(types.at(-1)).toBe('session.finished');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(marker)).toBe(false);
  });
});

describe('headless permissions', () => {
  it('denies edits and commands without --unleashed; the model is told why and finishes', async () => {
    const repo = fixtureRepo('failing-test');
    const before = readFileSync(path.join(repo, 'src/price.js'), 'utf8');
    const { outcome, events, server } = await runTask(
      repo,
      [
        {
          toolCalls: [
            { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'percent;', new_string: 'percent / 100;' } },
            { name: 'run_command', arguments: { command: 'touch ran' } },
          ],
        },
        { text: 'I was not allowed to.' },
      ],
      { unleashed: false },
    );
    expect(outcome.status).toBe('done');
    expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toBe(before);
    expect(existsSync(path.join(repo, 'ran'))).toBe(false);
    expect(finished(events).map((event) => event.outcome)).toEqual(['denied', 'denied']);
    const answered = events.filter((stored) => stored.event.type === 'approval.answered');
    expect(answered).toHaveLength(2);
    for (const text of allToolOutputs(server.requests[1]!)) expect(text).toMatch(/--unleashed/);
  });
});

describe('the model server failing', () => {
  it('retries a stream dropped after a tool call was announced without running the tool twice', async () => {
    const repo = fixtureRepo('failing-test');
    const call = { name: 'run_command', arguments: { command: 'echo ran >> counter.txt' } };
    const { outcome, types } = await runTask(repo, [{ toolCalls: [call], dropAfter: 'toolCall' }, { toolCalls: [call] }, { text: 'done' }]);
    expect(outcome.status).toBe('done');
    expect(types).toContain('model.retrying');
    expect(readFileSync(path.join(repo, 'counter.txt'), 'utf8')).toBe('ran\n');
  });

  it('honours retry-after on 429 and then goes on', async () => {
    const repo = fixtureRepo('failing-test');
    const { outcome, events } = await runTask(repo, [{ error: { status: 429, retryAfter: '0.05' } }, { text: 'ok' }]);
    expect(outcome.status).toBe('done');
    const retry = events.find((stored) => stored.event.type === 'model.retrying')?.event;
    expect(retry?.type === 'model.retrying' && retry.delayMs).toBe(50);
  });

  it.each([
    [401, /key/i],
    [404, /not found|model/i],
  ])('fails clearly and at once on %i', async (status, message) => {
    const repo = fixtureRepo('failing-test');
    const { outcome, types, server } = await runTask(repo, [{ error: { status } }]);
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(message);
    expect(types).not.toContain('model.retrying');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after the last retry of a 500 with a final message', async () => {
    const repo = fixtureRepo('failing-test');
    const { outcome, types } = await runTask(repo, [{ error: { status: 500 } }, { error: { status: 500 } }, { error: { status: 500 } }]);
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(/3 attempts/);
    expect(types.filter((type) => type === 'model.retrying')).toHaveLength(2);
  });

  it('refuses a model the server says cannot use tools, before the first turn', async () => {
    const repo = fixtureRepo('failing-test');
    server = await startScriptedModel({ turns: [{ text: 'unused' }], models: [{ id: 'no-tools', supports_tools: false }] });
    const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'no-tools', api: 'chat' };
    const sessionId = core.createSession({ workspace: repo, task: 't', model, maxSteps: 5 });
    const outcome = await core.run(sessionId, {
      model,
      broker: new HeadlessBroker({ unleashed: true }),
      signal: new AbortController().signal,
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(/no-tools.*cannot use tools/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('resuming', () => {
  it('reports a call that started and never finished as outcome unknown, and does not run it again', async () => {
    const repo = fixtureRepo('failing-test');
    server = await startScriptedModel({ turns: [{ text: 'I will check what happened.' }] });
    const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
    const sessionId = core.createSession({ workspace: repo, task: 't', model, maxSteps: 5 });
    // What a process that died mid-command leaves behind.
    const command = `echo ran >> ${path.join(repo, 'counter.txt')}`;
    core.store.events.append(sessionId, { type: 'model.requested', step: 1 });
    core.store.events.append(sessionId, {
      type: 'model.responded',
      usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
      items: [{ type: 'tool_call', callId: 'call_1', name: 'run_command', arguments: JSON.stringify({ command }) }],
    });
    core.store.events.append(sessionId, { type: 'tool.started', callId: 'call_1', name: 'run_command', args: { command } });
    appendFileSync(path.join(repo, 'counter.txt'), 'ran\n');

    const outcome = await core.run(sessionId, {
      model,
      broker: new HeadlessBroker({ unleashed: true }),
      signal: new AbortController().signal,
      resume: true,
    });
    expect(outcome.status).toBe('done');
    expect(readFileSync(path.join(repo, 'counter.txt'), 'utf8')).toBe('ran\n');
    expect(allToolOutputs(server.requests[0]!)[0]).toMatch(/^Outcome unknown/);
    const unknown = finished(core.store.events.list(sessionId));
    expect(unknown.map((event) => event.outcome)).toEqual(['unknown']);
    expect(core.store.ledger.unfinished(sessionId)).toEqual([]);
  });

  it('answers a question left waiting across a restart once nobody will ask it again', async () => {
    const repo = fixtureRepo('failing-test');
    server = await startScriptedModel({ turns: [{ text: 'Checked.' }, { text: 'Done.' }] });
    const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'responses' };
    const sessionId = core.createSession({ workspace: repo, task: 't', model, maxSteps: 5 });
    const command = 'echo hello';
    const asked = (approvalId: string, callId: string) =>
      ({ type: 'approval.asked', approvalId, callId, tool: 'run_command', risk: 'exec', summary: command, args: { command } }) as const;
    // What a process that closed mid-run leaves behind: call_1 ran and asked to run again outside the
    // sandbox; call_2 waited for permission.
    core.store.events.append(sessionId, { type: 'model.requested', step: 1 });
    core.store.events.append(sessionId, {
      type: 'model.responded',
      usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 },
      items: [
        { type: 'tool_call', callId: 'call_1', name: 'run_command', arguments: JSON.stringify({ command }) },
        { type: 'tool_call', callId: 'call_2', name: 'run_command', arguments: JSON.stringify({ command }) },
      ],
    });
    core.store.events.append(sessionId, { type: 'tool.started', callId: 'call_1', name: 'run_command', args: { command } });
    core.store.events.append(sessionId, asked('outside', 'call_1'));
    core.store.events.append(sessionId, asked('permission', 'call_2'));
    // Meanwhile the person allowed the command everywhere: the rules settle call_2's question.
    core.store.rules.add({ pattern: 'run_command(echo *)', action: 'allow', scope: 'everywhere', source: 'settings' });

    const outcome = await core.run(sessionId, {
      model,
      broker: new HeadlessBroker({ unleashed: false }),
      signal: new AbortController().signal,
      resume: true,
    });
    expect(outcome.status).toBe('done');
    expect(core.store.approvals.pending()).toEqual([]);
    expect(core.store.approvals.get('outside')?.decision).toMatchObject({ action: 'deny', by: 'policy' });
    expect(core.store.approvals.get('permission')?.decision).toEqual({ action: 'allow', scope: 'once', by: 'policy' });
    expect(finished(core.store.events.list(sessionId)).map((event) => [event.callId, event.outcome])).toEqual([
      ['call_1', 'unknown'],
      ['call_2', 'ok'],
    ]);
  });
});

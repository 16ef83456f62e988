import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventOf, StoredEvent } from '../src/shared/events';
import { foldEvents } from '../src/shared/session';
import { SessionRewinder } from '../src/main/app/sessions/sessionRewinder';
import { createCore, type Core } from '../src/main/core';
import type { ModelConfig } from '../src/main/model/config';
import { HeadlessBroker } from '../src/main/permissions/broker';
import { startScriptedModel, type ScriptedModel, type Turn } from './fixtures/scriptedModel';
import { closeServices, openServices } from './support/appServices';
import { removeTempDirs, tempDir } from './support/tempDirs';

// Per-step checkpoints and rewind, through the real loop, tools, PTY, store and shadow repository,
// against the scripted model over HTTP: the workspace comes back byte for byte (and mode for mode),
// the conversation the model sees next loses the rewound turns, and an undo brings the later state back.

let core: Core;
let server: ScriptedModel | undefined;

beforeEach(() => {
  core = createCore({ dataDir: tempDir('tether-data-') });
});
afterEach(async () => {
  core.close();
  await closeServices();
  await server?.close();
  server = undefined;
  removeTempDirs();
});

/** Every file of the folder (but .git): its bytes (base64) and permission bits, by relative path. */
function folderState(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full);
      if (entry.isDirectory()) walk(full);
      else if (entry.isSymbolicLink()) out[relative] = `link:${fs.readlinkSync(full)}`;
      else out[relative] = `${(fs.statSync(full).mode & 0o777).toString(8)}:${fs.readFileSync(full).toString('base64')}`;
    }
  };
  walk(root);
  return out;
}

const BINARY = Buffer.from([0, 255, 1, 254, 0, 0, 10, 13, 128, 7]);

function makeWorkspace(): string {
  const root = tempDir('tether-rewind-ws-');
  fs.writeFileSync(path.join(root, 'a.txt'), 'zero\n');
  fs.writeFileSync(path.join(root, 'b.txt'), 'bee\n');
  fs.writeFileSync(path.join(root, 'image.bin'), BINARY);
  fs.writeFileSync(path.join(root, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  return root;
}

const sessionTurns: Turn[] = [
  { toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'a.txt', content: 'one\n' } }] },
  {
    toolCalls: [
      {
        id: 'call_shuffle',
        name: 'run_command',
        arguments: {
          command:
            "rm b.txt && mkdir -p sub && printf 'made by a command' > sub/c.txt && chmod 600 run.sh && printf '\\001\\002\\377' >> image.bin",
        },
      },
    ],
  },
  { toolCalls: [{ id: 'call_edit', name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'two' } }] },
  {
    toolCalls: [
      {
        id: 'call_outside',
        name: 'run_command',
        arguments: {
          command:
            'curl -s -m 1 http://127.0.0.1:9/ ; false && npm install left-pad ; git push origin main ; rm -f sub/c.txt ; printf x > d.txt',
        },
      },
    ],
  },
  { text: 'All done.' },
];

async function runSession(workspace: string, turns: Turn[]) {
  server = await startScriptedModel({ turns });
  const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'chat' };
  const sessionId = core.createSession({ workspace, task: 'shuffle the files', model, maxSteps: 20 });
  // The folder as each checkpoint found it, read the moment the checkpoint is logged.
  const seen = new Map<string, Record<string, string>>();
  await core.run(sessionId, {
    model,
    broker: new HeadlessBroker({ unleashed: true }),
    signal: new AbortController().signal,
    onEvent(stored) {
      if (stored.event.type === 'checkpoint.created') seen.set(stored.event.callId ?? 'start', folderState(workspace));
    },
  });
  return { sessionId, model, seen };
}

function checkpointSeq(events: StoredEvent[], callId: string | null): number {
  const found = events.find((stored) => stored.event.type === 'checkpoint.created' && stored.event.callId === callId);
  if (!found) throw new Error(`no checkpoint for ${callId}`);
  return found.seq;
}

describe('checkpoints', () => {
  it('logs a checkpoint at the start and after every call that may change files, none after reads (commands that only read included)', async () => {
    const workspace = makeWorkspace();
    const turns: Turn[] = [
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { toolCalls: [{ id: 'call_ls', name: 'run_command', arguments: { command: 'ls -la | grep txt' } }] },
      { toolCalls: [{ id: 'call_touch', name: 'run_command', arguments: { command: 'touch -c missing.txt' } }] },
      { toolCalls: [{ id: 'call_listing', name: 'run_command', arguments: { command: 'ls > listing.txt' } }] },
      { toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'a.txt', content: 'one\n' } }] },
      { text: 'ok' },
    ];
    const { sessionId } = await runSession(workspace, turns);
    const checkpoints = core.store.events
      .list(sessionId)
      .flatMap((stored) => (stored.event.type === 'checkpoint.created' ? [stored.event] : []));
    expect(checkpoints.map((checkpoint) => [checkpoint.callId, checkpoint.changed])).toEqual([
      [null, true],
      // ls | grep only reads (the shell analysis proves it, as it does for the rules): no checkpoint.
      ['call_touch', false], // a command that may write and changed nothing: a checkpoint, but no new snapshot
      ['call_listing', true], // ls, but redirected into a file
      ['call_write', true],
    ]);
    // The first checkpoint is the session's base, which the live diff compares with.
    const repo = await core.checkpoints.repoFor(sessionId);
    expect(await repo.resolveRef(`sessions/${sessionId}/base`)).toBe(checkpoints[0]!.commit);
  });

  it('a checkpoint that cannot be taken is logged as such, and the call keeps its result', async () => {
    const workspace = makeWorkspace();
    server = await startScriptedModel({
      turns: [{ toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'a.txt', content: 'one\n' } }] }, { text: 'ok' }],
    });
    const model: ModelConfig = { baseUrl: server.baseUrl, apiKey: 'k', model: 'scripted-model', api: 'chat' };
    const sessionId = core.createSession({ workspace, task: 'write', model, maxSteps: 5 });
    // The shadow repository's folder is taken by a file: git cannot create it.
    const dataDir = path.dirname(core.store.file);
    fs.mkdirSync(path.join(dataDir, 'shadow'), { recursive: true });
    for (const name of ['workspace.git', `${core.store.sessions.get(sessionId)!.projectId}.git`])
      fs.writeFileSync(path.join(dataDir, 'shadow', name), 'not a folder');
    const outcome = await core.run(sessionId, {
      model,
      broker: new HeadlessBroker({ unleashed: true }),
      signal: new AbortController().signal,
    });
    expect(outcome.status).toBe('done');
    const events = core.store.events.list(sessionId);
    const finishedWrite = events.find((stored) => stored.event.type === 'tool.finished' && stored.event.callId === 'call_write');
    expect(finishedWrite?.event).toMatchObject({ outcome: 'ok' });
    const failures = events.flatMap((stored) => (stored.event.type === 'checkpoint.failed' ? [stored.event] : []));
    expect(failures.map((failure) => failure.callId)).toEqual([null, 'call_write']);
    expect(failures[0]!.reason).toMatch(/shadow repository/);
    expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('one\n');
  });
});

describe('rewind', () => {
  it('rewinds files and conversation to a step exactly, warns about what it cannot undo, and the undo brings the later state back', async () => {
    const workspace = makeWorkspace();
    const initial = folderState(workspace);
    const { sessionId, model, seen } = await runSession(workspace, sessionTurns);
    const finalState = folderState(workspace);
    expect(finalState['d.txt']).toBeDefined();
    const events = core.store.events.list(sessionId);
    const toSeq = checkpointSeq(events, 'call_shuffle');
    const atShuffle = seen.get('call_shuffle')!;
    expect(atShuffle['b.txt']).toBeUndefined();
    expect(atShuffle['run.sh']).toMatch(/^600:/);

    const rewinder = new SessionRewinder(core.store, core.checkpoints);
    const preview = await rewinder.preview(sessionId, toSeq);
    expect(preview.files.map((file) => [file.path, file.status]).sort()).toEqual([
      ['a.txt', 'modified'],
      ['d.txt', 'deleted'],
      ['sub/c.txt', 'added'],
    ]);
    expect(preview.warnings.map((warning) => warning.callId)).toEqual(['call_outside']);
    expect(preview.warnings[0]!.why).toMatch(/curl/);
    expect(preview.warnings[0]!.why).toMatch(/npm install/);
    expect(preview.warnings[0]!.why).toMatch(/git push/);

    const result = await rewinder.rewind(sessionId, toSeq, 'both', () => {});
    expect(folderState(workspace)).toEqual(atShuffle);
    expect(result.files.sort()).toEqual(['a.txt', 'd.txt', 'sub/c.txt']);
    expect(result.warnings).toEqual(preview.warnings);

    // The next request carries the task and the first two calls, not the rewound ones.
    server!.push({ text: 'Understood.' });
    const before = server!.requests.length;
    await core.run(sessionId, {
      model,
      broker: new HeadlessBroker({ unleashed: true }),
      signal: new AbortController().signal,
      message: 'try another way',
    });
    const request = JSON.stringify(server!.requests[before]);
    expect(request).toContain('call_write');
    expect(request).toContain('call_shuffle');
    expect(request).not.toContain('call_edit');
    expect(request).not.toContain('call_outside');
    expect(request).toContain('try another way');

    // The log keeps everything: the rewound calls are still there.
    const all = core.store.events.list(sessionId);
    expect(all.some((stored) => stored.event.type === 'tool.finished' && stored.event.callId === 'call_edit')).toBe(true);

    // Undo: the files after the session and the whole conversation come back (and the new turn leaves).
    const undone = await rewinder.undo(sessionId, () => {});
    expect(folderState(workspace)).toEqual(finalState);
    expect(undone.files.sort()).toEqual(['a.txt', 'd.txt', 'sub/c.txt']);
    const state = foldEvents(core.store.events.list(sessionId));
    const callIds = state.items.flatMap((item) => (item.type === 'tool_call' ? [item.callId] : []));
    expect(callIds).toEqual(['call_write', 'call_shuffle', 'call_edit', 'call_outside']);
    expect(state.items.some((item) => item.type === 'user' && item.text === 'try another way')).toBe(false);

    // Step 0: the first message, with the files as the session found them.
    const first = state.rewindPoints.find((point) => point.kind === 'message')!;
    await rewinder.rewind(sessionId, first.seq, 'files', () => {});
    expect(folderState(workspace)).toEqual(initial);
    expect(folderState(workspace)).toEqual(seen.get('start'));
    expect(fs.readFileSync(path.join(workspace, 'image.bin')).equals(BINARY)).toBe(true);
  });

  it('rewinds only the files or only the conversation when asked', async () => {
    const workspace = makeWorkspace();
    const { sessionId, seen, model } = await runSession(workspace, sessionTurns);
    const finalState = folderState(workspace);
    const rewinder = new SessionRewinder(core.store, core.checkpoints);
    const toSeq = checkpointSeq(core.store.events.list(sessionId), 'call_write');

    await rewinder.rewind(sessionId, toSeq, 'conversation', () => {});
    expect(folderState(workspace)).toEqual(finalState);
    let state = foldEvents(core.store.events.list(sessionId));
    expect(state.items.flatMap((item) => (item.type === 'tool_call' ? [item.callId] : []))).toEqual(['call_write']);
    const marker = state.rewinds.at(-1)!;
    expect(marker.dropped.some((item) => item.type === 'tool_call' && item.callId === 'call_edit')).toBe(true);

    // The model is told that the files stayed as they are, unlike its rewound history says.
    server!.push({ text: 'Noted.' });
    await core.run(sessionId, {
      model,
      broker: new HeadlessBroker({ unleashed: true }),
      signal: new AbortController().signal,
      message: 'go on',
    });
    expect(JSON.stringify(server!.requests.at(-1))).toMatch(/rewound this conversation to this point.*a\.txt/);

    await rewinder.undo(sessionId, () => {});
    await rewinder.rewind(sessionId, toSeq, 'files', () => {});
    expect(folderState(workspace)).toEqual(seen.get('call_write'));
    state = foldEvents(core.store.events.list(sessionId));
    expect(state.items.flatMap((item) => (item.type === 'tool_call' ? [item.callId] : []))).toEqual([
      'call_write',
      'call_shuffle',
      'call_edit',
      'call_outside',
    ]);
    server!.push({ text: 'Noted.' });
    await core.run(sessionId, {
      model,
      broker: new HeadlessBroker({ unleashed: true }),
      signal: new AbortController().signal,
      message: 'check',
    });
    const told = JSON.stringify(server!.requests.at(-1));
    expect(told).toMatch(/rewound the workspace's files to how they were right after your write_file call call_write/);
    expect(told).toContain('call_edit'); // the conversation was kept
  });

  it('in a dirty git repository: restores the uncommitted state exactly and never touches the repository itself', async () => {
    const workspace = makeWorkspace();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: workspace, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'start');
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'uncommitted\n');
    fs.writeFileSync(path.join(workspace, 'untracked.txt'), 'mine\n');
    git('add', 'untracked.txt');
    const dirty = folderState(workspace);
    const gitStatus = git('status', '--porcelain');
    const head = git('rev-parse', 'HEAD');
    const staged = git('ls-files', '--stage');

    const { sessionId } = await runSession(workspace, sessionTurns);
    const rewinder = new SessionRewinder(core.store, core.checkpoints);
    const first = foldEvents(core.store.events.list(sessionId)).rewindPoints[0]!;
    await rewinder.rewind(sessionId, first.seq, 'both', () => {});
    expect(folderState(workspace)).toEqual(dirty);
    expect(git('status', '--porcelain')).toBe(gitStatus);
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(git('ls-files', '--stage')).toBe(staged);
  });

  it('says in the preview that a file over 2 MB is left as it is', async () => {
    const workspace = makeWorkspace();
    const { sessionId } = await runSession(workspace, [
      {
        toolCalls: [
          { id: 'call_big', name: 'run_command', arguments: { command: 'head -c 3000000 /dev/zero > big.dat && printf two > a.txt' } },
        ],
      },
      { text: 'ok' },
    ]);
    const events = core.store.events.list(sessionId);
    const checkpoint = events.find((stored) => stored.event.type === 'checkpoint.created' && stored.event.callId === 'call_big')!
      .event as EventOf<'checkpoint.created'>;
    expect(checkpoint.skipped).toBe(1);
    const rewinder = new SessionRewinder(core.store, core.checkpoints);
    const first = foldEvents(events).rewindPoints[0]!;
    const preview = await rewinder.preview(sessionId, first.seq);
    expect(preview.skipped).toEqual([{ path: 'big.dat', reason: 'too_large', size: 3_000_000 }]);
    expect(preview.files.map((file) => file.path)).toEqual(['a.txt']);
    await rewinder.rewind(sessionId, first.seq, 'files', () => {});
    expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('zero\n');
    expect(fs.statSync(path.join(workspace, 'big.dat')).size).toBe(3_000_000);
  });

  it("never changes Tether's own settings folder (.tether/): a rewind must not undo a person's rules", async () => {
    const workspace = makeWorkspace();
    const { sessionId } = await runSession(workspace, [
      { toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'a.txt', content: 'one\n' } }] },
      { text: 'ok' },
    ]);
    fs.mkdirSync(path.join(workspace, '.tether'));
    fs.writeFileSync(path.join(workspace, '.tether', 'settings.json'), '{"permissions":{"deny":["run_command(git push *)"]}}\n');
    const rewinder = new SessionRewinder(core.store, core.checkpoints);
    const first = foldEvents(core.store.events.list(sessionId)).rewindPoints[0]!;
    expect((await rewinder.preview(sessionId, first.seq)).files.map((file) => file.path)).toEqual(['a.txt']);
    await rewinder.rewind(sessionId, first.seq, 'files', () => {});
    expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('zero\n');
    expect(fs.readFileSync(path.join(workspace, '.tether', 'settings.json'), 'utf8')).toContain('git push');
  });

  it('refuses a step that is not one, and an undo with nothing to undo', async () => {
    const workspace = makeWorkspace();
    const { sessionId } = await runSession(workspace, sessionTurns);
    const rewinder = new SessionRewinder(core.store, core.checkpoints);
    await expect(rewinder.rewind(sessionId, 1, 'both', () => {})).rejects.toThrow(/not a step that can be rewound to/);
    await expect(rewinder.undo(sessionId, () => {})).rejects.toThrow(/no rewind to undo/);
  });
});

describe('rewind through the app services', () => {
  it('lists in the preview the commands that ran unasked after the step, from the whole log', async () => {
    const {
      handlers,
      events,
      waitForEvent: waitFor,
    } = await openServices({
      turns: [
        { toolCalls: [{ id: 'call_ls', name: 'run_command', arguments: { command: 'ls' } }] },
        { toolCalls: [{ id: 'call_touch', name: 'run_command', arguments: { command: 'touch -c b.txt' } }] },
        { toolCalls: [{ id: 'call_cat', name: 'run_command', arguments: { command: 'cat b.txt' } }] },
        { text: 'done' },
      ],
    });
    const workspace = makeWorkspace();
    // Auto mode: commands the sandbox holds run with nobody asked, read-only or not.
    const { sessionId } = await handlers['session:start']({ workspace, task: 'look around', mode: 'auto' });
    await waitFor('session.finished');
    const message = events.find((stored) => stored.event.type === 'user.messaged')!;
    const preview = await handlers['session:rewindPreview']({ sessionId, toSeq: message.seq });
    expect(preview.unasked).toEqual([
      { callId: 'call_ls', command: 'ls' },
      { callId: 'call_touch', command: 'touch -c b.txt' },
      { callId: 'call_cat', command: 'cat b.txt' },
    ]);
    // Only the command that may write is a step of its own (ls and cat only read: no checkpoint).
    const checkpointed = events.flatMap((stored) => (stored.event.type === 'checkpoint.created' ? [stored.event.callId] : []));
    expect(checkpointed).toEqual([null, 'call_touch']);
    // From the step after it: only the command after it.
    const afterTouch = events.find((stored) => stored.event.type === 'checkpoint.created' && stored.event.callId === 'call_touch')!;
    expect((await handlers['session:rewindPreview']({ sessionId, toSeq: afterTouch.seq })).unasked.map((call) => call.callId)).toEqual([
      'call_cat',
    ]);
  });

  it('is refused while the agent works (here: waiting for an approval), with a clear message, and works once it stopped', async () => {
    const {
      handlers,
      events,
      waitForEvent: waitFor,
    } = await openServices({
      turns: [{ toolCalls: [{ id: 'call_write', name: 'write_file', arguments: { path: 'a.txt', content: 'one\n' } }] }, { text: 'ok' }],
    });
    const workspace = makeWorkspace();
    const { sessionId } = await handlers['session:start']({ workspace, task: 'write a' });
    await waitFor('approval.asked');
    const message = events.find((stored) => stored.event.type === 'user.messaged')!;

    const preview = await handlers['session:rewindPreview']({ sessionId, toSeq: message.seq });
    expect(preview.working).toBe(true);
    await expect(handlers['session:rewind']({ sessionId, toSeq: message.seq, restore: 'both' })).rejects.toThrow(
      /while the agent is working on this session: stop it/,
    );

    await handlers['session:stop']({ sessionId });
    await waitFor('session.finished');
    for (let tries = 0; tries < 100 && (await handlers['sessions:list']({}))[0]?.status === 'working'; tries++)
      await new Promise((r) => setTimeout(r, 20));
    const result = await handlers['session:rewind']({ sessionId, toSeq: message.seq, restore: 'both' });
    expect(events.some((stored) => stored.seq === result.seq && stored.event.type === 'session.rewound')).toBe(true);
    const undone = await handlers['session:undoRewind']({ sessionId });
    expect(events.some((stored) => stored.seq === undone.seq && stored.event.type === 'session.rewind_undone')).toBe(true);
  });
});

import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DESK_PROTOCOL_HEADER, DESK_PROTOCOL_VERSION, type DeskMessage, type RunnerMessage } from '../../src/shared/deskProtocol';
import type { SessionEvent, StoredEvent } from '../../src/shared/events';
import { closeCliModels } from '../support/cli';
import { closeDesks, startDesk, type TestDesk } from '../support/desk';
import { closeServices, openServices } from '../support/appServices';
import { removeTempDirs } from '../support/tempDirs';

// A runner is an attacker until proven otherwise: these speak the desk protocol by hand, with real
// tokens, and try to reach what is not theirs.

afterEach(async () => {
  await closeDesks();
  await closeServices();
  await closeCliModels();
  removeTempDirs();
});

interface RawRunner {
  socket: WebSocket;
  frames: DeskMessage[];
  send(message: RunnerMessage | Record<string, unknown>): void;
  next(type: DeskMessage['type'], timeoutMs?: number): Promise<DeskMessage>;
  closed: Promise<{ code: number; reason: string }>;
}

async function connectRunner(desk: TestDesk, token: string, headers: Record<string, string> = {}): Promise<RawRunner> {
  const socket = new WebSocket(`${desk.url}/runner`, {
    headers: { authorization: `Bearer ${token}`, [DESK_PROTOCOL_HEADER]: String(DESK_PROTOCOL_VERSION), ...headers },
  });
  const frames: DeskMessage[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as DeskMessage));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    socket,
    frames,
    closed,
    send: (message) => socket.send(JSON.stringify(message)),
    async next(type, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = frames.find((frame) => frame.type === type);
        if (found) {
          frames.splice(frames.indexOf(found), 1);
          return found;
        }
        if (Date.now() > deadline) throw new Error(`No ${type} frame; got ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** The upgrade's refusal, as a runner sees it: its HTTP status and JSON body. */
function refusalOf(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url}/runner`, { headers });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) as unknown }));
    });
    socket.on('open', () => reject(new Error('the desk took the connection')));
    socket.on('error', () => {});
  });
}

const registration = (runId: string = randomUUID()) => ({
  runId,
  machine: 'box',
  repository: 'https://example.com/repo.git',
  branch: 'main',
  workspace: '/work/repo',
  tetherVersion: '0.1.0',
  waitMs: 60_000,
  model: 'scripted-model',
});

function stored(seq: number, event: SessionEvent): StoredEvent {
  return { sessionId: 'runner-side-id', seq, at: Date.now(), event };
}

const started: SessionEvent = {
  type: 'session.started',
  workspace: '/work/repo',
  model: 'm',
  api: 'chat',
  baseUrl: 'http://x',
  maxSteps: 5,
};
const asked = (approvalId: string, callId = 'c1'): SessionEvent => ({
  type: 'approval.asked',
  approvalId,
  callId,
  tool: 'run_command',
  risk: 'exec',
  summary: 'rm -rf /',
  args: { command: 'rm -rf /' },
  reason: 'asks',
});

async function registered(desk: TestDesk, name: string, runId?: string) {
  const runner = await connectRunner(desk, await desk.token(name));
  runner.send({ type: 'register', run: registration(runId) });
  const frame = (await runner.next('registered')) as Extract<DeskMessage, { type: 'registered' }>;
  return { runner, frame };
}

describe('what a runner may do at the desk', () => {
  it('refuses a connection with no token, a wrong one, a revoked one, or another protocol version, before the upgrade', async () => {
    const desk = await startDesk();
    const token = await desk.token('ci-1');
    const version = { [DESK_PROTOCOL_HEADER]: String(DESK_PROTOCOL_VERSION) };
    expect(await refusalOf(desk.url, version)).toEqual({ status: 401, body: expect.objectContaining({ code: 'bad_token' }) });
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(await refusalOf(desk.url, { ...version, authorization: `Bearer ${forged}` })).toEqual({
      status: 401,
      body: expect.objectContaining({ code: 'bad_token' }),
    });
    expect(await refusalOf(desk.url, { [DESK_PROTOCOL_HEADER]: '0', authorization: `Bearer ${token}` })).toEqual({
      status: 426,
      body: expect.objectContaining({ code: 'protocol', message: expect.stringContaining('desk protocol 1; the runner speaks "0"') }),
    });
    await desk.handlers['remote:revokeToken']({ name: 'ci-1' });
    expect(await refusalOf(desk.url, { ...version, authorization: `Bearer ${token}` })).toEqual({
      status: 401,
      body: expect.objectContaining({ code: 'revoked_token', message: expect.stringContaining('runner ci-1 was revoked') }),
    });
  });

  it("gives a runner that claims another runner's run id a mirror of its own, holding none of the other's events", async () => {
    const desk = await startDesk();
    const runId = randomUUID();
    const a = await registered(desk, 'runner-a', runId);
    a.runner.send({ type: 'events', events: [stored(1, started), stored(2, { type: 'user.messaged', text: 'secret task of a' })] });
    await expect.poll(() => desk.events.filter((event) => event.event.type === 'user.messaged').length).toBe(1);
    const b = await registered(desk, 'runner-b', runId);
    expect(b.frame.mirroredSeq).toBe(0);
    const sessions = await desk.handlers['sessions:list']({});
    expect(sessions.map((session) => session.remote?.runner).sort()).toEqual(['runner-a', 'runner-b']);
    const ofB = sessions.find((session) => session.remote?.runner === 'runner-b')!;
    expect((await desk.handlers['session:events']({ sessionId: ofB.id, afterSeq: 0 })).length).toBe(0);
  });

  it("ignores a runner's word about another runner's answer, and delivers that answer to its own run only", async () => {
    const desk = await startDesk();
    const a = await registered(desk, 'runner-a');
    const b = await registered(desk, 'runner-b');
    const approvalId = randomUUID();
    a.runner.send({ type: 'events', events: [stored(1, started), stored(2, asked(approvalId))] });
    const [entry] = await desk.inbox(1);
    expect(entry).toMatchObject({ runner: 'runner-a' });
    // b claims a's request was taken (or too late), then that it is b's own: neither reaches a's answer.
    b.runner.send({ type: 'answer.taken', approvalId, outcome: 'not_waiting' });
    b.runner.send({ type: 'events', events: [stored(1, started), stored(2, asked(approvalId))] });
    await desk.inbox(2);
    const answering = desk.handlers['approval:answer']({ approvalId: entry!.approvalId, action: 'allow', scope: 'once' });
    const answer = await a.runner.next('answer');
    expect(answer).toEqual({ type: 'answer', approvalId, decision: { action: 'allow', scope: 'once' } });
    a.runner.send({ type: 'answer.taken', approvalId, outcome: 'applied' });
    await answering;
    expect(b.runner.frames.filter((frame) => frame.type === 'answer')).toEqual([]);
    // b's own request with the same id is still waiting for the person: a different request at the desk.
    const left = await desk.handlers['approvals:pending']({});
    expect(left.map((pending) => pending.runner)).toEqual(['runner-b']);
    expect(left[0]!.approvalId).not.toBe(entry!.approvalId);
  });

  it("keeps a runner's request apart from a local session's request with the same id", async () => {
    const local = await openServices({
      turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi > f.txt' } }] }, { text: 'ok' }],
    });
    const { approvalId: localId } = await startLocalRequest(local);
    // The same data folder as the desk, so both kinds sit in one inbox.
    await local.close();
    const desk = await startDesk({ dataDir: local.dataDir });
    const { runner } = await registered(desk, 'mimic');
    runner.send({ type: 'events', events: [stored(1, started), stored(2, asked(localId))] });
    const inbox = await desk.inbox(2);
    const remote = inbox.find((entry) => entry.runner === 'mimic')!;
    expect(remote.approvalId).toBe(`remote:${remote.sessionId}:${localId}`);
    expect(inbox.some((entry) => entry.approvalId === localId && entry.runner === undefined)).toBe(true);
  });

  it('closes the connection on a frame it does not know, on events out of order, and before registration', async () => {
    const desk = await startDesk();
    const token = await desk.token('r');
    const early = await connectRunner(desk, token);
    early.send({ type: 'events', events: [stored(1, started)] });
    expect(await early.next('refused')).toMatchObject({ code: 'bad_message' });
    expect((await early.closed).code).toBe(4001);

    const { runner } = await registered(desk, 'r2');
    runner.send({ type: 'read', sessionId: 'anything' });
    expect(await runner.next('refused')).toMatchObject({ code: 'bad_message' });
    expect((await runner.closed).code).toBe(4001);

    const third = await registered(desk, 'r3');
    third.runner.send({ type: 'events', events: [stored(1, started), stored(3, { type: 'user.messaged', text: 'skipped one' })] });
    expect(await third.runner.next('refused')).toMatchObject({
      code: 'bad_events',
      message: expect.stringContaining('Event 3 came after 1'),
    });
  });

  it('refuses, for a remote run, every request that would act on files or run the agent on this machine', async () => {
    const desk = await startDesk();
    const { runner } = await registered(desk, 'r');
    runner.send({ type: 'events', events: [stored(1, started), stored(2, { type: 'user.messaged', text: 'task' })] });
    await expect.poll(async () => (await desk.handlers['sessions:list']({})).length).toBe(1);
    const [session] = await desk.handlers['sessions:list']({});
    const sessionId = session!.id;
    await expect(desk.handlers['session:send']({ sessionId, text: 'go on' })).rejects.toThrow(/remote run on runner r/);
    await expect(desk.handlers['session:retry']({ sessionId })).rejects.toThrow(/remote run/);
    await expect(desk.handlers['diff:revert']({ sessionId, path: 'a.txt' })).rejects.toThrow(/remote run/);
    await expect(desk.handlers['session:rewind']({ sessionId, toSeq: 1, restore: 'files' })).rejects.toThrow(/remote run/);
    await expect(desk.handlers['worktree:move']({ sessionId })).rejects.toThrow(/remote run/);
    expect(await desk.handlers['diff:files']({ sessionId })).toEqual([]);
    await expect(desk.handlers['session:delete']({ sessionId })).rejects.toThrow(/still connected/);
  });
});

async function startLocalRequest(local: Awaited<ReturnType<typeof openServices>>) {
  const folder = (await import('../support/tempDirs')).fixtureRepo('failing-test');
  await local.handlers['session:start']({ workspace: folder, task: 'write' });
  const askedEvent = await local.waitForEvent('approval.asked');
  if (askedEvent.event.type !== 'approval.asked') throw new Error('not asked');
  return { approvalId: askedEvent.event.approvalId };
}

describe('a desk that restarts', () => {
  it('never resumes a remote run here: its mirror waits for the runner, and nothing is appended', async () => {
    const desk = await startDesk();
    const { runner } = await registered(desk, 'r');
    runner.send({
      type: 'events',
      events: [stored(1, started), stored(2, { type: 'user.messaged', text: 'task' }), stored(3, asked(randomUUID()))],
    });
    await desk.inbox(1);
    const [before] = await desk.handlers['sessions:list']({});
    expect(before).toMatchObject({ status: 'waiting', lastSeq: 3 });
    await desk.close();
    const again = await startDesk({ dataDir: desk.dataDir, port: desk.port });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [after] = await again.handlers['sessions:list']({});
    expect(after).toMatchObject({ id: before!.id, status: 'waiting', lastSeq: 3, remote: { runner: 'r', connected: false } });
    expect((await again.inbox(1))[0]).toMatchObject({ runner: 'r' });
  });
});

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/shared/events';
import { WebSocket } from 'ws';
import { auditCsv, auditJson } from '../../src/shared/auditExport';
import type { Input, Output, RequestName } from '../../src/shared/contract';
import { WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX } from '../../src/shared/hostProtocol';
import { call } from '../host/serveHelpers';
import { assertCliBuilt, closeCliModels, runCli } from '../support/cli';
import { closeDesks, startDesk } from '../support/desk';
import { freePort, startRunner, writeTurn } from '../support/runner';
import { removeTempDirs, tempDir } from '../support/tempDirs';

// Runs on loopback reporting to one desk: the built CLI (`tether run --desk`) in child processes, each
// with its own data folder and scripted model; the desk is the app's services, as tether serve runs them.

beforeAll(() => assertCliBuilt());
afterEach(async () => {
  await closeDesks();
  await closeCliModels();
  removeTempDirs();
});

const answered = (events: StoredEvent[]) =>
  events.flatMap((stored) => (stored.event.type === 'approval.answered' ? [stored.event.decision] : []));

describe('remote runs report to one desk', () => {
  it('takes three concurrent runs: every request reaches the desk, each answer reaches its own run, and an unanswered one is denied after the wait', async () => {
    const desk = await startDesk();
    const names = ['runner-a', 'runner-b', 'runner-c'];
    const runs = await Promise.all(
      names.map(async (name) =>
        startRunner({
          desk: desk.url,
          token: await desk.token(name),
          wait: name === 'runner-c' ? '4s' : '60s',
          turns: [writeTurn(`${name}.txt`), { text: `${name} done.` }],
        }),
      ),
    );
    const inbox = await desk.inbox(3);
    expect(inbox.map((entry) => entry.runner).sort()).toEqual(names);
    for (const entry of inbox) expect(entry.approvalId).toMatch(/^remote:[0-9a-z]{16}:[0-9a-f-]{36}$/);
    const ofRunner = (name: string) => inbox.find((entry) => entry.runner === name)!;
    // Answered in the reverse order they came in, so each must find its own run.
    await desk.handlers['approval:answer']({
      approvalId: ofRunner('runner-b').approvalId,
      action: 'deny',
      scope: 'once',
      message: 'not b',
    });
    await desk.handlers['approval:answer']({ approvalId: ofRunner('runner-a').approvalId, action: 'allow', scope: 'once' });

    const [a, b, c] = runs;
    expect(await a!.exited).toBe(0);
    expect(await b!.exited).toBe(0);
    expect(await c!.exited).toBe(0);
    expect(readFileSync(path.join(a!.repo, 'runner-a.txt'), 'utf8')).toBe('runner-a.txt\n');
    expect(existsSync(path.join(b!.repo, 'runner-b.txt'))).toBe(false);
    expect(existsSync(path.join(c!.repo, 'runner-c.txt'))).toBe(false);
    expect(answered(a!.events)).toEqual([{ action: 'allow', scope: 'once', by: 'person' }]);
    expect(answered(b!.events)).toEqual([{ action: 'deny', scope: 'once', by: 'person', message: 'not b' }]);
    expect(answered(c!.events)).toEqual([
      expect.objectContaining({
        action: 'deny',
        by: 'headless',
        message: expect.stringContaining('Nobody answered this request at the desk within 4 s'),
      }),
    ]);

    // The desk's mirror of each run ends as the run did, and names its runner.
    await expect.poll(async () => (await desk.handlers['approvals:pending']({})).length).toBe(0);
    const sessions = await desk.handlers['sessions:list']({});
    expect(sessions.map((session) => [session.remote?.runner, session.status]).sort()).toEqual([
      ['runner-a', 'done'],
      ['runner-b', 'done'],
      ['runner-c', 'done'],
    ]);
    const audit = await desk.handlers['audit:list']({});
    expect(audit.filter((row) => row.tool === 'run_command').length).toBe(3);
  }, 90_000);
});

describe('a desk that goes away', () => {
  it('is waited for: killed and started again while a run waits, its request comes back and the answer still reaches the run', async () => {
    const dataDir = tempDir('tether-desk-');
    const port = await freePort();
    const made = await runCli(['desk', 'tokens', 'create', 'ci-box', '--data-dir', dataDir], {});
    expect(made.code).toBe(0);
    const token = made.stdout.trim();
    const serve = () => startServe(dataDir, port);
    let desk = await serve();
    const run = await startRunner({ desk: `ws://127.0.0.1:${port}`, token, turns: [writeTurn('after-restart.txt'), { text: 'done' }] });
    const first = await desk.inbox(1);
    expect(first[0]).toMatchObject({ runner: 'ci-box' });

    desk.child.kill('SIGKILL');
    await desk.exited;
    // The run keeps waiting for the desk; its request is still where the desk left it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(run.child.exitCode).toBe(null);
    desk = await serve();
    const again = await desk.inbox(1);
    expect(again.map((entry) => entry.approvalId)).toEqual(first.map((entry) => entry.approvalId));
    await expect.poll(async () => (await desk.request('sessions:list', {})).output[0]?.remote?.connected, { timeout: 15_000 }).toBe(true);
    expect(await desk.request('approval:answer', { approvalId: first[0]!.approvalId, action: 'allow', scope: 'once' })).toMatchObject({
      ok: true,
    });
    expect(await run.exited).toBe(0);
    expect(readFileSync(path.join(run.repo, 'after-restart.txt'), 'utf8')).toBe('after-restart.txt\n');
    expect(answered(run.events)).toEqual([{ action: 'allow', scope: 'once', by: 'person' }]);
    desk.child.kill('SIGTERM');
    await desk.exited;
  }, 120_000);
});

/** `tether serve --remote-runs` in a child process, reached through its UI socket as a browser tab would. */
async function startServe(dataDir: string, deskPort: number) {
  const child = spawn(
    process.execPath,
    [path.resolve('bin/tether.js'), 'serve', '--remote-runs', '--desk-port', String(deskPort), '--data-dir', dataDir, '--cwd', dataDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TETHER_API_KEY: 'unused' },
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await expect.poll(() => err, { timeout: 20_000 }).toMatch(/remote runs report to ws:\/\/127\.0\.0\.1:\d+/);
  const url = new URL(out.trim().split('\n')[0]!);
  const socket = new WebSocket(`ws://${url.host}/ws`, [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${url.hash.slice('#token='.length)}`], {
    origin: url.origin,
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let id = 0;
  const request = async <R extends RequestName>(name: R, input: Input<R>) =>
    (await call(socket, ++id, name, input)) as { ok: boolean; output: Output<R> };
  return {
    child,
    exited,
    request,
    async inbox(count: number) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { output } = await request('approvals:pending', {});
        if (output.length >= count) return output;
        if (Date.now() > deadline) throw new Error(`inbox: ${JSON.stringify(output)}\n${err}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

describe('Allow always for a remote run', () => {
  it('keeps "this repository on this runner" at the desk: later runs of that runner there run it without asking, other runners still ask, and a revoke reaches them', async () => {
    const desk = await startDesk();
    const token = await desk.token('ci');
    const other = await desk.token('other');
    const inRepo = async (runToken: string, file: string, wait = '60s') => {
      const run = await startRunner({
        desk: desk.url,
        token: runToken,
        wait,
        turns: [{ toolCalls: [{ name: 'run_command', arguments: { command: `touch ${file}` } }] }, { text: 'ok' }],
        beforeStart: (repo) => {
          execFileSync('git', ['init', '-q', repo]);
          execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'https://ci-token:secret@example.com/team/app.git']);
        },
      });
      return run;
    };
    const first = await inRepo(token, 'one.txt');
    const [entry] = await desk.inbox(1);
    await desk.handlers['approval:answer']({ approvalId: entry!.approvalId, action: 'allow', scope: 'project' });
    expect(await first.exited).toBe(0);
    const { rules } = await desk.handlers['remote:get']({});
    // The credentials in the origin's address never reach the desk.
    expect(rules).toEqual([
      expect.objectContaining({ runner: 'ci', repository: 'https://example.com/team/app.git', pattern: 'run_command(touch *)' }),
    ]);
    expect(answered(first.events)).toEqual([{ action: 'allow', scope: 'project', by: 'person', rule: 'run_command(touch *)' }]);

    const second = await inRepo(token, 'two.txt');
    expect(await second.exited).toBe(0);
    expect(second.events.some((stored) => stored.event.type === 'approval.asked')).toBe(false);
    expect(existsSync(path.join(second.repo, 'two.txt'))).toBe(true);

    const stranger = await inRepo(other, 'three.txt', '2s');
    expect(await stranger.exited).toBe(0);
    expect(answered(stranger.events)).toEqual([expect.objectContaining({ action: 'deny', by: 'headless' })]);

    await desk.handlers['remote:revokeRule']({ ruleId: rules[0]!.id });
    const afterRevoke = await inRepo(token, 'four.txt', '2s');
    expect(await afterRevoke.exited).toBe(0);
    expect(answered(afterRevoke.events)).toEqual([expect.objectContaining({ action: 'deny', by: 'headless' })]);
  }, 120_000);

  it('refuses "everywhere" for a remote run', async () => {
    const desk = await startDesk();
    const run = await startRunner({ desk: desk.url, token: await desk.token('ci'), turns: [writeTurn('x.txt'), { text: 'ok' }] });
    const [entry] = await desk.inbox(1);
    await expect(desk.handlers['approval:answer']({ approvalId: entry!.approvalId, action: 'allow', scope: 'everywhere' })).rejects.toThrow(
      /reaches this run, or this repository on runner ci; not everywhere/,
    );
    await desk.handlers['approval:answer']({ approvalId: entry!.approvalId, action: 'deny', scope: 'once' });
    expect(await run.exited).toBe(0);
  }, 60_000);
});

describe("a remote run's audit", () => {
  it('names the runner in the trail and in both exports, with the repository there as its project', async () => {
    const desk = await startDesk();
    const run = await startRunner({
      desk: desk.url,
      token: await desk.token('audit-box'),
      turns: [writeTurn('audited.txt'), { text: 'ok' }],
    });
    const [entry] = await desk.inbox(1);
    await desk.handlers['approval:answer']({ approvalId: entry!.approvalId, action: 'allow', scope: 'once' });
    expect(await run.exited).toBe(0);
    await expect.poll(async () => (await desk.handlers['audit:list']({})).filter((row) => row.tool === 'run_command').length).toBe(1);
    const rows = (await desk.handlers['audit:list']({})).filter((row) => row.tool === 'run_command');
    expect(rows[0]).toMatchObject({ runner: 'audit-box', by: 'person', action: 'allow', project: path.basename(run.repo) });
    const csv = auditCsv(rows).split('\r\n');
    expect(csv[0]!.endsWith(',runner')).toBe(true);
    expect(csv[1]!.endsWith(',audit-box')).toBe(true);
    expect(JSON.parse(auditJson(rows))[0]).toMatchObject({ runner: 'audit-box' });
  }, 60_000);
});

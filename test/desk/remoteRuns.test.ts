import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/shared/events';
import { assertCliBuilt, closeCliModels } from '../support/cli';
import { closeDesks, startDesk, startRunner, writeTurn } from '../support/desk';
import { removeTempDirs } from '../support/tempDirs';

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

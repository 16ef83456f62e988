import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedModel, Turn } from './fixtures/scriptedModel';
import { closeServices, openServices } from './support/appServices';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';
import { allToolOutputs } from './support/toolResults';

// The services behind the desktop app and `tether serve`, through their contract handlers: what the
// UI can do, and what it cannot.

// One scripted model across the opens of a test, as one model across restarts of the app.
let server: ScriptedModel | undefined;

afterEach(async () => {
  await closeServices();
  server = undefined;
  removeTempDirs();
});

async function open(dataDir: string, turns: Turn[] = []) {
  const app = await openServices({ dataDir, turns, ...(server ? { server } : {}) });
  server = app.server;
  return { ...app, waitFor: app.waitForEvent };
}

const editTurns: Turn[] = [
  {
    toolCalls: [
      { name: 'edit_file', arguments: { path: 'src/price.js', old_string: 'cents * percent;', new_string: 'cents * percent / 100;' } },
    ],
  },
  { text: 'Edited.' },
];

describe('the app services', () => {
  it('runs a session whose edit waits for the person, then shows it in the live diff', async () => {
    const repo = fixtureRepo('failing-test');
    const { handlers, waitFor } = await open(tempDir('tether-data-'), editTurns);
    const { sessionId } = await handlers['session:start']({ workspace: repo, task: 'fix the discount' });
    const asked = await waitFor((stored) => stored.event.type === 'approval.asked');
    expect((await handlers['approvals:pending']({})).map((p) => p.sessionId)).toEqual([sessionId]);
    expect((await handlers['sessions:list']({}))[0]).toMatchObject({ id: sessionId, status: 'waiting', pendingApprovals: 1 });

    const approvalId = asked.event.type === 'approval.asked' ? asked.event.approvalId : '';
    await handlers['approval:answer']({ approvalId, action: 'allow', scope: 'once' });
    await waitFor((stored) => stored.event.type === 'session.finished');
    expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toContain('percent / 100');

    const files = await handlers['diff:files']({ sessionId });
    expect(files).toEqual([{ path: 'src/price.js', status: 'modified', additions: 1, deletions: 1, binary: false }]);
    const diff = await handlers['diff:file']({ sessionId, path: 'src/price.js' });
    expect(diff.before).toContain('cents - cents * percent;');
    expect(diff.after).toContain('cents - cents * percent / 100;');
    expect(diff.language).toBe('javascript');
  });

  it('refuses an answer to a request that no longer exists, and a second answer to the same one', async () => {
    const repo = fixtureRepo('failing-test');
    const { handlers, waitFor } = await open(tempDir('tether-data-'), editTurns);
    await handlers['session:start']({ workspace: repo, task: 'fix it' });
    const asked = await waitFor((stored) => stored.event.type === 'approval.asked');
    const approvalId = asked.event.type === 'approval.asked' ? asked.event.approvalId : '';
    await handlers['approval:answer']({ approvalId, action: 'deny', scope: 'once', message: 'not now' });
    await expect(handlers['approval:answer']({ approvalId, action: 'allow', scope: 'once' })).rejects.toThrow(
      /already answered|no longer waiting/,
    );
    await expect(handlers['approval:answer']({ approvalId: 'made-up', action: 'allow', scope: 'once' })).rejects.toThrow(
      /no such permission request/,
    );
    await waitFor((stored) => stored.event.type === 'session.finished');
    expect(allToolOutputs(server!.requests[1]!)[0]).toBe('The person denied this call. not now');
  });

  it('keeps a pending approval across a restart; it can still be answered', async () => {
    const repo = fixtureRepo('failing-test');
    const dataDir = tempDir('tether-data-');
    const first = await open(dataDir, editTurns);
    const { sessionId } = await first.handlers['session:start']({ workspace: repo, task: 'fix it' });
    const asked = await first.waitFor((stored) => stored.event.type === 'approval.asked');
    const approvalId = asked.event.type === 'approval.asked' ? asked.event.approvalId : '';
    await first.close();

    const second = await open(dataDir);
    expect((await second.handlers['approvals:pending']({})).map((p) => p.approvalId)).toEqual([approvalId]);
    await second.handlers['approval:answer']({ approvalId, action: 'allow', scope: 'once' });
    await second.waitFor((stored) => stored.event.type === 'session.finished');
    const log = await second.handlers['session:events']({ sessionId, afterSeq: 0 });
    expect(log.filter((stored) => stored.event.type === 'approval.asked')).toHaveLength(1);
    expect(readFileSync(path.join(repo, 'src/price.js'), 'utf8')).toContain('percent / 100');
  });

  it('never sends the API key to the UI; a new key is write-only', async () => {
    const { handlers } = await open(tempDir('tether-data-'));
    const before = await handlers['settings:get']({});
    expect(before).toMatchObject({ hasApiKey: true, api: 'chat', model: 'scripted-model' });
    expect(JSON.stringify(before)).not.toContain('test-key');
    const after = await handlers['settings:update']({ apiKey: null, maxSteps: 12 });
    expect(after).toMatchObject({ hasApiKey: false, maxSteps: 12 });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './store';

let dir: string;
let store: Store;
let clock: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-rules-'));
  clock = 1_700_000_000_000;
  store = openStore(dir, { now: () => ++clock });
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function newSession(projectId?: string): string {
  return store.sessions.create({ workspace: '/work/app', model: 'm', api: 'chat', baseUrl: 'http://127.0.0.1:9', maxSteps: 5, projectId })
    .id;
}

describe('rules', () => {
  it('lists the rules that apply to a project and session: everywhere, that project, that session', () => {
    const app = store.projects.ensure('/work/app').id;
    const lib = store.projects.ensure('/work/lib').id;
    const mine = newSession(app);
    const theirs = newSession(lib);
    const everywhere = store.rules.add({ pattern: 'read_file(.env)', action: 'deny', scope: 'everywhere', source: 'settings' });
    const forApp = store.rules.add({
      pattern: 'run_command(npm test *)',
      action: 'allow',
      scope: 'project',
      source: 'approval',
      projectId: app,
    });
    store.rules.add({ pattern: 'run_command(make)', action: 'allow', scope: 'project', source: 'approval', projectId: lib });
    const forMine = store.rules.add({
      pattern: 'edit_file(src/**)',
      action: 'allow',
      scope: 'session',
      source: 'approval',
      sessionId: mine,
    });
    store.rules.add({ pattern: 'fetch_url(domain:example.com)', action: 'ask', scope: 'session', source: 'approval', sessionId: theirs });

    expect(store.rules.list({ projectId: app, sessionId: mine }).map((rule) => rule.id)).toEqual([everywhere.id, forApp.id, forMine.id]);
    expect(store.rules.list().length).toBe(5);
  });

  it('links a rule and the approval that created it, both ways', () => {
    const id = newSession();
    store.events.append(id, {
      type: 'approval.asked',
      approvalId: 'ap',
      callId: 'c',
      tool: 'run_command',
      risk: 'exec',
      summary: 'Run npm test',
      args: { command: 'npm test' },
    });
    const fromAnswer = {
      pattern: 'run_command(npm test)',
      action: 'allow',
      scope: 'session',
      source: 'approval',
      sessionId: id,
      createdFromApproval: 'ap',
    } as const;
    // A rule is made from an answer, not from a question still waiting.
    expect(() => store.rules.add(fromAnswer)).toThrow(/no answered approval ap/);
    store.events.append(id, {
      type: 'approval.answered',
      approvalId: 'ap',
      callId: 'c',
      decision: { action: 'allow', scope: 'session', by: 'person' },
    });
    const rule = store.rules.add({
      pattern: 'run_command(npm test)',
      action: 'allow',
      scope: 'session',
      source: 'approval',
      sessionId: id,
      createdFromApproval: 'ap',
    });
    expect(rule.createdFromApproval).toBe('ap');
    expect(store.approvals.get('ap')?.ruleId).toBe(rule.id);
  });

  it('revokes a rule: it leaves the list but is kept, and revoking again keeps the first time', () => {
    const rule = store.rules.add({ pattern: 'run_command(make)', action: 'allow', scope: 'everywhere', source: 'settings' });
    const revoked = store.rules.revoke(rule.id);
    expect(revoked.revokedAt).not.toBeNull();
    expect(store.rules.list()).toEqual([]);
    expect(store.rules.list({ includeRevoked: true })).toEqual([revoked]);
    expect(store.rules.revoke(rule.id).revokedAt).toBe(revoked.revokedAt);
    expect(() => store.rules.revoke('nope')).toThrow(/There is no rule nope/);
  });

  it('refuses a scoped rule without its project or session', () => {
    expect(() => store.rules.add({ pattern: 'x', action: 'allow', scope: 'project', source: 'settings' })).toThrow(/needs its projectId/);
    expect(() => store.rules.add({ pattern: 'x', action: 'allow', scope: 'session', source: 'settings', sessionId: 'nope' })).toThrow(
      /no session nope/,
    );
  });
});

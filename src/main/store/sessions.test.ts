import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from './storeError';
import { openStore, type Store } from './store';

let dir: string;
let store: Store;
let clock: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-sessions-'));
  clock = 1_700_000_000_000;
  store = openStore(dir, { now: () => (clock += 1000) });
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const session = { workspace: '/work/app', model: 'gpt-test', api: 'chat', baseUrl: 'http://127.0.0.1:9', maxSteps: 20 } as const;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof StoreError) return error.code;
    throw error;
  }
  return 'nothing thrown';
}

describe('sessions', () => {
  it('creates a session with the model pinned, status new and zero totals', () => {
    const created = store.sessions.create({ ...session, title: 'Fix auth' });
    expect(created).toEqual({
      id: created.id,
      projectId: null,
      title: 'Fix auth',
      workspace: '/work/app',
      model: 'gpt-test',
      api: 'chat',
      baseUrl: 'http://127.0.0.1:9',
      status: 'new',
      maxSteps: 20,
      createdAt: 1_700_000_001_000,
      updatedAt: 1_700_000_001_000,
      lastSeq: 0,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 },
      costUsd: null,
    });
    expect(store.sessions.get(created.id)).toEqual(created);
  });

  it('takes the id it is given and refuses one that is taken', () => {
    expect(store.sessions.create({ ...session, id: 'mine' }).id).toBe('mine');
    expect(code(() => store.sessions.create({ ...session, id: 'mine' }))).toBe('conflict');
  });

  it('lists newest first, and by project', () => {
    const project = store.projects.ensure('/work/app');
    const a = store.sessions.create(session);
    const b = store.sessions.create({ ...session, projectId: project.id });
    const c = store.sessions.create(session);
    expect(store.sessions.list().map((row) => row.id)).toEqual([c.id, b.id, a.id]);
    expect(store.sessions.list({ projectId: project.id }).map((row) => row.id)).toEqual([b.id]);
  });

  it('refuses a project that does not exist', () => {
    expect(code(() => store.sessions.create({ ...session, projectId: 'nope' }))).toBe('not_found');
  });

  it('renames and sets the status, moving updated_at', () => {
    const { id, updatedAt } = store.sessions.create(session);
    const renamed = store.sessions.rename(id, 'Better name');
    expect(renamed.title).toBe('Better name');
    expect(renamed.updatedAt).toBeGreaterThan(updatedAt);
    expect(store.sessions.setStatus(id, 'failed').status).toBe('failed');
    expect(store.sessions.get(id)?.status).toBe('failed');
  });

  it('says clearly when a session is not there', () => {
    expect(store.sessions.get('nope')).toBeUndefined();
    expect(code(() => store.sessions.rename('nope', 'x'))).toBe('not_found');
    expect(code(() => store.sessions.setStatus('nope', 'done'))).toBe('not_found');
    expect(code(() => store.sessions.delete('nope'))).toBe('not_found');
  });

  it('deletes a session with its log, ledger, approvals and session rules, and keeps other rules', () => {
    const project = store.projects.ensure('/work/app');
    const { id } = store.sessions.create({ ...session, projectId: project.id });
    const other = store.sessions.create(session).id;
    store.events.append(id, { type: 'tool.started', callId: 'c1', name: 'run_command', args: { command: 'ls' } });
    store.events.append(id, {
      type: 'approval.asked',
      approvalId: 'ap',
      callId: 'c2',
      tool: 'run_command',
      risk: 'exec',
      summary: 'Run make',
      args: { command: 'make' },
    });
    store.events.append(id, {
      type: 'approval.answered',
      approvalId: 'ap',
      callId: 'c2',
      decision: { action: 'allow', scope: 'project', by: 'person' },
    });
    store.events.append(other, { type: 'user.messaged', text: 'hello' });
    const sessionRule = store.rules.add({
      pattern: 'run_command(make)',
      action: 'allow',
      scope: 'session',
      source: 'approval',
      sessionId: id,
      createdFromApproval: 'ap',
    });
    const projectRule = store.rules.add({
      pattern: 'run_command(make *)',
      action: 'allow',
      scope: 'project',
      source: 'approval',
      projectId: project.id,
      createdFromApproval: 'ap',
    });

    store.sessions.delete(id);

    expect(store.sessions.get(id)).toBeUndefined();
    expect(store.events.count(id)).toBe(0);
    expect(store.ledger.get(id, 'c1')).toBeUndefined();
    expect(store.approvals.get('ap')).toBeUndefined();
    expect(store.rules.get(sessionRule.id)).toBeUndefined();
    expect(store.rules.get(projectRule.id)).toMatchObject({ createdFromApproval: null, revokedAt: null });
    expect(store.events.count(other)).toBe(1);
  });
});

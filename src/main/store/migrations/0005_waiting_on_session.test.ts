import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../../shared/session';
import { migrationFixture, sqlJson as event } from '../../../../test/support/migrationFixture';

const fixture = migrationFixture('m0005');
const asked = (approvalId: string, callId: string, command: string): object => ({
  type: 'approval.asked',
  approvalId,
  callId,
  tool: 'run_command',
  risk: 'exec',
  summary: `Run ${command}`,
  args: { command },
});
const request = (command: string): string => JSON.stringify({ risk: 'exec', summary: `Run ${command}`, args: { command } });

/**
 * Two sessions as the schema-4 store left them: s1 waits on two questions (asked in that order)
 * after one it answered with a rule; s2 finished with one expired. And one pending row with no
 * asking event, which only a hand could have written.
 */
function writeSchema4(): void {
  fixture.writeAtSchema(
    4,
    `
    INSERT INTO sessions (num, id, workspace, model, api, base_url, status, max_steps, created_at, updated_at)
    VALUES (1, 's1', '/work/app', 'gpt-test', 'responses', 'http://127.0.0.1:9', 'waiting', 50, 1000, 1000),
           (2, 's2', '/work/app', 'gpt-test', 'responses', 'http://127.0.0.1:9', 'aborted', 50, 2000, 2000),
           (3, 's3', '/work/app', 'gpt-test', 'responses', 'http://127.0.0.1:9', 'working', 50, 3000, 3000);
    INSERT INTO events (key, session_id, seq, type, at, payload) VALUES
      ((1 << 32) + 1, 's1', 1, 'approval.asked', 1001, ${event(asked('ap_test', 'call_1', 'npm test'))}),
      ((1 << 32) + 2, 's1', 2, 'approval.answered', 1002,
        ${event({ type: 'approval.answered', approvalId: 'ap_test', callId: 'call_1', decision: { action: 'allow', scope: 'project', by: 'person' } })}),
      ((1 << 32) + 3, 's1', 3, 'approval.asked', 1003, ${event(asked('ap_make', 'call_2', 'make'))}),
      ((1 << 32) + 4, 's1', 4, 'approval.asked', 1004, ${event(asked('ap_lint', 'call_3', 'npm run lint'))}),
      ((2 << 32) + 1, 's2', 1, 'approval.asked', 2001, ${event(asked('ap_old', 'call_1', 'rm -rf dist'))}),
      ((2 << 32) + 2, 's2', 2, 'session.finished', 2002, ${event({ type: 'session.finished', status: 'aborted', reason: 'Stopped.' })}),
      ((3 << 32) + 1, 's3', 1, 'approval.asked', 3001, ${event(asked('ap_build', 'call_1', 'npm run build'))}),
      ((3 << 32) + 2, 's3', 2, 'session.resumed', 3002, ${event({ type: 'session.resumed' })});
    INSERT INTO approvals (id, session_id, call_id, tool, request, decision, scope, answered_by, asked_at, answered_at, expired_at) VALUES
      ('ap_test', 's1', 'call_1', 'run_command', '${request('npm test')}', 'allow', 'project', 'person', 1001, 1002, NULL),
      ('ap_lint', 's1', 'call_3', 'run_command', '${request('npm run lint')}', NULL, NULL, NULL, 1004, NULL, NULL),
      ('ap_make', 's1', 'call_2', 'run_command', '${request('make')}', NULL, NULL, NULL, 1003, NULL, NULL),
      ('ap_hand', 's1', 'call_4', 'run_command', '${request('ls')}', NULL, NULL, NULL, 1005, NULL, NULL),
      ('ap_old', 's2', 'call_1', 'run_command', '${request('rm -rf dist')}', NULL, NULL, NULL, 2001, NULL, 2002),
      ('ap_build', 's3', 'call_1', 'run_command', '${request('npm run build')}', NULL, NULL, NULL, 3001, NULL, NULL);
    INSERT INTO rules (id, pattern, action, scope, source, session_id, created_from_approval, created_at)
    VALUES ('r1', 'run_command(npm test)', 'allow', 'everywhere', 'approval', 's1', 'ap_test', 1002),
           ('r2', 'run_command(make)', 'allow', 'session', 'approval', 's1', NULL, 1002);
    UPDATE approvals SET rule_id = 'r1' WHERE id = 'ap_test';
  `,
  );
}

describe('migration 5 (what a session waits on is on its row)', () => {
  it('lists the waiting approvals on their session in the order asked, and keeps the settled ones and their rule', () => {
    writeSchema4();
    const store = fixture.openStore();

    fixture.inspect((db) => {
      expect(db.prepare('SELECT id, status, waiting FROM sessions ORDER BY num').all()).toEqual([
        {
          id: 's1',
          status: 'waiting',
          waiting: JSON.stringify([
            { id: 'ap_make', callId: 'call_2', seq: 3 },
            { id: 'ap_lint', callId: 'call_3', seq: 4 },
          ]),
        },
        { id: 's2', status: 'aborted', waiting: '[]' },
        // Resumed while its question waited: working said the row, waiting says the log.
        { id: 's3', status: 'waiting', waiting: JSON.stringify([{ id: 'ap_build', callId: 'call_1', seq: 1 }]) },
      ]);
      expect(db.prepare('SELECT id FROM approvals ORDER BY id').all()).toEqual([{ id: 'ap_hand' }, { id: 'ap_old' }, { id: 'ap_test' }]);
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    });
    expect(store.approvals.pending().map((approval) => [approval.id, approval.summary, approval.askedAt])).toEqual([
      ['ap_make', 'Run make', 1003],
      ['ap_lint', 'Run npm run lint', 1004],
      ['ap_build', 'Run npm run build', 3001],
    ]);
    expect(store.sessions.get('s3')?.status).toBe(foldEvents(store.events.list('s3')).status);
    expect(store.approvals.get('ap_test')).toMatchObject({
      decision: { action: 'allow', scope: 'project', by: 'person' },
      ruleId: 'r1',
      answeredAt: 1002,
    });
    expect(store.approvals.get('ap_old')).toMatchObject({ decision: null, expiredAt: 2002, summary: 'Run rm -rf dist' });
    expect(store.rules.get('r1')).toMatchObject({ createdFromApproval: 'ap_test' });
  });

  it('settles a pending row that has no asking event as expired, keeping its request', () => {
    writeSchema4();
    const store = fixture.openStore();
    const hand = store.approvals.get('ap_hand');
    expect(hand).toMatchObject({ sessionId: 's1', summary: 'Run ls', decision: null, askedAt: 1005 });
    expect(hand?.expiredAt).toEqual(expect.any(Number));
  });

  it('answers what waited before the upgrade, and the session works again once nothing waits', () => {
    writeSchema4();
    const store = fixture.openStore();
    store.events.append('s1', {
      type: 'approval.answered',
      approvalId: 'ap_lint',
      callId: 'call_3',
      decision: { action: 'deny', scope: 'once', by: 'person' },
    });
    expect(store.sessions.get('s1')?.status).toBe('waiting');
    store.events.append('s1', {
      type: 'approval.answered',
      approvalId: 'ap_make',
      callId: 'call_2',
      decision: { action: 'allow', scope: 'once', by: 'person' },
    });
    expect(store.sessions.get('s1')?.status).toBe('working');
    expect(store.approvals.pending('s1')).toEqual([]);
    expect(store.approvals.get('ap_make')).toMatchObject({
      decision: { action: 'allow', scope: 'once' },
      askedAt: 1003,
      args: { command: 'make' },
    });
    expect(() =>
      store.events.append('s1', {
        type: 'approval.answered',
        approvalId: 'ap_make',
        callId: 'call_2',
        decision: { action: 'allow', scope: 'once', by: 'person' },
      }),
    ).toThrow(/already answered/);
  });

  it('keeps an "Allow always" for everywhere when the session it was given in is deleted, and drops that session\'s own', () => {
    writeSchema4();
    const store = fixture.openStore();
    expect(store.rules.get('r1')).toMatchObject({ scope: 'everywhere', sessionId: null });
    store.sessions.delete('s1');
    expect(store.rules.get('r1')).toMatchObject({ pattern: 'run_command(npm test)', createdFromApproval: null, revokedAt: null });
    expect(store.rules.get('r2')).toBeUndefined();
  });
});

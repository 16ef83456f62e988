import { describe, expect, it } from 'vitest';
import {
  migrationFixture,
  npmTestFinished as finishedTest,
  npmTestStarted as startedTest,
  sqlJson as event,
} from '../../../../test/support/migrationFixture';

const fixture = migrationFixture('m0004');

const startedBuild = { type: 'tool.started', callId: 'call_2', name: 'run_command', args: { command: 'make' } };

/** A session as the schema-3 store left it after a crash: one call finished, one started and never finished. */
function writeSchema3(): void {
  fixture.writeAtSchema(
    3,
    `
    INSERT INTO sessions (num, id, workspace, model, api, base_url, status, max_steps, created_at, updated_at)
    VALUES (1, 's1', '/work/app', 'gpt-test', 'responses', 'http://127.0.0.1:9', 'working', 50, 1000, 1000);
    INSERT INTO events (key, session_id, seq, type, at, payload) VALUES
      ((1 << 32) + 1, 's1', 1, 'tool.started', 1001, ${event(startedTest)}),
      ((1 << 32) + 2, 's1', 2, 'tool.finished', 1002, ${event(finishedTest)}),
      ((1 << 32) + 3, 's1', 3, 'tool.started', 1003, ${event(startedBuild)});
    INSERT INTO tool_calls (session_id, call_id, name, status, outcome, started_seq, finished_seq, started_at, finished_at)
    VALUES ('s1', 'call_1', 'run_command', 'finished', 'ok', 1, 2, 1001, 1002),
           ('s1', 'call_2', 'run_command', 'started', NULL, 3, NULL, 1003, NULL);
  `,
  );
}

describe('migration 4 (the ledger is the log)', () => {
  it('drops tool_calls and reads the same ledger from the events, keeping every event', () => {
    writeSchema3();
    const store = fixture.openStore();

    fixture.inspect((db) => {
      const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'tool_calls'").all();
      expect(tables).toEqual([]);
      expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    });
    expect(store.events.count('s1')).toBe(3);
    expect(store.ledger.get('s1', 'call_1')).toMatchObject({
      status: 'finished',
      outcome: 'ok',
      args: { command: 'npm test' },
      startedAt: 1001,
      finishedAt: 1002,
    });
    expect(store.ledger.unfinished('s1')).toEqual([
      { sessionId: 's1', callId: 'call_2', name: 'run_command', args: { command: 'make' }, startedAt: 1003, status: 'started' },
    ]);
  });

  it('still refuses to run a call that started before the upgrade, and to finish one twice', () => {
    writeSchema3();
    const store = fixture.openStore();
    expect(() =>
      store.events.append('s1', { type: 'tool.started', callId: 'call_2', name: 'run_command', args: { command: 'make' } }),
    ).toThrow(/a call runs once/);
    expect(() =>
      store.events.append('s1', {
        type: 'tool.finished',
        callId: 'call_1',
        name: 'run_command',
        outcome: 'ok',
        title: 't',
        output: '',
        durationMs: 1,
      }),
    ).toThrow(/a call finishes once/);
    // Its outcome can still be recorded once.
    store.events.append('s1', {
      type: 'tool.finished',
      callId: 'call_2',
      name: 'run_command',
      outcome: 'unknown',
      title: 'make',
      output: '',
      durationMs: 0,
    });
    expect(store.ledger.unfinished('s1')).toEqual([]);
  });
});

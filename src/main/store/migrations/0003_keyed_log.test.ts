import { describe, expect, it } from 'vitest';
import {
  migrationFixture,
  npmTestFinished as finished,
  npmTestStarted as started,
  sqlJson as payload,
} from '../../../../test/support/migrationFixture';

const fixture = migrationFixture('m0003');

/** Two sessions as the schema-2 store left them, the second created first in rowid order but later in time. */
function writeSchema2(): void {
  fixture.writeAtSchema(
    2,
    `
    INSERT INTO projects (id, path, name, created_at) VALUES ('p1', '/work/app', 'app', 100);
    INSERT INTO sessions (id, project_id, title, workspace, model, api, base_url, status, max_steps, created_at, updated_at,
                          input_tokens, output_tokens, cached_input_tokens, reasoning_tokens)
    VALUES ('s1', 'p1', 'fix the test', '/work/app', 'gpt-test', 'responses', 'http://127.0.0.1:9', 'working', 50, 1000, 1000,
            120, 30, 10, 5),
           ('s2', 'p1', 'other', '/work/app', 'gpt-test', 'chat', 'http://127.0.0.1:9', 'done', 50, 2000, 2000, 0, 0, 0, 0);
    INSERT INTO events (session_id, seq, type, at, payload) VALUES
      ('s2', 1, 'user.messaged', 2001, ${payload({ type: 'user.messaged', text: 'other' })}),
      ('s1', 1, 'user.messaged', 1001, ${payload({ type: 'user.messaged', text: 'fix the test' })}),
      ('s1', 2, 'tool.started', 1002, ${payload(started)}),
      ('s1', 3, 'tool.finished', 1003, ${payload(finished)});
    INSERT INTO tool_calls (session_id, call_id, name, status, outcome, started_seq, finished_seq, started_at, finished_at)
    VALUES ('s1', 'call_1', 'run_command', 'finished', 'ok', 2, 3, 1002, 1003);
    INSERT INTO approvals (id, session_id, call_id, tool, request, asked_at)
    VALUES ('ap_1', 's1', 'call_2', 'run_command', '{"risk":"exec","summary":"Run make","args":{"command":"make"}}', 1003);
  `,
  );
}

describe('migration 3 (keyed log)', () => {
  it('keeps every event byte for byte, in order, under its session, and the ledger still finds the results', () => {
    writeSchema2();
    const everyEvent = 'SELECT session_id, seq, at, payload FROM events ORDER BY session_id, seq';
    const payloads = fixture.inspect((db) => db.prepare(everyEvent).all(), 2);

    const store = fixture.openStore();

    fixture.inspect((db) => {
      expect(db.prepare(everyEvent).all()).toEqual(payloads);
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    });
    expect(store.events.list('s1').map(({ seq, event }) => [seq, event.type])).toEqual([
      [1, 'user.messaged'],
      [2, 'tool.started'],
      [3, 'tool.finished'],
    ]);
    expect(store.events.list('s1', 2).map(({ seq }) => seq)).toEqual([3]);
    expect(store.ledger.get('s1', 'call_1')).toMatchObject({ status: 'finished', output: 'all passed\n', args: { command: 'npm test' } });
    expect(store.sessions.get('s1')).toMatchObject({ lastSeq: 3, updatedAt: 1003, usage: { inputTokens: 120 }, costUsd: null });
    expect(store.sessions.get('s2')).toMatchObject({ lastSeq: 1, api: 'chat' });
  });

  it('goes on appending after the migrated log, keeps sessions apart, and deletes one session with its whole log', () => {
    writeSchema2();
    const store = fixture.openStore();

    expect(store.events.append('s1', { type: 'model.requested', step: 1 }).seq).toBe(4);
    expect(store.events.append('s2', { type: 'model.requested', step: 1 }).seq).toBe(2);
    expect(store.events.count('s1')).toBe(4);

    store.sessions.delete('s1');
    expect(store.events.count('s1')).toBe(0);
    expect(store.ledger.get('s1', 'call_1')).toBeUndefined();
    expect(store.approvals.get('ap_1')).toBeUndefined();
    expect(store.events.list('s2').map(({ seq }) => seq)).toEqual([1, 2]);
  });

  it('stores a session on the Anthropic API and sums the cost of priced responses, leaving unpriced ones unknown', () => {
    const store = fixture.openStore();
    const base = { workspace: '/w', api: 'anthropic', baseUrl: 'https://api.anthropic.com', maxSteps: 5 } as const;
    const priced = store.sessions.create({ ...base, model: 'claude-sonnet-4-5' }).id;
    const unpriced = store.sessions.create({ ...base, model: 'local-model' }).id;
    const usage = { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 0, reasoningTokens: 0 };

    store.events.append(priced, { type: 'model.responded', items: [], usage, costUsd: 0.0045 });
    store.events.append(priced, { type: 'model.responded', items: [], usage, costUsd: 0.0045 });
    store.events.append(unpriced, { type: 'model.responded', items: [], usage });

    expect(store.sessions.get(priced)?.costUsd).toBeCloseTo(0.009, 10);
    expect(store.sessions.get(priced)?.usage.inputTokens).toBe(2000);
    expect(store.sessions.get(unpriced)).toMatchObject({ api: 'anthropic', costUsd: null, usage: { inputTokens: 1000 } });
  });

  it('lets nothing but a session delete remove or change an event', () => {
    const store = fixture.openStore();
    const id = store.sessions.create({ workspace: '/w', model: 'm', api: 'responses', baseUrl: 'http://x', maxSteps: 5 }).id;
    store.events.append(id, { type: 'user.messaged', text: 'hi' });
    fixture.inspect((db) => {
      expect(() => db.exec('UPDATE events SET payload = payload')).toThrow(/append-only/);
      expect(() => db.exec('DELETE FROM events')).toThrow(/append-only/);
      // A key outside the session's range, or a seq that disagrees with its key, is refused.
      expect(() => db.exec(`INSERT INTO events (key, session_id, seq, type, at, payload) VALUES (1, '${id}', 2, 't', 0, '{}')`)).toThrow(
        /CHECK constraint failed/,
      );
    });
  });
});

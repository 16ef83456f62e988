import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { backupFile } from '../sqlite/migrate';
import { EventLog } from '../eventLog';
import { Projections } from '../projections';
import { SessionHeads } from '../sessionHeads';
import { SessionTotals } from '../sessionTotals';
import { ToolCallGuard } from '../toolCallGuard';
import { migrations } from '.';
import {
  migrationFixture,
  npmTestFinished as finished,
  npmTestStarted as started,
  sqlJson as payload,
} from '../../../../test/support/migrationFixture';

const fixture = migrationFixture('m0002');

const askedMake = {
  type: 'approval.asked',
  approvalId: 'ap_2',
  callId: 'call_2',
  tool: 'run_command',
  risk: 'exec',
  summary: 'Run make',
  args: { command: 'make' },
};

/** A database as the schema-1 store left it: a session with a log, a finished call, an answered approval and its rule. */
function writeSchema1(): void {
  fixture.writeAtSchema(
    1,
    `
    INSERT INTO projects (id, path, name, created_at) VALUES ('p1', '/work/app', 'app', 100);
    INSERT INTO sessions (id, project_id, title, workspace, model, api, base_url, status, max_steps, created_at, updated_at,
                          last_seq, input_tokens, output_tokens, cached_input_tokens, reasoning_tokens)
    VALUES ('s1', 'p1', 'fix the test', '/work/app', 'gpt-test', 'responses', 'http://127.0.0.1:9', 'waiting', 50, 1000, 1005,
            5, 120, 30, 10, 5);
    INSERT INTO events (session_id, seq, type, at, payload) VALUES
      ('s1', 1, 'user.messaged', 1001, ${payload({ type: 'user.messaged', text: 'fix the test' })}),
      ('s1', 2, 'tool.started', 1002, ${payload(started)}),
      ('s1', 3, 'tool.finished', 1003, ${payload(finished)}),
      ('s1', 4, 'model.requested', 1004, ${payload({ type: 'model.requested', step: 2 })}),
      ('s1', 5, 'approval.asked', 1005, ${payload(askedMake)});
    INSERT INTO tool_calls (session_id, call_id, name, status, outcome, started_seq, finished_seq, started_at, finished_at)
    VALUES ('s1', 'call_1', 'run_command', 'finished', 'ok', 2, 3, 1002, 1003);
    INSERT INTO approvals (id, session_id, call_id, tool, request, decision, scope, answered_by, asked_at, answered_at)
    VALUES ('ap_1', 's1', 'call_1', 'run_command', '{"risk":"exec","summary":"Run npm test","args":{"command":"npm test"}}',
            'allow', 'project', 'person', 1001, 1002),
           ('ap_2', 's1', 'call_2', 'run_command', '{"risk":"exec","summary":"Run make","args":{"command":"make"}}',
            NULL, NULL, NULL, 1005, NULL);
    INSERT INTO rules (id, pattern, action, scope, source, project_id, created_from_approval, created_at)
    VALUES ('r1', 'run_command(npm test)', 'allow', 'project', 'approval', 'p1', 'ap_1', 1002);
    UPDATE approvals SET rule_id = 'r1' WHERE id = 'ap_1';
  `,
  );
}

describe('migration 2 (lean append)', () => {
  it('keeps every session, event, ledger row, approval and rule of a schema-1 database', () => {
    writeSchema1();
    const store = fixture.openStore();

    expect(store.sessions.get('s1')).toEqual({
      id: 's1',
      projectId: 'p1',
      title: 'fix the test',
      workspace: '/work/app',
      model: 'gpt-test',
      api: 'responses',
      baseUrl: 'http://127.0.0.1:9',
      status: 'waiting',
      maxSteps: 50,
      createdAt: 1000,
      updatedAt: 1005,
      lastSeq: 5,
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 10, reasoningTokens: 5 },
      costUsd: null,
    });
    expect(store.events.list('s1').map((event) => [event.seq, event.event.type])).toEqual([
      [1, 'user.messaged'],
      [2, 'tool.started'],
      [3, 'tool.finished'],
      [4, 'model.requested'],
      [5, 'approval.asked'],
    ]);
    expect(store.ledger.get('s1', 'call_1')).toMatchObject({
      status: 'finished',
      outcome: 'ok',
      args: { command: 'npm test' },
      output: 'all passed\n',
    });
    expect(store.approvals.get('ap_1')).toMatchObject({ decision: { action: 'allow', scope: 'project', by: 'person' }, ruleId: 'r1' });
    expect(store.approvals.pending().map((approval) => approval.id)).toEqual(['ap_2']);
    expect(store.rules.get('r1')).toMatchObject({ createdFromApproval: 'ap_1', projectId: 'p1' });
    expect(fs.existsSync(backupFile(fixture.file, 1))).toBe(true);
  });

  it('leaves a database whose log goes on from where it was, with its constraints and cascades', () => {
    writeSchema1();
    const store = fixture.openStore();

    expect(
      store.events.append('s1', {
        type: 'approval.answered',
        approvalId: 'ap_2',
        callId: 'call_2',
        decision: { action: 'deny', scope: 'once', by: 'person' },
      }).seq,
    ).toBe(6);
    expect(store.sessions.get('s1')).toMatchObject({ lastSeq: 6, status: 'working' });

    fixture.inspect((db) => {
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: migrations.length });
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
      expect(() => db.exec("UPDATE sessions SET status = 'sleeping' WHERE id = 's1'")).toThrow(/CHECK constraint failed/);
      expect(() => db.exec("DELETE FROM events WHERE session_id = 's1'")).toThrow(/append-only/);
    });

    store.sessions.delete('s1');
    expect(store.events.count('s1')).toBe(0);
    expect(store.ledger.get('s1', 'call_1')).toBeUndefined();
    expect(store.approvals.get('ap_1')).toBeUndefined();
    // The rule outlives the approval that made it, as the schema-1 foreign keys said.
    expect(store.rules.get('r1')).toMatchObject({ createdFromApproval: null });
  });

  it('lets every write an append makes compile without a temporary b-tree', () => {
    fixture.inspect((db) => {
      // The statements the append path prepares, as it prepares them.
      const prepared = vi.spyOn(db, 'prepare');
      new EventLog(db, new Projections(db, new SessionHeads(db), new ToolCallGuard(db), new SessionTotals(db)), Date.now);
      const writes = prepared.mock.calls.map(([sql]) => sql.trim()).filter((sql) => /^(INSERT|UPDATE|DELETE)\b/.test(sql));
      prepared.mockRestore();
      expect(writes.length).toBeGreaterThanOrEqual(5);
      for (const sql of writes) {
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((match) => match[1]))];
        const unnamed = sql.match(/\?/g)?.length ?? 0;
        const params = names.length > 0 ? [Object.fromEntries(names.map((name) => [name, null]))] : Array<null>(unnamed).fill(null);
        const opcodes = db
          .prepare<unknown[], { opcode: string }>(`EXPLAIN ${sql}`)
          .all(...params)
          .map((op) => op.opcode);
        expect(opcodes, sql).not.toContain('OpenEphemeral');
      }
    });
  });
});

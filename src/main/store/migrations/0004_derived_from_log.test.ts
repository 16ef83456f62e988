import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db';
import { openStore, type Store } from '../store';
import { migrations } from '.';

let dir: string;
let file: string;
let store: Store | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-m0004-'));
  file = path.join(dir, 'tether.db');
});

afterEach(() => {
  store?.close();
  store = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const event = (value: object): string => `'${JSON.stringify(value)}'`;
const startedTest = { type: 'tool.started', callId: 'call_1', name: 'run_command', args: { command: 'npm test' } };
const finishedTest = { type: 'tool.finished', callId: 'call_1', name: 'run_command', outcome: 'ok', title: 'npm test (exit 0)', output: 'all passed\n', durationMs: 12 };
const startedBuild = { type: 'tool.started', callId: 'call_2', name: 'run_command', args: { command: 'make' } };

/** A session as the schema-3 store left it after a crash: one call finished, one started and never finished. */
function writeSchema3(): void {
  const db = openDatabase(file, { migrations: migrations.slice(0, 3), backgroundCheckpoints: false });
  db.exec(`
    INSERT INTO sessions (num, id, workspace, model, api, base_url, status, max_steps, created_at, updated_at)
    VALUES (1, 's1', '/work/app', 'gpt-test', 'responses', 'http://127.0.0.1:9', 'working', 50, 1000, 1000);
    INSERT INTO events (key, session_id, seq, type, at, payload) VALUES
      ((1 << 32) + 1, 's1', 1, 'tool.started', 1001, ${event(startedTest)}),
      ((1 << 32) + 2, 's1', 2, 'tool.finished', 1002, ${event(finishedTest)}),
      ((1 << 32) + 3, 's1', 3, 'tool.started', 1003, ${event(startedBuild)});
    INSERT INTO tool_calls (session_id, call_id, name, status, outcome, started_seq, finished_seq, started_at, finished_at)
    VALUES ('s1', 'call_1', 'run_command', 'finished', 'ok', 1, 2, 1001, 1002),
           ('s1', 'call_2', 'run_command', 'started', NULL, 3, NULL, 1003, NULL);
  `);
  db.close();
}

describe('migration 4 (the ledger is the log)', () => {
  it('drops tool_calls and reads the same ledger from the events, keeping every event', () => {
    writeSchema3();
    store = openStore(dir);

    const db = openDatabase(file, { backgroundCheckpoints: false });
    try {
      const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'tool_calls'").all();
      expect(tables).toEqual([]);
      expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      db.close();
    }
    expect(store.events.count('s1')).toBe(3);
    expect(store.ledger.get('s1', 'call_1')).toMatchObject({ status: 'finished', outcome: 'ok', args: { command: 'npm test' }, startedAt: 1001, finishedAt: 1002 });
    expect(store.ledger.unfinished('s1')).toEqual([
      { sessionId: 's1', callId: 'call_2', name: 'run_command', args: { command: 'make' }, startedAt: 1003, status: 'started' },
    ]);
  });

  it('still refuses to run a call that started before the upgrade, and to finish one twice', () => {
    writeSchema3();
    store = openStore(dir);
    expect(() => store?.events.append('s1', { type: 'tool.started', callId: 'call_2', name: 'run_command', args: { command: 'make' } })).toThrow(
      /a call runs once/,
    );
    expect(() =>
      store?.events.append('s1', { type: 'tool.finished', callId: 'call_1', name: 'run_command', outcome: 'ok', title: 't', output: '', durationMs: 1 }),
    ).toThrow(/a call finishes once/);
    // Its outcome can still be recorded once.
    store.events.append('s1', { type: 'tool.finished', callId: 'call_2', name: 'run_command', outcome: 'unknown', title: 'make', output: '', durationMs: 0 });
    expect(store.ledger.unfinished('s1')).toEqual([]);
  });
});

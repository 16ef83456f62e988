import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventOf, SessionEvent, SessionEventType, StoredEvent } from '../../shared/events';
import { migrations } from './migrations';
import { StoreError } from './storeError';
import { openStore, type Store } from './store';
import { SessionLog } from './sessionLog';

// The real store on a real file; "elsewhere" is a second connection, as another process sees the file.

/**
 * A migration only this test adds. An event that says "tripwire" writes a row whose deferred foreign
 * key fails at COMMIT (the one way to make a commit itself fail on purpose); one that says "disk
 * full" rolls the whole transaction back from inside its statement, as SQLite does by itself after
 * SQLITE_FULL or an I/O error.
 */
const tripwire = {
  version: migrations.length + 1,
  name: 'test_tripwire',
  sql: `CREATE TABLE tripwire (session_id TEXT NOT NULL REFERENCES sessions(id) DEFERRABLE INITIALLY DEFERRED);
        CREATE TRIGGER trip AFTER INSERT ON events WHEN NEW.payload LIKE '%tripwire%'
        BEGIN INSERT INTO tripwire (session_id) VALUES ('no such session'); END;
        CREATE TRIGGER full AFTER INSERT ON events WHEN NEW.payload LIKE '%disk full%'
        BEGIN SELECT RAISE(ROLLBACK, 'database or disk is full'); END;`,
};

let dir: string;
let store: Store;
let sessionId: string;
let announced: StoredEvent[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-session-log-'));
  store = openStore(dir, { migrations: [...migrations, tripwire] });
  sessionId = newSession();
  announced = [];
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function newSession(): string {
  return store.sessions.create({ workspace: '/work/app', model: 'gpt-test', api: 'responses', baseUrl: 'http://127.0.0.1:9', maxSteps: 50 })
    .id;
}

function newLog(id = sessionId): SessionLog {
  return new SessionLog(store, id, (stored) => announced.push(stored));
}

function storedElsewhere(id = sessionId): SessionEventType[] {
  const other = openStore(dir, { migrations: [...migrations, tripwire], backgroundCheckpoints: false });
  try {
    return other.events.list(id).map((stored) => stored.event.type);
  } finally {
    other.close();
  }
}

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

const turnEnds = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const requested: SessionEvent = { type: 'model.requested', step: 1 };
const responded: SessionEvent = {
  type: 'model.responded',
  items: [{ type: 'tool_call', callId: 'c1', name: 'run_command', arguments: '{}' }],
  usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 0, reasoningTokens: 0 },
};
const started: SessionEvent = { type: 'tool.started', callId: 'c1', name: 'run_command', args: { command: 'npm test' } };
const finished = (output = 'ok'): EventOf<'tool.finished'> => ({
  type: 'tool.finished',
  callId: 'c1',
  name: 'run_command',
  outcome: 'ok',
  title: 'npm test',
  output,
  durationMs: 5,
});

describe('SessionLog', () => {
  it('commits an appended event before append returns, with the results recorded before it, and announces them in order', () => {
    const log = newLog();
    log.append(requested);
    expect(storedElsewhere()).toEqual(['model.requested']);

    log.record(responded);
    // Stored on this connection and in the state, not yet committed, not yet announced.
    expect(log.state.lastSeq).toBe(2);
    expect(store.events.count(sessionId)).toBe(2);
    expect(storedElsewhere()).toEqual(['model.requested']);
    expect(announced.map((stored) => stored.event.type)).toEqual(['model.requested']);

    log.append(started);
    expect(storedElsewhere()).toEqual(['model.requested', 'model.responded', 'tool.started']);
    expect(announced.map((stored) => [stored.seq, stored.event.type])).toEqual([
      [1, 'model.requested'],
      [2, 'model.responded'],
      [3, 'tool.started'],
    ]);
  });

  it('commits and announces a result with nothing after it once the turn of the event loop ends', async () => {
    const log = newLog();
    log.append(started);
    log.record(finished());
    expect(storedElsewhere()).toEqual(['tool.started']);
    await turnEnds();
    expect(storedElsewhere()).toEqual(['tool.started', 'tool.finished']);
    expect(announced.map((stored) => stored.event.type)).toEqual(['tool.started', 'tool.finished']);
  });

  it('refuses a recorded event the store refuses, at once, and keeps the rest of the group', () => {
    const log = newLog();
    log.append(started);
    log.record(finished());
    expect(() => log.record(finished())).toThrow(/already finished/);
    log.append({ type: 'model.requested', step: 2 });
    expect(storedElsewhere()).toEqual(['tool.started', 'tool.finished', 'model.requested']);
    expect(log.state.lastSeq).toBe(3);
  });

  it('stops for good, clearly, when recorded events fail to commit, announcing none of them; the store goes on from what it has', () => {
    const log = newLog();
    log.append(started);
    log.record(finished('tripwire'));

    const error = thrownBy(() => log.append({ type: 'model.requested', step: 2 }));
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('write_failed');
    expect((error as StoreError).message).toMatch(
      new RegExp(`Session ${sessionId}'s events from seq 2 on could not be stored \\(.*FOREIGN KEY`),
    );
    expect(() => log.append({ type: 'model.requested', step: 2 })).toThrow(error as StoreError);
    expect(announced.map((stored) => stored.event.type)).toEqual(['tool.started']);
    expect(storedElsewhere()).toEqual(['tool.started']);

    // What the store keeps in memory of the lost appends was forgotten with them: a new log
    // (a resumed run) continues from what is stored, at the right seq, and the call is still open.
    const resumed = newLog();
    expect(resumed.state.lastSeq).toBe(1);
    resumed.record(finished('the real result'));
    resumed.flush();
    expect(storedElsewhere()).toEqual(['tool.started', 'tool.finished']);
    expect(store.events.list(sessionId).map((stored) => stored.seq)).toEqual([1, 2]);
  });

  it('finds out at its next append that the group failed at the end of the turn', async () => {
    const log = newLog();
    log.append(started);
    log.record(finished('tripwire'));
    await turnEnds();
    expect(() => log.append({ type: 'model.requested', step: 2 })).toThrow(/events from seq 2 on could not be stored/);
    expect(storedElsewhere()).toEqual(['tool.started']);
  });

  it('stops a session whose recorded events went with a group SQLite rolled back for another session, before it writes past them', () => {
    const first = newLog();
    const otherSession = newSession();
    const second = newLog(otherSession);
    first.append(started);
    second.append(started);
    first.record(finished());
    // The other session's statement takes the whole shared transaction down with it.
    expect(() => second.record(finished('disk full'))).toThrow(/database or disk is full/);

    const error = thrownBy(() => first.append({ type: 'model.requested', step: 2 }));
    expect((error as StoreError).code).toBe('write_failed');
    expect((error as StoreError).message).toMatch(/events from seq 2 on could not be stored/);
    // Nothing was written after the gap.
    expect(storedElsewhere()).toEqual(['tool.started']);
    // The session whose write failed lost nothing it had been told was written: it goes on.
    second.append({ type: 'model.requested', step: 2 });
    expect(storedElsewhere(otherSession)).toEqual(['tool.started', 'model.requested']);
  });

  it('loses no announcement when a listener throws: the rest go out with the next append', () => {
    const heard: number[] = [];
    let failOnce = true;
    const log = new SessionLog(store, sessionId, (stored) => {
      if (stored.seq === 2 && failOnce) {
        failOnce = false;
        throw new Error('the listener failed');
      }
      heard.push(stored.seq);
    });
    log.append(started);
    log.record(finished());
    expect(() => log.append({ type: 'model.requested', step: 2 })).toThrow('the listener failed');
    // Stored all the same, and the listener still hears of the event after the one it failed on.
    expect(storedElsewhere()).toEqual(['tool.started', 'tool.finished', 'model.requested']);
    log.flush();
    expect(heard).toEqual([1, 3]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventOf, SessionEvent, SessionEventType, StoredEvent } from '../../shared/events';
import { migrations } from '../store/migrations';
import { StoreError } from '../store/storeError';
import { openStore, type Store } from '../store/store';
import { commitsAtOnce, SessionLog } from './sessionLog';

// The real store on a real file; "elsewhere" is a second connection, as another process sees the file.

/**
 * A migration only this test adds: a tool.finished whose output says "tripwire" writes a row whose
 * deferred foreign key fails at COMMIT, the one way to make a commit itself fail on purpose.
 */
const tripwire = {
  version: migrations.length + 1,
  name: 'test_tripwire',
  sql: `CREATE TABLE tripwire (session_id TEXT NOT NULL REFERENCES sessions(id) DEFERRABLE INITIALLY DEFERRED);
        CREATE TRIGGER trip AFTER INSERT ON events WHEN NEW.payload LIKE '%tripwire%'
        BEGIN INSERT INTO tripwire (session_id) VALUES ('no such session'); END;`,
};

let dir: string;
let store: Store;
let sessionId: string;
let announced: StoredEvent[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-session-log-'));
  store = openStore(dir, { migrations: [...migrations, tripwire] });
  sessionId = store.sessions.create({ workspace: '/work/app', model: 'gpt-test', api: 'responses', baseUrl: 'http://127.0.0.1:9', maxSteps: 50 }).id;
  announced = [];
});

afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function newLog(): SessionLog {
  return new SessionLog(store, sessionId, (stored) => announced.push(stored));
}

function storedElsewhere(): SessionEventType[] {
  const other = openStore(dir, { migrations: [...migrations, tripwire], backgroundCheckpoints: false });
  try {
    return other.events.list(sessionId).map((stored) => stored.event.type);
  } finally {
    other.close();
  }
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
  it('commits an event something acts on before append returns, with the results grouped before it, and announces them in order', () => {
    const log = newLog();
    log.append(requested);
    expect(storedElsewhere()).toEqual(['model.requested']);

    log.append(responded);
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
    log.append(finished());
    expect(storedElsewhere()).toEqual(['tool.started']);
    await turnEnds();
    expect(storedElsewhere()).toEqual(['tool.started', 'tool.finished']);
    expect(announced.map((stored) => stored.event.type)).toEqual(['tool.started', 'tool.finished']);
  });

  it('commits every kind of event at once except the results nothing acts on by itself', () => {
    const grouped = (['model.responded', 'approval.answered', 'tool.finished', 'session.tainted', 'plan.updated'] as const).filter(
      (type) => !commitsAtOnce(type),
    );
    expect(grouped).toHaveLength(5);
    for (const type of ['session.started', 'user.messaged', 'model.requested', 'model.retrying', 'approval.asked', 'tool.started', 'session.finished'] as const) {
      expect(commitsAtOnce(type), type).toBe(true);
    }
  });

  it('refuses a grouped event the store refuses, at once, and keeps the rest of the group', () => {
    const log = newLog();
    log.append(started);
    log.append(finished());
    expect(() => log.append(finished())).toThrow(/already finished/);
    log.append({ type: 'model.requested', step: 2 });
    expect(storedElsewhere()).toEqual(['tool.started', 'tool.finished', 'model.requested']);
    expect(log.state.lastSeq).toBe(3);
  });

  it('stops for good, clearly, when grouped events fail to commit, announcing none of them; the store goes on from what it has', () => {
    const log = newLog();
    log.append(started);
    log.append(finished('tripwire'));

    const error = (() => {
      try {
        log.append({ type: 'model.requested', step: 2 });
      } catch (caught) {
        return caught;
      }
      throw new Error('expected the append to fail');
    })();
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('write_failed');
    expect((error as StoreError).message).toMatch(new RegExp(`Session ${sessionId}'s events from seq 2 on could not be stored \\(.*FOREIGN KEY`));
    expect(() => log.append({ type: 'model.requested', step: 2 })).toThrow(error as StoreError);
    expect(announced.map((stored) => stored.event.type)).toEqual(['tool.started']);
    expect(storedElsewhere()).toEqual(['tool.started']);

    // What the store keeps in memory of the lost appends was forgotten with them: a new log
    // (a resumed run) continues from what is stored, at the right seq, and the call is still open.
    const resumed = newLog();
    expect(resumed.state.lastSeq).toBe(1);
    resumed.append(finished('the real result'));
    resumed.flush();
    expect(storedElsewhere()).toEqual(['tool.started', 'tool.finished']);
    expect(store.events.list(sessionId).map((stored) => stored.seq)).toEqual([1, 2]);
  });

  it('finds out at its next append that the group failed at the end of the turn', async () => {
    const log = newLog();
    log.append(started);
    log.append(finished('tripwire'));
    await turnEnds();
    expect(() => log.append({ type: 'model.requested', step: 2 })).toThrow(/events from seq 2 on could not be stored/);
    expect(storedElsewhere()).toEqual(['tool.started']);
  });
});

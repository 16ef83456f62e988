import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations as knownMigrations, type Migration } from '../migrations';
import { StoreError } from '../storeError';
import type { Database } from './database';
import { backupFile } from './migrate';
import { openDatabase } from './openDatabase';

let dir: string;
let file: string;
const opened: Database[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tether-db-'));
  file = path.join(dir, 'tether.db');
});

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(target: string, options?: Parameters<typeof openDatabase>[1]): Database {
  const db = openDatabase(target, options);
  opened.push(db);
  return db;
}

function userVersion(db: Database): number {
  return db.prepare<[], { user_version: number }>('PRAGMA user_version').get()?.user_version ?? -1;
}

function thrown(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError, but nothing was thrown');
}

// Each step depends on the one before, so running them out of order (or twice) fails loudly.
const m1: Migration = { version: 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);' };
const m2: Migration = { version: 2, name: 'note_pinned', sql: 'ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;' };
const m3: Migration = { version: 3, name: 'welcome', sql: "INSERT INTO notes (text, pinned) VALUES ('welcome', 1);" };

describe('openDatabase', () => {
  it('applies the migrations in order and records the schema version', () => {
    const db = open(file, { migrations: [m1, m2, m3] });
    expect(userVersion(db)).toBe(3);
    expect(db.prepare('SELECT text, pinned FROM notes').all()).toEqual([{ text: 'welcome', pinned: 1 }]);
  });

  it('runs no migration twice when the database is reopened', () => {
    open(file, { migrations: [m1, m2, m3] }).close();
    const db = open(file, { migrations: [m1, m2, m3] });
    expect(userVersion(db)).toBe(3);
    expect(db.prepare('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 1 });
  });

  it('applies only the new migrations to an older database', () => {
    open(file, { migrations: [m1] }).close();
    const db = open(file, { migrations: [m1, m2, m3] });
    expect(userVersion(db)).toBe(3);
    expect(db.prepare('SELECT text, pinned FROM notes').all()).toEqual([{ text: 'welcome', pinned: 1 }]);
  });

  it('rolls back a failing migration whole and keeps the ones before it', () => {
    const broken: Migration = { version: 3, name: 'broken', sql: 'CREATE TABLE half (x); INSERT INTO missing VALUES (1);' };
    const error = thrown(() => openDatabase(file, { migrations: [m1, m2, broken] }));
    expect(error.code).toBe('migration_failed');
    expect(error.message).toContain('Migration 3 (broken) failed');
    expect(error.message).toContain('no such table: missing');
    const db = open(file, { migrations: [m1, m2] });
    expect(userVersion(db)).toBe(2);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'half'").get()).toBeUndefined();
  });

  it('refuses a migration list that is not numbered 1, 2, 3 in order', () => {
    expect(() => openDatabase(file, { migrations: [m2, m1] })).toThrow(/must be numbered 1, 2, 3/);
  });

  it('turns on WAL, foreign keys and synchronous=NORMAL', () => {
    const db = open(file, { migrations: [m1] });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 });
    // NORMAL is 1; FULL (2) would fsync every commit and cost most of the append rate.
    expect(db.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 1 });
  });

  it('creates the schema this build knows on a new file', () => {
    const db = open(file);
    expect(userVersion(db)).toBe(knownMigrations.length);
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name);
    expect(tables).toEqual([
      'approvals',
      'events',
      'projects',
      'remote_answers',
      'remote_runs',
      'rules',
      'runner_rules',
      'runner_tokens',
      'sessions',
    ]);
  });
});

describe('backups before migrating', () => {
  it('copies a database that has data before migrating it, and the copy is the old schema with the data', () => {
    const v1 = open(file, { migrations: [m1] });
    v1.prepare("INSERT INTO notes (text) VALUES ('keep me')").run();
    v1.close();

    const v3 = open(file, { migrations: [m1, m2, m3] });
    expect(userVersion(v3)).toBe(3);

    const copy = backupFile(file, 1);
    expect(copy).toBe(`${file}.backup-v1`);
    const backup = open(copy, { migrations: [m1] });
    expect(userVersion(backup)).toBe(1);
    expect(backup.prepare('SELECT * FROM notes').all()).toEqual([{ id: 1, text: 'keep me' }]);
    expect(fs.readdirSync(dir).filter((name) => name.includes('.partial-'))).toEqual([]);
  });

  it('makes no backup of a new database or of one that is already up to date', () => {
    open(file, { migrations: [m1, m2] }).close();
    open(file, { migrations: [m1, m2] }).close();
    expect(fs.readdirSync(dir).filter((name) => name.includes('.backup-'))).toEqual([]);
  });
});

describe('refusals', () => {
  it('refuses a database from a newer Tether and leaves its bytes alone', () => {
    const seven = Array.from({ length: 7 }, (_, i): Migration => ({
      version: i + 1,
      name: `m${i + 1}`,
      sql: `CREATE TABLE t${i + 1} (x);`,
    }));
    open(file, { migrations: seven }).close();
    const before = fs.readFileSync(file);
    const filesBefore = fs.readdirSync(dir).sort();

    const error = thrown(() => openDatabase(file, { migrations: [m1, m2, m3] }));
    expect(error.code).toBe('newer_schema');
    expect(error.message).toBe(
      `${file} was written by a newer Tether (schema 7; this build knows up to 3). Update Tether or point --data-dir elsewhere.`,
    );
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(filesBefore);
  });

  it('refuses a file that is not SQLite, clearly, without changing it', () => {
    const text = 'these are my notes, not a database\n'.repeat(200);
    fs.writeFileSync(file, text);
    const error = thrown(() => openDatabase(file));
    expect(error.code).toBe('not_a_database');
    expect(error.message).toContain(`${file} is not a SQLite database`);
    expect(error.message).toContain('--data-dir');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a SQLite database that another program created', () => {
    const theirs = open(file, { migrations: [] });
    theirs.exec('CREATE TABLE their_stuff (x)');
    theirs.close();
    const error = thrown(() => openDatabase(file));
    expect(error.code).toBe('foreign_database');
    expect(error.message).toContain('Tether did not create');
  });

  it('says which file it could not open when its folder does not exist', () => {
    const missing = path.join(dir, 'no', 'such', 'folder', 'tether.db');
    const error = thrown(() => openDatabase(missing));
    expect(error.code).toBe('cannot_open');
    expect(error.message).toContain(missing);
  });
});

describe('a database locked by another process', () => {
  it('waits for the busy timeout and then fails with a message that names the file', () => {
    const holder = open(file);
    const waiter = open(file, { busyTimeoutMs: 250 });
    const insert = waiter.writer(() => waiter.exec("INSERT INTO projects (id, path, name, created_at) VALUES ('p', '/p', 'p', 0)"));

    holder.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const error = thrown(insert);
    const waited = performance.now() - started;
    holder.exec('COMMIT');

    expect(error.code).toBe('locked');
    expect(error.message).toContain(`the database ${file} is locked by another Tether process`);
    expect(waited).toBeGreaterThanOrEqual(200);
    // Once the lock is gone the same write goes through.
    insert();
    expect(holder.prepare('SELECT id FROM projects').all()).toEqual([{ id: 'p' }]);
  });
});

describe('checkpoints', () => {
  // Commits of one 1 KB row: each adds at least a page to the WAL. 1,500 of them pass SQLite's default
  // 1000-page threshold, where the worker starts, and stay well under the 8000 pages at which SQLite
  // would checkpoint by itself here, so only the worker can have copied them into the database file.
  function writeRows(db: Database, rows: number): void {
    const insert = db.prepare<[string]>('INSERT INTO notes (text) VALUES (?)');
    const write = db.writer((text: string) => insert.run(text));
    for (let i = 0; i < rows; i++) write(`${i} ${'x'.repeat(1000)}`);
  }

  it('copies the WAL into the database on a worker thread, not in the commit that fills it', async () => {
    const db = open(file, { migrations: [m1] });
    const before = fs.statSync(file).size;
    writeRows(db, 1500);
    // The worker runs when it gets a core: on a busy machine that can take a while.
    await expect.poll(() => fs.statSync(file).size, { timeout: 10_000, interval: 100 }).toBeGreaterThan(before + 1_000_000);
  });

  it('starts no worker for a WAL SQLite would not checkpoint yet (a short run), and closing still folds it in', async () => {
    const db = open(file, { migrations: [m1] });
    const before = fs.statSync(file).size;
    writeRows(db, 100);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fs.statSync(file).size).toBe(before);
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(100_000);
    db.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(fs.statSync(file).size).toBeGreaterThan(before + 100_000);
  });

  it('leaves the WAL alone when background checkpoints are off, until SQLite fills its threshold', async () => {
    const db = open(file, { migrations: [m1], backgroundCheckpoints: false });
    const before = fs.statSync(file).size;
    writeRows(db, 300);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fs.statSync(file).size).toBe(before);
  });

  it('leaves no WAL or shm file behind once closed, with the worker running', () => {
    const db = open(file, { migrations: [m1] });
    writeRows(db, 1500);
    db.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(fs.existsSync(`${file}-shm`)).toBe(false);
  });
});

describe('group commit', () => {
  const parents: Migration = {
    version: 1,
    name: 'notes_and_links',
    // A deferred foreign key is checked at COMMIT: the one way to make a commit itself fail on purpose.
    sql: `CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
          CREATE TABLE links (note_id INTEGER NOT NULL REFERENCES notes(id) DEFERRABLE INITIALLY DEFERRED);`,
  };
  const turnEnds = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  function notesDb() {
    const db = open(file, { migrations: [parents] });
    const insert = db.prepare<[string]>('INSERT INTO notes (text) VALUES (?)');
    return {
      db,
      note: db.groupWriter((text: string) => insert.run(text)),
      noteNow: db.writer((text: string) => insert.run(text)),
      brokenLink: db.groupWriter(() => db.prepare('INSERT INTO links (note_id) VALUES (999)').run()),
      seenElsewhere: (): string[] => {
        const other = open(file, { migrations: [parents], backgroundCheckpoints: false });
        try {
          return other
            .prepare<[], { text: string }>('SELECT text FROM notes ORDER BY id')
            .all()
            .map((row) => row.text);
        } finally {
          other.close();
        }
      },
    };
  }

  it('keeps grouped writes uncommitted until the next write that commits, then stores them with it in order', () => {
    const { note, noteNow, seenElsewhere } = notesDb();
    const first = note('a result');
    const second = note('another result');
    expect(second.group).toBe(first.group);
    expect(first.group.state).toBe('open');
    expect(seenElsewhere()).toEqual([]);

    noteNow('an intent');
    expect(first.group.state).toBe('committed');
    expect(seenElsewhere()).toEqual(['a result', 'another result', 'an intent']);
  });

  it('commits the group by itself once the turn of the event loop that opened it ends', async () => {
    const { note, seenElsewhere } = notesDb();
    const { group } = note('a result');
    await turnEnds();
    expect(group.state).toBe('committed');
    expect(seenElsewhere()).toEqual(['a result']);
  });

  it('undoes only the grouped write that threw; the rest of the group still commits', () => {
    const { db, note, seenElsewhere } = notesDb();
    const refused = db.groupWriter(() => {
      db.prepare("INSERT INTO notes (text) VALUES ('half of a refused write')").run();
      throw new Error('refused');
    });
    note('before');
    expect(() => refused()).toThrow('refused');
    note('after');
    db.commit();
    expect(seenElsewhere()).toEqual(['before', 'after']);
  });

  it('rolls the whole group back when its commit fails, says why on the group, and tells the rollback listeners', () => {
    const { db, note, noteNow, brokenLink, seenElsewhere } = notesDb();
    let rollbacks = 0;
    db.onRollback(() => rollbacks++);
    const { group } = note('lost with its group');
    brokenLink();

    expect(() => noteNow('the write whose commit fails')).toThrow(/FOREIGN KEY/);
    expect(group.state).toBe('rolled_back');
    expect(String(group.error)).toMatch(/FOREIGN KEY/);
    expect(rollbacks).toBe(1);
    expect(seenElsewhere()).toEqual([]);
    // The connection is usable again, in a transaction of its own.
    noteNow('next');
    expect(seenElsewhere()).toEqual(['next']);
  });

  it('keeps the error of a group whose commit failed at the end of the turn for those who joined it', async () => {
    const { note, brokenLink, seenElsewhere } = notesDb();
    const { group } = note('lost');
    brokenLink();
    await turnEnds();
    expect(group.state).toBe('rolled_back');
    expect(String(group.error)).toMatch(/FOREIGN KEY/);
    expect(seenElsewhere()).toEqual([]);
  });

  it('refuses the write that finds its group lost, so nothing is stored after the gap; the next one goes on', () => {
    const { db, note, noteNow, seenElsewhere } = notesDb();
    const { group } = note('lost');
    // What SQLite does by itself after some errors (a full disk): the transaction is rolled back.
    db.exec('ROLLBACK');
    expect(() => noteNow('written after the gap')).toThrow(/rolled back the writes waiting to be committed/);
    expect(group.state).toBe('rolled_back');
    expect((group.error as StoreError).code).toBe('write_failed');
    noteNow('next');
    expect(seenElsewhere()).toEqual(['next']);
  });

  it('marks the group lost at once when a grouped write fails in a way that rolls the whole transaction back', () => {
    const { db, note, seenElsewhere } = notesDb();
    db.exec(
      "CREATE TRIGGER full AFTER INSERT ON notes WHEN NEW.text = 'disk full' BEGIN SELECT RAISE(ROLLBACK, 'database or disk is full'); END",
    );
    const { group } = note('lost');
    expect(() => note('disk full')).toThrow(/database or disk is full/);
    expect(group.state).toBe('rolled_back');
    note('next');
    db.commit();
    expect(seenElsewhere()).toEqual(['next']);
  });

  it('commits an open group when the database is closed', () => {
    const { db, note, seenElsewhere } = notesDb();
    const { group } = note('kept');
    db.close();
    expect(group.state).toBe('committed');
    expect(seenElsewhere()).toEqual(['kept']);
  });
});

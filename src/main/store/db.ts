import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { migrations as knownMigrations, type Migration } from './migrations';
import { currentRuntime, explainBindingFailure, nativeBindingOption, sqliteBinding } from './sqliteBinding';
import { StoreError } from './storeError';

/**
 * The one door to SQLite: the only file that imports better-sqlite3, so the native module (built per
 * ABI: Node's for the CLI and tests, Electron's for the app) has a single place to be swapped or
 * mocked, and every error it throws is turned into one a person can act on.
 */

export interface DatabaseOptions {
  /**
   * How long a write waits for another process (the app and `tether run` on the same data dir)
   * to release the write lock before it fails with a clear message.
   */
  busyTimeoutMs?: number;
  /** The schema to bring the file up to; tests pass their own. Defaults to this build's. */
  migrations?: readonly Migration[];
  /**
   * Checkpoint the WAL on a worker thread (the default for files), so the fsyncs it needs never
   * stall an append. Off: SQLite checkpoints inside whichever commit fills the WAL.
   */
  backgroundCheckpoints?: boolean;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** A prepared statement; named parameters are passed as one object, hence `[{ ... }]`. */
export type Statement<Params extends unknown[] = [], Row = unknown> = BetterSqlite3.Statement<Params, Row>;

/**
 * Writes that share one transaction and commit together (group commit). Its state tells a writer
 * that went on without waiting for the commit whether what it wrote was stored after all.
 */
export interface CommitGroup {
  readonly state: 'open' | 'committed' | 'rolled_back';
  /** Why the group was rolled back (a StoreError where SQLite said why). */
  readonly error?: unknown;
}

interface OpenGroup {
  state: CommitGroup['state'];
  error?: unknown;
}

export class Database {
  private group: OpenGroup | undefined;
  private readonly rollbackListeners: (() => void)[] = [];
  private readonly beginGroup: BetterSqlite3.Statement;
  private readonly commitGroup: BetterSqlite3.Statement;
  private readonly rollbackGroup: BetterSqlite3.Statement;

  constructor(
    readonly file: string,
    private readonly sqlite: BetterSqlite3.Database,
    readonly busyTimeoutMs: number,
    private readonly checkpointer?: Checkpointer,
  ) {
    this.beginGroup = sqlite.prepare('BEGIN IMMEDIATE');
    this.commitGroup = sqlite.prepare('COMMIT');
    this.rollbackGroup = sqlite.prepare('ROLLBACK');
  }

  prepare<Params extends unknown[] = [], Row = unknown>(sql: string): Statement<Params, Row> {
    return this.sqlite.prepare(sql) as unknown as Statement<Params, Row>;
  }

  /**
   * Wraps `fn` as a write transaction, built once, that is committed when it returns. It begins
   * IMMEDIATE: the write lock is taken before anything is read, so the busy timeout applies to it
   * and whatever `fn` reads (the next seq) is current. A deferred transaction that reads first and
   * then writes can instead fail at once with SQLITE_BUSY when another process wrote in between,
   * without waiting at all. With a group open (`groupWriter`), `fn` runs as a savepoint inside it
   * and the whole group commits with it: a write made after the group's is never stored without them.
   */
  writer<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => Result {
    const transaction = this.sqlite.transaction(fn);
    return (...args: Args): Result => {
      this.refuseAfterLostGroup();
      let result: Result;
      try {
        result = transaction.immediate(...args) as Result;
      } catch (error) {
        this.checkGroup();
        throw explainSqliteError(this.file, error, this.busyTimeoutMs);
      }
      if (this.group) this.commit();
      else this.checkpointer?.committed();
      return result;
    };
  }

  /**
   * Wraps `fn` as a write that joins the open group (opening one): it runs as a savepoint, so a
   * write that throws undoes only itself, and it is committed with the group, by the next `writer`
   * write, by `commit()`, or at the latest once this turn of the event loop ends. One commit then
   * pays for several writes; the price is that a crash before it loses them all, which is only
   * safe for writes nothing acts on before they commit. Returns `fn`'s result and the group.
   */
  groupWriter<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => { result: Result; group: CommitGroup } {
    const transaction = this.sqlite.transaction(fn);
    return (...args: Args) => {
      this.refuseAfterLostGroup();
      const group = this.group ?? this.openGroup();
      try {
        // Inside the group's transaction better-sqlite3 makes this a savepoint.
        return { result: transaction(...args) as Result, group };
      } catch (error) {
        this.checkGroup();
        throw explainSqliteError(this.file, error, this.busyTimeoutMs);
      }
    };
  }

  /**
   * Commits the open group, if any. When the commit fails the group is rolled back, its state says
   * why, the rollback listeners run, and the error is thrown.
   */
  commit(): void {
    this.refuseAfterLostGroup();
    const group = this.group;
    if (!group) return;
    this.group = undefined;
    try {
      this.commitGroup.run();
    } catch (error) {
      // SQLite may have rolled back already (a full disk, an I/O error); then there is nothing to undo.
      try {
        if (this.sqlite.inTransaction) this.rollbackGroup.run();
      } catch {
        // Closing the connection rolls back whatever is left.
      }
      throw this.lose(group, explainSqliteError(this.file, error, this.busyTimeoutMs));
    }
    group.state = 'committed';
    this.checkpointer?.committed();
  }

  /** Runs after a group is rolled back, so whatever was kept of its writes in memory can be dropped. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** Runs SQL text as is; for what has no parameters and runs rarely (a lock held on purpose). */
  exec(sql: string): void {
    try {
      this.sqlite.exec(sql);
    } catch (error) {
      throw explainSqliteError(this.file, error, this.busyTimeoutMs);
    }
  }

  /**
   * Commits the open group, then closes. Closing always closes: a commit that fails here leaves its
   * error on the group, for the writers that joined it, rather than hiding why the caller is closing.
   */
  close(): void {
    try {
      if (this.sqlite.open) this.commit();
    } catch {
      // On the group (see above).
    }
    this.checkpointer?.stop();
    if (this.sqlite.open) this.sqlite.close();
  }

  private openGroup(): OpenGroup {
    try {
      this.beginGroup.run();
    } catch (error) {
      throw explainSqliteError(this.file, error, this.busyTimeoutMs);
    }
    const group: OpenGroup = { state: 'open' };
    this.group = group;
    // A group never outlives the turn that opened it: the write lock is held while it is open.
    setImmediate(() => {
      if (this.group !== group || !this.sqlite.open) return;
      try {
        this.commit();
      } catch {
        // The group's state holds the error for the writers that joined it.
      }
    });
    return group;
  }

  /**
   * SQLite rolls a transaction back by itself after some errors (a full disk, an I/O error): then
   * the open group is lost, and its state says so from here on. Cheap; call before trusting a group.
   */
  checkGroup(): void {
    const group = this.group;
    if (!group || this.sqlite.inTransaction) return;
    this.group = undefined;
    this.lose(
      group,
      new StoreError(
        'write_failed',
        `SQLite rolled back the writes waiting to be committed to ${this.file} after an error; they were not stored.`,
      ),
    );
  }

  /**
   * A write that finds the open group lost is refused with the loss: written in a new transaction
   * it would be stored after a gap (an event whose predecessors are gone). The next write goes on.
   */
  private refuseAfterLostGroup(): void {
    const group = this.group;
    this.checkGroup();
    if (group && group.state === 'rolled_back') throw group.error;
  }

  private lose(group: OpenGroup, error: unknown): unknown {
    group.state = 'rolled_back';
    group.error = error;
    for (const listener of this.rollbackListeners) listener();
    return error;
  }
}

/**
 * Opens (creating if needed) a Tether database and brings its schema up to date. Refuses, without
 * writing a byte, a file that is not SQLite, one another program owns, and one a newer Tether wrote.
 */
export function openDatabase(file: string, options: DatabaseOptions = {}): Database {
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const migrations = options.migrations ?? knownMigrations;
  checkMigrationList(migrations);

  let sqlite: BetterSqlite3.Database;
  try {
    // `timeout` is better-sqlite3's name for SQLite's busy_timeout.
    sqlite = new BetterSqlite3(file, { timeout: busyTimeoutMs, nativeBinding: nativeBindingOption(sqliteBinding()) });
  } catch (error) {
    const explained = explainBindingFailure(error, currentRuntime());
    if (explained !== error) throw explained;
    throw new StoreError(
      'cannot_open',
      `Cannot open the database ${file}: ${messageOf(error)}. Check that its folder exists and is writable, or point --data-dir elsewhere.`,
      { cause: error },
    );
  }

  try {
    // Nothing above wrote to the file; everything from WAL on may, so every refusal comes first.
    const version = userVersion(sqlite);
    const latest = migrations.length;
    if (version > latest) throw newerSchema(file, version, latest);
    if (version === 0 && hasTables(sqlite)) {
      throw new StoreError(
        'foreign_database',
        `${file} is a SQLite database that Tether did not create (it has tables but no Tether schema version); it was left untouched. Point --data-dir elsewhere.`,
      );
    }
    sqlite.pragma('journal_mode = WAL');
    // In WAL mode NORMAL syncs only at checkpoints: a commit is a write to the WAL, not an fsync,
    // which is what makes a commit per acted-on event affordable. A power cut may lose the last
    // commits but never corrupts the file.
    sqlite.pragma('synchronous = NORMAL');
    // This build of SQLite turns foreign keys on by default; migrations need them off (see migrate).
    sqlite.pragma('foreign_keys = OFF');
    migrate(sqlite, file, version, migrations);
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    sqlite.close();
    throw explainSqliteError(file, error, busyTimeoutMs);
  }
  if (options.backgroundCheckpoints === false || sqlite.memory) return new Database(file, sqlite, busyTimeoutMs);
  // Left to this connection only when the worker falls behind, so the WAL stays bounded; if the
  // worker cannot run at all, SQLite's own default takes over again.
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  const checkpointer = new Checkpointer(file, () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_CHECKPOINT_PAGES}`);
  });
  return new Database(file, sqlite, busyTimeoutMs, checkpointer);
}

/** Where the copy of a database is kept before migrating it away from schema `version`. */
export function backupFile(file: string, version: number): string {
  return `${file}.backup-v${version}`;
}

/**
 * Runs with foreign keys off (the connection turns them on afterwards), as SQLite's procedure for
 * rebuilding a table requires: dropping the old table must not cascade into the rows that point
 * at it. Each migration is checked with foreign_key_check before it commits instead.
 */
function migrate(sqlite: BetterSqlite3.Database, file: string, from: number, migrations: readonly Migration[]): void {
  // Only the state before this process's first migration is worth a copy; a new file has none.
  let firstRun = true;
  for (const migration of migrations.slice(from)) {
    sqlite
      .transaction(() => {
        // Another process may have migrated while this one waited for the lock, even past this build.
        const current = userVersion(sqlite);
        if (current > migrations.length) throw newerSchema(file, current, migrations.length);
        if (current >= migration.version) return;
        if (firstRun && current > 0) backUp(file, current);
        firstRun = false;
        try {
          sqlite.exec(migration.sql);
          const broken = sqlite.pragma('foreign_key_check') as { table: string; parent: string }[];
          if (broken.length > 0) {
            const first = broken[0];
            throw new Error(`it leaves ${broken.length} row(s) whose foreign key points nowhere (first: ${first?.table} -> ${first?.parent})`);
          }
        } catch (error) {
          if (isBusy(error)) throw error;
          throw new StoreError(
            'migration_failed',
            `Migration ${migration.version} (${migration.name}) failed on ${file}: ${messageOf(error)}. None of it was applied; the database is still at schema ${current}. Report this with the message.`,
            { cause: error },
          );
        }
        sqlite.pragma(`user_version = ${migration.version}`);
      })
      .immediate();
  }
}

function newerSchema(file: string, version: number, latest: number): StoreError {
  return new StoreError(
    'newer_schema',
    `${file} was written by a newer Tether (schema ${version}; this build knows up to ${latest}). Update Tether or point --data-dir elsewhere.`,
  );
}

/**
 * Copies the database as it is before the first migration. It runs while this connection holds
 * the write lock and has not written yet, so the copy is exactly the state being migrated away
 * from. VACUUM INTO (on a second, read-only connection, since it cannot run inside a transaction)
 * is synchronous, unlike better-sqlite3's backup(), so opening the store stays synchronous too.
 */
function backUp(file: string, version: number): void {
  const target = backupFile(file, version);
  const partial = `${target}.partial-${process.pid}`;
  fs.rmSync(partial, { force: true });
  const reader = new BetterSqlite3(file, { readonly: true, nativeBinding: nativeBindingOption(sqliteBinding()) });
  try {
    reader.prepare('VACUUM INTO ?').run(partial);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw new StoreError(
      'backup_failed',
      `Could not back up ${file} to ${target} before migrating it: ${messageOf(error)}. Nothing was migrated; free some disk space or check the folder's permissions and try again.`,
      { cause: error },
    );
  } finally {
    reader.close();
  }
  // Renamed into place only when whole, so a backup file is never half a database.
  fs.renameSync(partial, target);
}

function userVersion(sqlite: BetterSqlite3.Database): number {
  return sqlite.pragma('user_version', { simple: true }) as number;
}

function hasTables(sqlite: BetterSqlite3.Database): boolean {
  return sqlite.prepare("SELECT 1 FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' LIMIT 1").get() !== undefined;
}

function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration "${migration.name}" has version ${migration.version} but is number ${index + 1} in the list; migrations must be numbered 1, 2, 3... in order in store/migrations/index.ts.`,
      );
    }
  });
}

/** Turns what SQLite says into what a person can act on; anything else passes through. */
function explainSqliteError(file: string, error: unknown, busyTimeoutMs: number): unknown {
  if (!(error instanceof BetterSqlite3.SqliteError)) return error;
  const code = error.code;
  if (isBusy(error)) {
    return new StoreError(
      'locked',
      `the database ${file} is locked by another Tether process; it was still busy after ${busyTimeoutMs} ms. Wait for that process to finish (or close it) and try again, or point --data-dir elsewhere.`,
      { cause: error },
    );
  }
  if (code === 'SQLITE_NOTADB') {
    return new StoreError(
      'not_a_database',
      `${file} is not a SQLite database (SQLite says: ${error.message}); it was left untouched. Move it aside or point --data-dir elsewhere.`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new StoreError(
      'corrupt',
      `${file} is damaged (SQLite says: ${error.message}). Restore it from a backup (${file}.backup-v*) or move it aside.`,
      { cause: error },
    );
  }
  return error;
}

function isBusy(error: unknown): boolean {
  return error instanceof BetterSqlite3.SqliteError && (error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED'));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const SQLITE_DEFAULT_CHECKPOINT_PAGES = 1000;
const FALLBACK_CHECKPOINT_PAGES = 8000;
/**
 * The pause between two checkpoints while commits keep coming. Short on purpose: each checkpoint
 * syncs what the WAL gained since the last one, and many small syncs stall the writer less than a
 * few large ones (bench/eventAppend.bench.ts: 100 ms between checkpoints sustained ~13k events/s,
 * 2 to 5 ms ~16k, same machine, same run).
 */
const CHECKPOINT_PAUSE_MS = 2;
/** An idle worker still looks now and then, for commits made by another process. */
const IDLE_WAKE_MS = 5000;

// Two Int32 slots shared with the worker: its state, and whether a commit left work for it.
const STATE = 0;
const WORK = 1;
// States.
const STARTING = 0;
const RUNNING = 1;
const STOPPING = 2;
const STOPPED = 3;

// Plain CommonJS, evaluated in the worker; better-sqlite3 is loaded from the path this file resolves.
const CHECKPOINT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const shared = new Int32Array(workerData.shared);
if (Atomics.compareExchange(shared, ${STATE}, ${STARTING}, ${RUNNING}) === ${STARTING}) {
  let db;
  try {
    const Database = require(workerData.binding);
    db = new Database(workerData.file, { fileMustExist: true, timeout: 0, nativeBinding: workerData.nativeBinding });
    while (Atomics.load(shared, ${STATE}) === ${RUNNING}) {
      // Asleep until a commit leaves work (no wake-ups at all while the app is idle).
      Atomics.wait(shared, ${WORK}, 0, workerData.idleMs);
      if (Atomics.load(shared, ${STATE}) !== ${RUNNING}) break;
      // Claimed before copying: a commit made meanwhile asks for another round.
      Atomics.store(shared, ${WORK}, 0);
      // Busy means another checkpoint is running; the next round catches up.
      try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
      Atomics.wait(shared, ${STATE}, ${RUNNING}, workerData.pauseMs);
    }
  } catch (error) {
    parentPort.postMessage(String(error));
  } finally {
    if (db) db.close();
  }
}
Atomics.store(shared, ${STATE}, ${STOPPED});
Atomics.notify(shared, ${STATE});
`;

/**
 * Runs PASSIVE WAL checkpoints on a worker thread with its own connection. With synchronous=NORMAL
 * a commit never fsyncs; the checkpoint that copies the WAL into the database does, twice, and
 * SQLite's automatic checkpoint runs it inside whichever append fills the WAL. On a disk where a
 * sync takes milliseconds that one append stalled for them every few hundred events, and halved
 * the sustained rate (see bench/eventAppend.bench.ts). A PASSIVE checkpoint never blocks the
 * writer, and the sync happens off the thread that runs the agent loop and answers the UI. The
 * worker runs only after commits, in small rounds a few milliseconds apart while they keep coming.
 * It starts with the first commit: a process that only reads (`tether sessions`) never pays for a thread.
 */
class Checkpointer {
  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  private worker: Worker | undefined;

  constructor(
    private readonly file: string,
    private readonly onFailure: () => void,
  ) {}

  private start(): void {
    const binding = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(CHECKPOINT_WORKER, {
      eval: true,
      workerData: { file: this.file, binding, nativeBinding: nativeBindingOption(sqliteBinding()), pauseMs: CHECKPOINT_PAUSE_MS, idleMs: IDLE_WAKE_MS, shared: this.shared.buffer },
    });
    this.worker = worker;
    // It must never keep a process alive.
    worker.unref();
    worker.on('message', this.onFailure);
    worker.on('error', () => {
      Atomics.store(this.shared, STATE, STOPPED);
      this.onFailure();
    });
  }

  /** Called after every commit; wakes the worker only when it is asleep (one load otherwise). */
  committed(): void {
    if (this.worker === undefined && Atomics.load(this.shared, STATE) === STARTING) this.start();
    if (Atomics.load(this.shared, WORK) === 0) {
      Atomics.store(this.shared, WORK, 1);
      Atomics.notify(this.shared, WORK);
    }
  }

  /** Stops the worker and waits (briefly) until its connection is closed, so closing is synchronous. */
  stop(): void {
    const was = Atomics.exchange(this.shared, STATE, STOPPING);
    if (was === RUNNING) {
      Atomics.notify(this.shared, STATE);
      // Wakes it from an idle wait too; it then sees STOPPING.
      Atomics.store(this.shared, WORK, 1);
      Atomics.notify(this.shared, WORK);
      Atomics.wait(this.shared, STATE, STOPPING, 2000);
    }
    void this.worker?.terminate();
  }
}

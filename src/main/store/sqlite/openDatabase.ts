import BetterSqlite3 from 'better-sqlite3';
import { migrations as knownMigrations, type Migration } from '../migrations';
import { StoreError } from '../storeError';
import { checkpointInBackground } from './checkpointer';
import { Database } from './database';
import { checkMigrationList, hasTables, migrate, newerSchema, userVersion } from './migrate';
import { currentRuntime, explainBindingFailure, nativeBindingOption, sqliteBinding } from './sqliteBinding';
import { explainSqliteError, messageOf } from './sqliteErrors';

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

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

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
  return new Database(file, sqlite, busyTimeoutMs, checkpointInBackground(file, sqlite));
}

import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import type { Migration } from '../migrations';
import { StoreError } from '../storeError';
import { nativeBindingOption, sqliteBinding } from './sqliteBinding';
import { isBusy, messageOf } from './sqliteErrors';

/**
 * Bringing a database's schema up to date: the numbered migrations in order, each in a transaction
 * of its own, and a copy of the database as it was before the first one.
 */

/** Where the copy of a database is kept before migrating it away from schema `version`. */
export function backupFile(file: string, version: number): string {
  return `${file}.backup-v${version}`;
}

/**
 * Runs with foreign keys off (the connection turns them on afterwards), as SQLite's procedure for
 * rebuilding a table requires: dropping the old table must not cascade into the rows that point
 * at it. Each migration is checked with foreign_key_check before it commits instead.
 */
export function migrate(sqlite: BetterSqlite3.Database, file: string, from: number, migrations: readonly Migration[]): void {
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
            throw new Error(
              `it leaves ${broken.length} row(s) whose foreign key points nowhere (first: ${first?.table} -> ${first?.parent})`,
            );
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

export function newerSchema(file: string, version: number, latest: number): StoreError {
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

export function userVersion(sqlite: BetterSqlite3.Database): number {
  return sqlite.pragma('user_version', { simple: true }) as number;
}

export function hasTables(sqlite: BetterSqlite3.Database): boolean {
  return sqlite.prepare("SELECT 1 FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' LIMIT 1").get() !== undefined;
}

export function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration "${migration.name}" has version ${migration.version} but is number ${index + 1} in the list; migrations must be numbered 1, 2, 3... in order in store/migrations/index.ts.`,
      );
    }
  });
}

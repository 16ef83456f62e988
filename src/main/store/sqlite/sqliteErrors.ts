import BetterSqlite3 from 'better-sqlite3';
import { StoreError } from '../storeError';

/** Turns what SQLite says into what a person can act on; anything else passes through. */
export function explainSqliteError(file: string, error: unknown, busyTimeoutMs: number): unknown {
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

export function isBusy(error: unknown): boolean {
  return error instanceof BetterSqlite3.SqliteError && (error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED'));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

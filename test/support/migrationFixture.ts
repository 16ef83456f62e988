import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Database } from '../../src/main/store/sqlite/database';
import { openDatabase } from '../../src/main/store/sqlite/openDatabase';
import { openStore, type Store } from '../../src/main/store/store';
import { migrations } from '../../src/main/store/migrations';

/** A database folder of its own for each test of a migration; what it opened is closed after the test. */
export interface MigrationFixture {
  readonly dir: string;
  readonly file: string;
  /** Writes `sql` into a new database at schema `version`, as the store of that build left it. */
  writeAtSchema(version: number, sql: string): void;
  /** Opens this build's store on the folder, which migrates the database. */
  openStore(): Store;
  /** `read` on a connection of its own: at this build's schema (migrating), or left at `version`. */
  inspect<T>(read: (db: Database) => T, version?: number): T;
}

/** Call at the top of a test file: every test gets a new folder, removed after it with what it opened. */
export function migrationFixture(name: string): MigrationFixture {
  let dir = '';
  let store: Store | undefined;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `tether-${name}-`));
  });
  afterEach(() => {
    store?.close();
    store = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const file = (): string => path.join(dir, 'tether.db');
  const open = (version?: number): Database =>
    openDatabase(file(), { backgroundCheckpoints: false, ...(version === undefined ? {} : { migrations: migrations.slice(0, version) }) });
  return {
    get dir() {
      return dir;
    },
    get file() {
      return file();
    },
    writeAtSchema(version, sql) {
      const db = open(version);
      try {
        db.exec(sql);
      } finally {
        db.close();
      }
    },
    openStore() {
      store?.close();
      store = openStore(dir);
      return store;
    },
    inspect(read, version) {
      const db = open(version);
      try {
        return read(db);
      } finally {
        db.close();
      }
    },
  };
}

/** A value as the SQL string literal of its JSON, for events and requests written by hand. */
export function sqlJson(value: object): string {
  return `'${JSON.stringify(value)}'`;
}

/** One call that ran and finished (npm test, call_1), as the logs written by hand hold it. */
export const npmTestStarted = { type: 'tool.started', callId: 'call_1', name: 'run_command', args: { command: 'npm test' } };
export const npmTestFinished = {
  type: 'tool.finished',
  callId: 'call_1',
  name: 'run_command',
  outcome: 'ok',
  title: 'npm test (exit 0)',
  output: 'all passed\n',
  durationMs: 12,
};

import fs from 'node:fs';
import path from 'node:path';
import { Approvals } from './approvals';
import { openDatabase, type DatabaseOptions } from './sqlite/openDatabase';
import { EventLog } from './eventLog';
import { Ledger } from './ledger';
import { Projections } from './projections';
import { Projects } from './projects';
import { RemoteRuns } from './remoteRuns';
import { StoredRules } from './storedRules';
import { SessionHeads } from './sessionHeads';
import { SessionTotals } from './sessionTotals';
import { Sessions, type AppendMemory } from './sessions';
import { ToolCallGuard } from './toolCallGuard';

/** Everything Tether keeps: one SQLite file, one connection, statements prepared once. */
export interface Store {
  /** The database file, for messages. */
  readonly file: string;
  readonly projects: Projects;
  readonly sessions: Sessions;
  readonly events: EventLog;
  readonly ledger: Ledger;
  readonly approvals: Approvals;
  readonly rules: StoredRules;
  /** The desk's remote runs: runner tokens, mirrored sessions, answers sent, runners' rules. */
  readonly remote: RemoteRuns;
  close(): void;
}

export interface StoreOptions extends DatabaseOptions {
  /** The clock for every timestamp the store writes (ms since the epoch); tests pin it. */
  now?: () => number;
}

/** A data directory (the database is `<dir>/tether.db`) or a database file itself. */
export type StoreLocation = string | { dataDir: string } | { file: string };

export const DATABASE_FILE_NAME = 'tether.db';

/** Opens the store, creating the data directory (owner-only) and the database as needed. */
export function openStore(location: StoreLocation, options: StoreOptions = {}): Store {
  const file = databaseFile(location);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = openDatabase(file, options);
  const clock = options.now ?? Date.now;
  // Timestamps are INTEGER columns in STRICT tables: a fractional clock would be refused.
  const now = (): number => Math.round(clock());
  const heads = new SessionHeads(db);
  const calls = new ToolCallGuard(db);
  const totals = new SessionTotals(db);
  const projections = new Projections(db, heads, calls, totals);
  // Appends in a group are kept in memory as they are written; a group that fails to commit undoes them.
  db.onRollback(() => {
    heads.forgetAll();
    calls.forgetAll();
  });
  const kept: AppendMemory = {
    forget(sessionId) {
      heads.forget(sessionId);
      calls.forget(sessionId);
    },
    knownTail: (sessionId, row) => heads.knownTail(sessionId, row),
  };
  return {
    file,
    projects: new Projects(db, now),
    sessions: new Sessions(db, now, totals, kept),
    events: new EventLog(db, projections, now),
    ledger: new Ledger(db),
    approvals: new Approvals(db),
    rules: new StoredRules(db, now),
    remote: new RemoteRuns(db, now),
    close: () => db.close(),
  };
}

function databaseFile(location: StoreLocation): string {
  if (typeof location === 'string') return path.join(location, DATABASE_FILE_NAME);
  if ('file' in location) return location.file === ':memory:' ? location.file : path.resolve(location.file);
  return path.join(location.dataDir, DATABASE_FILE_NAME);
}

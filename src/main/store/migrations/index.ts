import m0001 from './0001_initial.sql?raw';
import m0002 from './0002_lean_append.sql?raw';
import m0003 from './0003_keyed_log.sql?raw';
import m0004 from './0004_derived_from_log.sql?raw';
import m0005 from './0005_waiting_on_session.sql?raw';
import m0006 from './0006_project_default_mode.sql?raw';
import m0007 from './0007_remote_runs.sql?raw';

/** One step of the schema. `version` is the `PRAGMA user_version` the database has once it ran. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration this build knows, in order; a new one goes at the end and never edits an old one. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial', sql: m0001 },
  { version: 2, name: 'lean_append', sql: m0002 },
  { version: 3, name: 'keyed_log', sql: m0003 },
  { version: 4, name: 'derived_from_log', sql: m0004 },
  { version: 5, name: 'waiting_on_session', sql: m0005 },
  { version: 6, name: 'project_default_mode', sql: m0006 },
  { version: 7, name: 'remote_runs', sql: m0007 },
];

import type BetterSqlite3 from 'better-sqlite3';
import { StoreError } from '../storeError';
import type { Checkpointer } from './checkpointer';
import { explainSqliteError } from './sqliteErrors';

/**
 * One connection to a Tether database, and the group commit over it. store/sqlite/ is the one door
 * to SQLite: the only folder that imports better-sqlite3, so the native module (built per ABI:
 * Node's for the CLI and tests, Electron's for the app) has a single place to be swapped or mocked,
 * and every error it throws is turned into one a person can act on (sqliteErrors.ts). Opened by
 * openDatabase.ts, which migrates (migrate.ts) and hands checkpoints to a worker (checkpointer.ts).
 */

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

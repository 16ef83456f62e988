import type BetterSqlite3 from 'better-sqlite3';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { nativeBindingOption, sqliteBinding } from './sqliteBinding';

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
 * It starts once the WAL holds as much as makes SQLite checkpoint by itself (its default 1000 pages):
 * until then no commit would have stalled, and a process that only reads (`tether sessions`) or a short
 * `tether run` never pays for the thread (some 10 MB of memory; bench/start.bench.ts).
 */
export class Checkpointer {
  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  private worker: Worker | undefined;

  constructor(
    private readonly file: string,
    /** How large the WAL grows before the worker starts. */
    private readonly startAtWalBytes: number,
    private readonly onFailure: () => void,
  ) {}

  private start(): void {
    const require = createRequire(import.meta.url);
    const binding = require.resolve('better-sqlite3');
    // Loaded when the first worker starts: most processes never start one.
    const { Worker: WorkerThread } = require('node:worker_threads') as typeof import('node:worker_threads');
    const worker = new WorkerThread(CHECKPOINT_WORKER, {
      eval: true,
      workerData: {
        file: this.file,
        binding,
        nativeBinding: nativeBindingOption(sqliteBinding()),
        pauseMs: CHECKPOINT_PAUSE_MS,
        idleMs: IDLE_WAKE_MS,
        shared: this.shared.buffer,
      },
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
    if (this.worker === undefined) {
      if (Atomics.load(this.shared, STATE) !== STARTING || walBytes(this.file) < this.startAtWalBytes) return;
      this.start();
    }
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
    // Its connection is closed: nothing is left to wait for, and a listener would keep a process
    // that is done alive until the thread is torn down.
    this.worker?.removeAllListeners();
    void this.worker?.terminate();
  }
}

/**
 * Hands this connection's WAL checkpoints to a Checkpointer. Left to this connection only when the
 * worker falls behind, so the WAL stays bounded; if the worker cannot run at all, SQLite's own
 * default takes over again.
 */
export function checkpointInBackground(file: string, sqlite: BetterSqlite3.Database): Checkpointer {
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  const pageSize = Number(sqlite.pragma('page_size', { simple: true }));
  return new Checkpointer(file, SQLITE_DEFAULT_CHECKPOINT_PAGES * pageSize, () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_CHECKPOINT_PAGES}`);
  });
}

/** The WAL's size now (0 when there is none yet). */
function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

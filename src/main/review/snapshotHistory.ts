import type { ShadowRepo } from '../workspace/shadowRepo';

/** A file as a snapshot holds it: git's mode ('100644', '100755', '120000' for a link) and its blob. */
export interface SnapshotEntry {
  mode: string;
  oid: string;
}

/** One file that differs between two snapshots (null: not there). */
export interface SnapshotChange {
  path: string;
  from: SnapshotEntry | null;
  to: SnapshotEntry | null;
}

/** Snapshots never change, so what was read from them is kept; these bound the memory it takes. */
const MAX_PAIRS = 4000;
const MAX_BLOB_BYTES = 64 * 1024 * 1024;

/**
 * Reads what differs between snapshots of one shadow repository, and file contents, keeping what it
 * read: snapshots are immutable, and the live diff asks again after every tool call.
 */
export class SnapshotHistory {
  private readonly pairs = new Map<string, Promise<SnapshotChange[]>>();
  private readonly blobCache = new Map<string, Buffer>();
  private blobBytes = 0;

  constructor(readonly repo: ShadowRepo) {}

  /** The files that differ between snapshot commits `from` and `to`. */
  changes(from: string, to: string): Promise<SnapshotChange[]> {
    if (from === to) return Promise.resolve([]);
    const key = `${from}..${to}`;
    let pending = this.pairs.get(key);
    if (!pending) {
      if (this.pairs.size >= MAX_PAIRS) this.pairs.clear();
      pending = this.readChanges(from, to);
      pending.catch(() => this.pairs.delete(key));
      this.pairs.set(key, pending);
    }
    return pending;
  }

  /** The contents of blobs `oids`, by oid. */
  async blobs(oids: Iterable<string>): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    const missing: string[] = [];
    for (const oid of new Set(oids)) {
      const cached = this.blobCache.get(oid);
      if (cached) found.set(oid, cached);
      else missing.push(oid);
    }
    if (missing.length === 0) return found;
    const run = await this.repo.git(['cat-file', '--batch'], { input: `${missing.join('\n')}\n` });
    const output = run.stdout;
    let at = 0;
    for (const oid of missing) {
      const headerEnd = output.indexOf(0x0a, at);
      const header = output.subarray(at, headerEnd).toString('utf8');
      const match = /^([0-9a-f]+) blob (\d+)$/.exec(header);
      if (!match) throw new Error(`The shadow repository ${this.repo.gitDir} has no file contents ${oid} (${header}).`);
      const size = Number(match[2]);
      const bytes = Buffer.from(output.subarray(headerEnd + 1, headerEnd + 1 + size));
      at = headerEnd + 1 + size + 1;
      found.set(oid, bytes);
      if (this.blobBytes + size > MAX_BLOB_BYTES) {
        this.blobCache.clear();
        this.blobBytes = 0;
      }
      this.blobCache.set(oid, bytes);
      this.blobBytes += size;
    }
    return found;
  }

  private async readChanges(from: string, to: string): Promise<SnapshotChange[]> {
    const run = await this.repo.git(['diff-tree', '-r', '-z', '--no-renames', '--no-ext-diff', '--raw', from, to]);
    // ":<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0" per file.
    const tokens = run.stdout.toString('utf8').split('\0');
    const changes: SnapshotChange[] = [];
    for (let index = 0; index + 1 < tokens.length; index += 2) {
      const match = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) [A-Z]/.exec(tokens[index]!);
      if (!match) break;
      const side = (mode: string, oid: string): SnapshotEntry | null => (/^0+$/.test(mode) ? null : { mode, oid });
      changes.push({ path: tokens[index + 1]!, from: side(match[1]!, match[3]!), to: side(match[2]!, match[4]!) });
    }
    return changes;
  }
}

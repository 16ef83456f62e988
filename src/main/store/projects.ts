import path from 'node:path';
import type { PermissionMode } from '../../shared/permissions';
import type { Database, Statement } from './sqlite/database';
import { newId } from './newId';
import { StoreError } from './storeError';

/** A folder Tether has worked in. */
export interface ProjectRow {
  id: string;
  /** Absolute; unique. */
  path: string;
  name: string;
  /** A trusted folder's .tether/settings.json may also allow; an untrusted one only ask and deny. */
  trusted: boolean;
  /**
   * The mode the project's new sessions in the app start in, as the person chose it when the project
   * was first opened (or in Settings); null until they have. Kept here, never in the project's folder.
   */
  defaultMode: ProjectMode | null;
  createdAt: number;
}

/** A mode a project's new sessions may start in: never unleashed. */
export type ProjectMode = Exclude<PermissionMode, 'unleashed'>;

interface ProjectRecord extends Omit<ProjectRow, 'trusted'> {
  trusted: 0 | 1;
}

const COLUMNS = 'id, path, name, trusted, default_mode AS defaultMode, created_at AS createdAt';

export class Projects {
  private readonly selectOne: Statement<[string], ProjectRecord>;
  private readonly selectByPath: Statement<[string], ProjectRecord>;
  private readonly selectAll: Statement<[], ProjectRecord>;
  private readonly ensureTx: (folder: string, name: string | undefined) => ProjectRow;
  private readonly setTrustedTx: (id: string, trusted: boolean) => ProjectRow;
  private readonly setDefaultModeTx: (id: string, mode: ProjectMode) => ProjectRow;

  constructor(db: Database, now: () => number) {
    this.selectOne = db.prepare(`SELECT ${COLUMNS} FROM projects WHERE id = ?`);
    this.selectByPath = db.prepare(`SELECT ${COLUMNS} FROM projects WHERE path = ?`);
    this.selectAll = db.prepare(`SELECT ${COLUMNS} FROM projects ORDER BY name, path`);
    const insert = db.prepare<[{ id: string; path: string; name: string; at: number }]>(
      'INSERT INTO projects (id, path, name, created_at) VALUES (@id, @path, @name, @at) ON CONFLICT (path) DO NOTHING',
    );
    const setTrusted = db.prepare<[{ id: string; trusted: 0 | 1 }], ProjectRecord>(
      `UPDATE projects SET trusted = @trusted WHERE id = @id RETURNING ${COLUMNS}`,
    );

    const setDefaultMode = db.prepare<[{ id: string; mode: ProjectMode }], ProjectRecord>(
      `UPDATE projects SET default_mode = @mode WHERE id = @id RETURNING ${COLUMNS}`,
    );

    this.ensureTx = db.writer((folder: string, name: string | undefined) => {
      const absolute = path.resolve(folder);
      insert.run({ id: newId(), path: absolute, name: name ?? path.basename(absolute), at: now() });
      return toRow(this.selectByPath.get(absolute) as ProjectRecord);
    });
    this.setTrustedTx = db.writer((id: string, trusted: boolean) => {
      const updated = setTrusted.get({ id, trusted: trusted ? 1 : 0 });
      if (!updated)
        throw new StoreError('not_found', `There is no project ${id} in ${db.file}; list the projects to find the one you mean.`);
      return toRow(updated);
    });
    this.setDefaultModeTx = db.writer((id: string, mode: ProjectMode) => {
      const updated = setDefaultMode.get({ id, mode });
      if (!updated)
        throw new StoreError('not_found', `There is no project ${id} in ${db.file}; list the projects to find the one you mean.`);
      return toRow(updated);
    });
  }

  /** The project for `folder`, added (untrusted) the first time it is seen. */
  ensure(folder: string, name?: string): ProjectRow {
    return this.ensureTx(folder, name);
  }

  get(id: string): ProjectRow | undefined {
    const record = this.selectOne.get(id);
    return record && toRow(record);
  }

  byPath(folder: string): ProjectRow | undefined {
    const record = this.selectByPath.get(path.resolve(folder));
    return record && toRow(record);
  }

  list(): ProjectRow[] {
    return this.selectAll.all().map(toRow);
  }

  setTrusted(id: string, trusted: boolean): ProjectRow {
    return this.setTrustedTx(id, trusted);
  }

  /** The mode the project's new sessions start in (the person's answer to the first-open question, or Settings). */
  setDefaultMode(id: string, mode: ProjectMode): ProjectRow {
    return this.setDefaultModeTx(id, mode);
  }
}

function toRow(record: ProjectRecord): ProjectRow {
  return { ...record, trusted: record.trusted === 1 };
}

/** Why the store refused or failed; the message says what happened, to which file, and what to do next. */
export type StoreErrorCode =
  /** Another process held the write lock for longer than the busy timeout. */
  | 'locked'
  /** The file cannot be opened or created (a missing folder, no permission). */
  | 'cannot_open'
  /** The copy made before a migration failed; nothing was migrated. */
  | 'backup_failed'
  /** A migration failed and was rolled back; the database is at the schema it had before it. */
  | 'migration_failed'
  /** The file's schema is newer than this build knows; it was left untouched. */
  | 'newer_schema'
  /** The file is not a SQLite database at all. */
  | 'not_a_database'
  /** The file is a SQLite database that some other program owns. */
  | 'foreign_database'
  /** SQLite found the file damaged, or a stored event no longer parses. */
  | 'corrupt'
  /** The request itself is incomplete (a project rule without its project). */
  | 'invalid'
  /** No such session, project, approval or rule. */
  | 'not_found'
  /** The write contradicts what is stored (a call started twice, an approval answered twice). */
  | 'conflict'
  /** Writes that waited to be committed together were rolled back (a full disk, an I/O error). */
  | 'write_failed';

export class StoreError extends Error {
  override readonly name = 'StoreError';

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The one wording for a session id that is not in the store, wherever it is looked up. */
export function noSuchSession(file: string, sessionId: string): StoreError {
  return new StoreError(
    'not_found',
    `There is no session ${sessionId} in ${file}; it may have been deleted. List the sessions to find the one you mean.`,
  );
}

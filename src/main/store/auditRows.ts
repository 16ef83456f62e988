import type { AuditRow } from '../../shared/auditExport';
import { auditEntries } from '../../shared/auditTrail';
import type { Store } from './store';

/** Which decisions to list: one session's or every session's, from a time on. */
export interface AuditFilter {
  sessionId?: string;
  /** Ms since the epoch: decisions before it are left out. */
  since?: number;
}

/**
 * Every decision the store's sessions recorded, each with its session's project (the project's
 * folder, else the session's own), oldest first. `tether audit` and the UI's permission history both
 * list these, so what the window shows and exports is what the command prints.
 * Undefined when the filter names a session that does not exist.
 */
export function auditRows(store: Store, filter: AuditFilter = {}): AuditRow[] | undefined {
  let sessions = store.sessions.list();
  if (filter.sessionId !== undefined) {
    const session = store.sessions.get(filter.sessionId);
    if (!session) return undefined;
    sessions = [session];
  }
  const projects = new Map(store.projects.list().map((project) => [project.id, project.path]));
  const { since } = filter;
  return sessions
    .flatMap((session) => {
      // A remote run's decisions name its runner, and its repository there stands for the project.
      const remote = store.remote.run(session.id);
      const project = remote?.repository ?? (session.projectId !== null ? projects.get(session.projectId) : undefined) ?? session.workspace;
      return auditEntries(store.events.list(session.id)).map((entry) => ({
        ...entry,
        project,
        ...(remote ? { runner: remote.runner } : {}),
      }));
    })
    .filter((row) => since === undefined || row.at >= since)
    .sort((a, b) => a.at - b.at || a.seq - b.seq);
}

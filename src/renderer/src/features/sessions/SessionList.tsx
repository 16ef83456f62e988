import type { SessionSummary } from '../../../../shared/contract';
import { SessionItem } from './SessionItem';

export function SessionList({ sessions }: { sessions: SessionSummary[] }) {
  if (sessions.length === 0) return <p className="sidebar-note faint">No sessions yet.</p>;
  return (
    <ul className="session-list" data-testid="session-list">
      {sessions.map((session) => (
        <SessionItem key={session.id} session={session} />
      ))}
    </ul>
  );
}

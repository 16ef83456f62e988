import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { SessionSummary } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';
import { Icon } from '../../ui/Icon';
import { SessionList } from './SessionList';
import './remoteRuns.css';

/**
 * Runs on other machines that report to this desk (`tether run --desk`), under their runner: each
 * runner's machine, repository and branch, and whether its run is connected now. They are shown and
 * answered here; they run where they are.
 */
export function RemoteRuns() {
  const remote = useApp(useShallow((state) => Object.values(state.sessions).filter((session) => session.remote !== undefined)));
  if (remote.length === 0) return null;
  const byRunner = new Map<string, SessionSummary[]>();
  for (const session of [...remote].sort((a, b) => b.updatedAt - a.updatedAt)) {
    const runner = session.remote!.runner;
    byRunner.set(runner, [...(byRunner.get(runner) ?? []), session]);
  }
  return (
    <section className="remote-runs" aria-label="Remote runs" data-testid="remote-runs">
      <h2 className="remote-runs-title faint">Remote runs</h2>
      {[...byRunner].map(([runner, sessions]) => (
        <RunnerGroup key={runner} runner={runner} sessions={sessions} />
      ))}
    </section>
  );
}

function RunnerGroup({ runner, sessions }: { runner: string; sessions: SessionSummary[] }) {
  const [open, setOpen] = useState(true);
  const connected = sessions.filter((session) => session.remote?.connected).length;
  const latest = sessions[0]!.remote!;
  return (
    <section className="project-group" aria-label={`Runner ${runner}`} data-testid="runner-group" data-runner={runner}>
      <div className="project-header">
        <button
          type="button"
          className="ghost project-toggle"
          aria-expanded={open}
          onClick={() => setOpen((value) => !value)}
          title={`${latest.machine} · ${latest.repository}${latest.branch ? ` @ ${latest.branch}` : ''}`}
        >
          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} />
          <span className="project-name">{runner}</span>
        </button>
        <span
          className={`runner-state${connected > 0 ? ' connected' : ''}`}
          data-testid="runner-state"
          title={connected > 0 ? `${connected} run${connected === 1 ? '' : 's'} connected now` : 'No run connected now'}
        >
          {connected > 0 ? `${connected} live` : 'offline'}
        </span>
      </div>
      {open && (
        <>
          <p className="runner-where faint mono" data-testid="runner-where">
            {latest.machine} · {shortRepository(latest.repository)}
            {latest.branch ? ` @ ${latest.branch}` : ''}
          </p>
          <SessionList sessions={sessions} />
        </>
      )}
    </section>
  );
}

/** `https://example.com/team/app.git` → `team/app`: the part a person recognises. */
function shortRepository(repository: string): string {
  const match = /([^/:]+\/[^/]+?)(\.git)?\/?$/.exec(repository);
  return match?.[1] ?? repository;
}

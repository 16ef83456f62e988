import { useState } from 'react';
import type { PermissionMode } from '../../../../shared/permissions';
import { useApp } from '../../stores/useApp';
import { WorktreeOption } from '../diff/WorktreeOption';
import { TaskBox } from './TaskBox';

type StartMode = Exclude<PermissionMode, 'unleashed'>;

/** A new session being written: the task starts it in the project's folder. */
export function DraftSession({ projectId }: { projectId: string }) {
  const project = useApp((state) => state.projects.find((candidate) => candidate.id === projectId));
  const defaultMode = useApp((state) => state.settings?.mode ?? 'ask');
  const startSession = useApp((state) => state.startSession);
  const [mode, setMode] = useState<StartMode | null>(null);
  const chosen = mode ?? defaultMode;

  if (!project) {
    return (
      <main className="main-area">
        <div className="empty-state">That project is no longer open.</div>
      </main>
    );
  }

  async function handleSubmit(text: string): Promise<boolean> {
    if (!project) return false;
    return (await startSession(project.path, text, chosen)) !== undefined;
  }

  return (
    <main className="main-area draft" data-testid="draft-session" data-project-id={projectId}>
      <div className="draft-body">
        <h2>New session</h2>
        <p className="muted">
          in <span className="mono">{project.path}</span>
        </p>
        <label className="draft-mode">
          <span>Permission mode</span>
          <select value={chosen} data-testid="draft-mode-select" onChange={(event) => setMode(event.target.value as StartMode)}>
            <option value="ask">ask: edits and commands ask first</option>
            <option value="auto-edit">auto-edit: edits run, commands ask</option>
            <option value="read-only">read-only: nothing changes</option>
          </select>
        </label>
        <WorktreeOption projectId={projectId} />
      </div>
      <TaskBox
        autoFocus
        placeholder="What should the agent do? (Enter starts, Shift+Enter for a new line)"
        submitLabel="Start"
        onSubmit={handleSubmit}
      />
    </main>
  );
}

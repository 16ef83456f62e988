import { useCallback, useState } from 'react';
import type { StartMode } from '../../../../shared/contract';
import { getApi } from '../../lib/api';
import { useApp } from '../../stores/useApp';
import { WorktreeOption } from '../diff/WorktreeOption';
import { ProjectModeQuestion } from '../sessions/ProjectModeQuestion';
import { useSandboxAvailability } from '../sessions/useSandboxAvailability';
import { TaskBox } from './TaskBox';

/**
 * A new session being written: the task starts it in the project's folder. A project not asked yet
 * how it should work asks that first (once); its answer is the mode preselected here.
 */
export function DraftSession({ projectId }: { projectId: string }) {
  const project = useApp((state) => state.projects.find((candidate) => candidate.id === projectId));
  const settingsMode = useApp((state) => state.settings?.mode ?? 'ask');
  const startSession = useApp((state) => state.startSession);
  const [mode, setMode] = useState<StartMode | null>(null);
  const availability = useSandboxAvailability(project?.defaultMode === null ? undefined : projectId);
  const defaultMode = project?.defaultMode ?? settingsMode;
  const chosen = mode ?? defaultMode;
  const mentions = useCallback((query: string) => getApi().request('workspace:files', { projectId, query }), [projectId]);

  if (!project) {
    return (
      <main className="main-area">
        <div className="empty-state">That project is no longer open.</div>
      </main>
    );
  }
  if (project.defaultMode === null) {
    return (
      <main className="main-area draft scroll" data-testid="draft-session" data-project-id={projectId}>
        <ProjectModeQuestion project={project} />
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
            <option value="auto">auto: edits and sandboxed commands run, leaving the sandbox asks</option>
            <option value="read-only">read-only: nothing changes</option>
          </select>
        </label>
        <small className="faint draft-mode-note" data-testid="draft-mode-default">
          This project starts sessions in {project.defaultMode}; change that in Settings → Projects.
        </small>
        {chosen === 'auto' && availability?.available === false && (
          <small className="draft-mode-note warn" data-testid="draft-mode-auto-as-ask">
            No sandbox is available here, so auto works as ask: every command asks first. {availability.reason}
          </small>
        )}
        <WorktreeOption projectId={projectId} />
      </div>
      <TaskBox
        autoFocus
        once
        placeholder="What should the agent do? (Enter starts, Shift+Enter for a new line)"
        submitLabel="Start"
        onSubmit={handleSubmit}
        mentions={mentions}
      />
    </main>
  );
}

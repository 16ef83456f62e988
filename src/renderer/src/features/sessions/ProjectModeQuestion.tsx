import { useId, useState } from 'react';
import type { ProjectView, StartMode } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';
import { useSandboxAvailability } from './useSandboxAvailability';
import './projectMode.css';

/**
 * Asked once, the first time a project is opened: how should Tether work here? The answer is the
 * mode the project's new sessions start in, kept in Tether's data (never in the folder, which the
 * project could write) and changed later in Settings. Where no sandbox is available, auto says it
 * will work as ask, and why.
 */
export function ProjectModeQuestion({ project }: { project: ProjectView }) {
  const setProjectDefaultMode = useApp((state) => state.setProjectDefaultMode);
  const availability = useSandboxAvailability(project.id);
  const [saving, setSaving] = useState<StartMode | null>(null);
  const titleId = useId();
  const noSandbox = availability?.available === false ? availability.reason : undefined;

  async function choose(mode: StartMode) {
    if (saving) return;
    setSaving(mode);
    const kept = await setProjectDefaultMode(project.id, mode);
    if (!kept) setSaving(null);
  }

  return (
    <section className="project-mode-question" aria-labelledby={titleId} data-testid="project-mode-question" data-project-id={project.id}>
      <h2 id={titleId}>How should Tether work in {project.name}?</h2>
      <p className="muted">
        Asked once for <span className="mono">{project.path}</span>. New sessions here start the way you choose; change it later in
        Settings, or for one session in its header.
      </p>
      <div className="project-mode-choices">
        <button
          type="button"
          className="project-mode-choice"
          data-testid="project-mode-ask"
          disabled={saving !== null}
          onClick={() => void choose('ask')}
        >
          <span className="project-mode-choice-title">Ask before every command</span>
          <span className="project-mode-choice-line">
            Edits and commands wait for your Allow; only reading and searching inside the project run on their own. What you allow still
            runs in the sandbox.
          </span>
        </button>
        <button
          type="button"
          className="project-mode-choice"
          data-testid="project-mode-auto"
          data-works-as-ask={noSandbox ? 'true' : 'false'}
          disabled={saving !== null}
          onClick={() => void choose('auto')}
        >
          <span className="project-mode-choice-title">
            Run commands inside the sandbox on their own <span className="mono project-mode-tag">auto</span>
          </span>
          <span className="project-mode-choice-line">Edits in the project and commands the sandbox holds run unasked.</span>
          <span className="project-mode-choice-line">
            <strong>The fence:</strong> commands write only inside this folder, cannot read your secrets (~/.ssh, ~/.aws, .env files), and
            reach only the hosts you allowed.
          </span>
          <span className="project-mode-choice-line">
            <strong>Still asks:</strong> writes outside the folder, web fetches, MCP tools, and running a command again outside the sandbox.
          </span>
          {noSandbox && (
            <span className="project-mode-choice-warning" data-testid="project-mode-auto-as-ask">
              No sandbox is available here, so auto will work as ask: every command asks first, and each question says why. {noSandbox}
            </span>
          )}
        </button>
      </div>
    </section>
  );
}

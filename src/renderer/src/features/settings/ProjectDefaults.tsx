import { useState } from 'react';
import type { ProjectView, StartMode } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';
import { useSandboxAvailability } from '../sessions/useSandboxAvailability';
import '../sessions/projectMode.css';

const MODES: ReadonlyArray<{ value: StartMode; label: string }> = [
  { value: 'ask', label: 'ask: edits and commands ask first' },
  { value: 'auto-edit', label: 'auto-edit: edits run, commands ask' },
  { value: 'auto', label: 'auto: edits and sandboxed commands run, leaving the sandbox asks' },
  { value: 'read-only', label: 'read-only: nothing changes' },
];

/**
 * Each project's default mode: the answer to the question asked when it was first opened, changed
 * here. Kept in Tether's data, not in the project; `tether run` does not read it.
 */
export function ProjectDefaults() {
  const projects = useApp((state) => state.projects);
  const availability = useSandboxAvailability(projects[0]?.id);

  return (
    <section className="project-defaults" aria-labelledby="project-defaults-title" data-testid="project-defaults">
      <h2 id="project-defaults-title">Projects</h2>
      <p className="faint">
        The mode each project’s new sessions start in, as you answered when you first opened it. It is kept in Tether’s data, never in the
        project.
        <span className="mono"> tether run</span> does not use it: pass <span className="mono">--mode auto</span> there.
      </p>
      {availability?.available === false && (
        <p className="draft-mode-note warn" data-testid="project-defaults-auto-as-ask">
          No sandbox is available here, so auto works as ask: every command asks first. {availability.reason}
        </p>
      )}
      {projects.length === 0 ? (
        <p className="faint">No project is open yet.</p>
      ) : (
        projects.map((project) => <ProjectDefault key={project.id} project={project} />)
      )}
    </section>
  );
}

function ProjectDefault({ project }: { project: ProjectView }) {
  const setProjectDefaultMode = useApp((state) => state.setProjectDefaultMode);
  const [saving, setSaving] = useState(false);
  const id = `project-default-${project.id}`;

  async function change(mode: StartMode) {
    setSaving(true);
    await setProjectDefaultMode(project.id, mode);
    setSaving(false);
  }

  return (
    <div className="field project-default">
      <label htmlFor={id}>
        {project.name} <span className="faint mono project-default-path">{project.path}</span>
      </label>
      <select
        id={id}
        data-testid="project-default-mode"
        data-project-id={project.id}
        value={project.defaultMode ?? ''}
        disabled={saving}
        onChange={(event) => void change(event.target.value as StartMode)}
      >
        {project.defaultMode === null && (
          <option value="" disabled>
            not chosen yet: asked at its next new session
          </option>
        )}
        {MODES.map((mode) => (
          <option key={mode.value} value={mode.value}>
            {mode.label}
          </option>
        ))}
      </select>
    </div>
  );
}

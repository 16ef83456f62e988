import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ProjectView } from '../../../../shared/contract';
import { useApp } from '../../stores/useApp';
import { selectProjectSessions } from '../../stores/selectors';
import { Icon } from '../../ui/Icon';
import { IconButton } from '../../ui/IconButton';
import { SessionList } from './SessionList';
import { ProjectCost } from './ProjectCost';

/** One opened folder: its name, a way to start a session in it, and its sessions. */
export function ProjectGroup({ project }: { project: ProjectView }) {
  const sessions = useApp(useShallow((state) => selectProjectSessions(state, project.id)));
  const drafting = useApp((state) => state.draftProjectId === project.id && state.view === 'main');
  const startDraft = useApp((state) => state.startDraft);
  const trustProject = useApp((state) => state.trustProject);
  const [open, setOpen] = useState(true);

  function handleToggle() {
    setOpen((value) => !value);
  }
  function handleNewSession() {
    startDraft(project.id);
  }
  function handleTrust() {
    void trustProject(project.id, !project.trusted);
  }

  return (
    <section className="project-group" aria-label={`Project ${project.name}`} data-testid="project-item" data-project-id={project.id}>
      <div className={`project-header${drafting ? ' selected' : ''}`}>
        <button type="button" className="ghost project-toggle" aria-expanded={open} onClick={handleToggle} title={project.path}>
          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} />
          <span className="project-name">{project.name}</span>
        </button>
        <ProjectCost sessions={sessions} />
        <IconButton
          icon="shield"
          iconSize={12}
          pressed={project.trusted}
          title={
            project.trusted
              ? 'Trusted: this folder’s .tether/settings.json may allow actions. Click to stop trusting it.'
              : 'Not trusted: this folder’s .tether/settings.json may only add ask and deny rules. Click to trust it.'
          }
          label={project.trusted ? `Stop trusting ${project.name}` : `Trust ${project.name}`}
          data-testid="project-trust"
          onClick={handleTrust}
        >
          <span className="visually-hidden">{project.trusted ? 'trusted' : 'not trusted'}</span>
        </IconButton>
        <IconButton
          icon="plus"
          label={`New session in ${project.name}`}
          title="New session"
          data-testid="project-new-session"
          onClick={handleNewSession}
        />
      </div>
      {open && <SessionList sessions={sessions} />}
    </section>
  );
}

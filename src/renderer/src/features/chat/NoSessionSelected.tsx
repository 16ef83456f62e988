import { useApp } from '../../stores/useApp';

export function NoSessionSelected() {
  const firstProject = useApp((state) => state.projects[0]);
  const startDraft = useApp((state) => state.startDraft);
  return (
    <main className="main-area" data-testid="empty-session">
      <div className="empty-state">
        <h2>No session selected</h2>
        <p>Pick a session on the left, or start a new one in a project.</p>
        {firstProject && (
          <button type="button" className="primary" data-testid="empty-new-session" onClick={() => startDraft(firstProject.id)}>
            New session in {firstProject.name}
          </button>
        )}
      </div>
    </main>
  );
}

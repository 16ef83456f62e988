import { useEffect } from 'react';
import { useApp } from '../../stores/useApp';

/** The project's setting, shown where a session starts: give each new session a git worktree of its own. */
export function WorktreeOption({ projectId }: { projectId: string }) {
  const setting = useApp((state) => state.worktreeSettings[projectId]);
  const loadWorktreeSetting = useApp((state) => state.loadWorktreeSetting);
  const setWorktreeSetting = useApp((state) => state.setWorktreeSetting);

  useEffect(() => {
    void loadWorktreeSetting(projectId);
  }, [projectId, loadWorktreeSetting]);

  return (
    <div className="worktree-option">
      <label>
        <input
          type="checkbox"
          data-testid="worktree-toggle"
          checked={setting?.enabled ?? false}
          disabled={!setting || (setting.unavailable !== undefined && !setting.enabled)}
          onChange={(event) => void setWorktreeSetting(projectId, event.target.checked)}
        />
        <span>Work in a new git worktree and branch (this project’s setting)</span>
      </label>
      {setting?.unavailable && (
        <p className="faint" data-testid="worktree-unavailable">
          {setting.unavailable}
        </p>
      )}
    </div>
  );
}

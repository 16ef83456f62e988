import { useApp } from '../../stores/useApp';

/** The rules "Allow always" created, with where they apply; revoking one makes its action ask again. */
export function RulesList() {
  const rules = useApp((state) => state.rules);
  const status = useApp((state) => state.rulesStatus);
  const projects = useApp((state) => state.projects);
  const sessions = useApp((state) => state.sessions);
  const revokeRule = useApp((state) => state.revokeRule);
  const loadRules = useApp((state) => state.loadRules);

  function where(scope: string, projectId: string | null, sessionId: string | null): string {
    if (scope === 'project') return `project ${projects.find((project) => project.id === projectId)?.name ?? projectId ?? ''}`;
    if (scope === 'session') return `session ${sessions[sessionId ?? '']?.title || sessionId || ''}`;
    return 'everywhere';
  }

  return (
    <section className="rules" aria-labelledby="rules-title">
      <h2 id="rules-title">Remembered rules</h2>
      {status === 'error' ? (
        <p className="error-text">
          Could not list the rules.{' '}
          <button type="button" onClick={() => void loadRules()}>
            Try again
          </button>
        </p>
      ) : status !== 'ready' ? (
        <p className="faint">Loading…</p>
      ) : rules.length === 0 ? (
        <p className="faint" data-testid="rules-empty">
          No remembered rules. “Allow always” in the permission dialog adds one.
        </p>
      ) : (
        <table className="rules-table" data-testid="rules-list">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Action</th>
              <th scope="col">Applies to</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr key={rule.id} data-testid="rule-item" data-rule-id={rule.id}>
                <td className="mono rule-pattern">{rule.pattern}</td>
                <td className={`rule-action rule-${rule.action}`}>{rule.action}</td>
                <td>{where(rule.scope, rule.projectId, rule.sessionId)}</td>
                <td className="faint">{new Date(rule.createdAt).toLocaleString()}</td>
                <td className="rule-button">
                  <button
                    type="button"
                    data-testid="rule-revoke"
                    aria-label={`Revoke ${rule.pattern}`}
                    onClick={() => void revokeRule(rule.id)}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

import { Fragment, useId, useState, type FormEvent } from 'react';
import type { RuleAction } from '../../../../shared/permissions';
import { ruleFor } from '../../../../shared/toolCatalog';
import { useApp } from '../../stores/useApp';

const ACTIONS: { value: RuleAction; label: string; does: string }[] = [
  { value: 'deny', label: 'Deny', does: 'Deny: what it covers is refused without asking.' },
  { value: 'ask', label: 'Ask', does: 'Ask: what it covers always asks, whatever else allows it.' },
  { value: 'allow', label: 'Allow', does: 'Allow: what it covers runs without asking, unless a deny or ask rule covers it too.' },
];

/** One rule of each kind under the field, written with the catalog's rule tools. */
const RULE_EXAMPLES = [
  ruleFor('command', 'npm test *'),
  ruleFor('read', '.env'),
  ruleFor('write', 'src/**'),
  ruleFor('domain', 'domain:example.com'),
  'mcp__github__*',
];

/**
 * The allow, ask and deny rules of the person's settings.json, and a way to add one: main reads the
 * rule as every session reads the file and refuses one it cannot read, saying why. Deny beats ask
 * beats allow whatever the order, and the managed policy's rules hold over all of these.
 */
export function SettingsRulesList() {
  const lists = useApp((state) => state.settingsRules);
  const loadError = useApp((state) => state.settingsRulesError);
  const managed = useApp((state) => state.settings?.managedPolicy);
  const changeRule = useApp((state) => state.changeSettingsRule);
  const loadSettingsRules = useApp((state) => state.loadSettingsRules);
  const [action, setAction] = useState<RuleAction>('deny');
  const [rule, setRule] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const rows = lists ? ACTIONS.flatMap(({ value }) => lists[value].map((pattern) => ({ action: value, pattern }))) : [];

  async function handleAdd(event: FormEvent) {
    event.preventDefault();
    if (!rule.trim() || busy) return;
    setBusy(true);
    const refused = await changeRule('add', { action, rule });
    setBusy(false);
    setError(refused);
    // Only the rule that was added leaves the field: text typed while it was being added stays.
    if (refused === null) setRule((current) => (current === rule ? '' : current));
  }

  async function handleRemove(removed: { action: RuleAction; pattern: string }) {
    setError(await changeRule('remove', { action: removed.action, rule: removed.pattern }));
  }

  return (
    <section className="rules settings-rules" aria-labelledby="settings-rules-title" data-testid="settings-rules">
      <h2 id="settings-rules-title">Your rules</h2>
      <p className="faint settings-rules-where">
        In {lists ? <span className="mono">{lists.file}</span> : 'your settings.json'}, for every project. Deny beats ask beats allow,
        whatever the order.
        {managed && !managed.problem ? ' The managed policy’s rules hold whatever these say.' : ''}
      </p>
      {loadError ? (
        <p className="error-text" role="alert">
          Could not read your rules: {loadError}{' '}
          <button type="button" onClick={() => void loadSettingsRules()}>
            Try again
          </button>
        </p>
      ) : rows.length > 0 ? (
        <table className="rules-table" data-testid="settings-rules-list">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Action</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.action}:${row.pattern}`} data-testid="settings-rule" data-action={row.action}>
                <td className="mono rule-pattern">{row.pattern}</td>
                <td className={`rule-action rule-${row.action}`}>{row.action}</td>
                <td className="rule-button">
                  <button
                    type="button"
                    data-testid="settings-rule-remove"
                    aria-label={`Remove ${row.pattern}`}
                    onClick={() => void handleRemove(row)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : lists ? (
        <p className="faint" data-testid="settings-rules-empty">
          None yet.
        </p>
      ) : null}
      <form className="settings-rule-add" onSubmit={(event) => void handleAdd(event)} aria-label="Add a rule">
        <select
          aria-label="What the rule does"
          data-testid="settings-rule-action"
          value={action}
          onChange={(event) => setAction(event.target.value as RuleAction)}
        >
          {ACTIONS.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor={inputId}>
          Rule
        </label>
        <input
          id={inputId}
          type="text"
          className="mono"
          data-testid="settings-rule-input"
          placeholder={ruleFor('command', 'rm *')}
          spellCheck={false}
          autoComplete="off"
          value={rule}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            setRule(event.target.value);
            setError(null);
          }}
        />
        <button type="submit" data-testid="settings-rule-add" disabled={!rule.trim() || busy}>
          Add
        </button>
      </form>
      {error && (
        <p className="error-text settings-rule-error" id={errorId} role="alert" data-testid="settings-rule-error">
          {error}
        </p>
      )}
      <p className="faint settings-rule-hint" id={hintId}>
        {ACTIONS.find((choice) => choice.value === action)?.does} Write <span className="mono">tool(specifier)</span>:{' '}
        {RULE_EXAMPLES.map((example, index) => (
          <Fragment key={example}>
            {index > 0 && ', '}
            <span className="mono">{example}</span>
          </Fragment>
        ))}
        .
      </p>
    </section>
  );
}

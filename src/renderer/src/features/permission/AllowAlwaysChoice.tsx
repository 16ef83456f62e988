import { useId } from 'react';
import type { Scope } from '../../../../shared/permissions';

/** How far an "Allow always" reaches. */
export type AlwaysScope = Exclude<Scope, 'once'>;

interface AllowAlwaysChoiceProps {
  rule: string;
  scope: AlwaysScope;
  hasProject: boolean;
  /** Off for an edited call: the rule was offered for the model's version, not the person's. */
  disabled?: boolean;
  onRuleChange(rule: string): void;
  onScopeChange(scope: AlwaysScope): void;
}

const scopes: { value: AlwaysScope; label: string }[] = [
  { value: 'session', label: 'this session' },
  { value: 'project', label: 'this project' },
  { value: 'everywhere', label: 'everywhere' },
];

/** The exact rule "Allow always" will create, editable, and how far it reaches. */
export function AllowAlwaysChoice({ rule, scope, hasProject, disabled = false, onRuleChange, onScopeChange }: AllowAlwaysChoiceProps) {
  const ruleId = useId();
  return (
    <fieldset className="allow-always" data-testid="permission-allow-always-options" disabled={disabled}>
      <legend>Allow always creates this rule</legend>
      <label htmlFor={ruleId} className="visually-hidden">
        Rule
      </label>
      <input
        id={ruleId}
        type="text"
        className="mono"
        data-testid="permission-rule-input"
        data-enter="always"
        spellCheck={false}
        value={rule}
        onChange={(event) => onRuleChange(event.target.value)}
      />
      <div className="scope-choice" role="radiogroup" aria-label="Where the rule applies">
        {scopes.map((option) => (
          <label key={option.value} className={option.value === 'project' && !hasProject ? 'faint' : undefined}>
            <input
              type="radio"
              name={`${ruleId}-scope`}
              value={option.value}
              data-testid={`permission-scope-${option.value}`}
              checked={scope === option.value}
              disabled={option.value === 'project' && !hasProject}
              onChange={() => onScopeChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

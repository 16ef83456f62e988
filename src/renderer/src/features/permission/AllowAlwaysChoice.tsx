import { useEffect, useId, useLayoutEffect, useRef } from 'react';
import type { Scope } from '../../../../shared/permissions';

/** How far an "Allow always" reaches. */
export type AlwaysScope = Exclude<Scope, 'once'>;

interface AllowAlwaysChoiceProps {
  rule: string;
  scope: AlwaysScope;
  hasProject: boolean;
  /** Off for an edited call: the rule was offered for the model's version, not the person's. */
  disabled?: boolean;
  /** For a remote run: its runner. The rule then reaches this run, or this repository on that runner (kept at the desk). */
  remoteRunner?: string;
  onRuleChange(rule: string): void;
  onScopeChange(scope: AlwaysScope): void;
}

const scopes: { value: AlwaysScope; label: string }[] = [
  { value: 'session', label: 'this session' },
  { value: 'project', label: 'this project' },
  { value: 'everywhere', label: 'everywhere' },
];

/** What reaches far enough for a run on another machine: never "everywhere", and its repository only on its own runner. */
function remoteScopes(runner: string): { value: AlwaysScope; label: string }[] {
  return [
    { value: 'session', label: 'this run' },
    { value: 'project', label: `this repository on ${runner}` },
  ];
}

/**
 * The exact rule "Allow always" will create, editable, and how far it reaches. The rule box wraps
 * and grows with the rule, so all of a long command's rule is seen before it is allowed for good.
 */
export function AllowAlwaysChoice({
  rule,
  scope,
  hasProject,
  disabled = false,
  remoteRunner,
  onRuleChange,
  onScopeChange,
}: AllowAlwaysChoiceProps) {
  const choices = remoteRunner === undefined ? scopes : remoteScopes(remoteRunner);
  const ruleId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => fitToText(box.current), [rule]);
  // A narrower request (a resized pane, a smaller window) wraps the rule onto more lines.
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => fitToText(element));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <fieldset className="allow-always" data-testid="permission-allow-always-options" disabled={disabled}>
      <legend>Allow always creates this rule</legend>
      <label htmlFor={ruleId} className="visually-hidden">
        Rule
      </label>
      <textarea
        ref={box}
        id={ruleId}
        rows={1}
        className="mono rule-box"
        data-testid="permission-rule-input"
        data-enter="always"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        value={rule}
        // A rule is one line: Enter answers (see the dialog), and a pasted line break becomes a space.
        onChange={(event) => onRuleChange(event.target.value.replace(/\r?\n/g, ' '))}
      />
      <div className="scope-choice" role="radiogroup" aria-label="Where the rule applies">
        {choices.map((option) => (
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

/** Makes the box as tall as its wrapped text, so no part of the rule scrolls out of sight. */
function fitToText(element: HTMLTextAreaElement | null): void {
  if (!element) return;
  element.style.height = 'auto';
  element.style.height = `${element.scrollHeight + element.offsetHeight - element.clientHeight}px`;
}

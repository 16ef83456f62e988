import type { ManagedPolicyView } from '../../../../shared/contract';

/**
 * What the machine's managed policy fixes, at the top of Settings: controls it disables point here.
 * Every line is plain text (the file is the administrator's, but still never rendered as HTML).
 */
export function ManagedPolicyNotice({ policy }: { policy: ManagedPolicyView }) {
  if (policy.problem) {
    return (
      <div className="managed-policy error-text" role="alert" data-testid="settings-managed-policy">
        {policy.problem}
      </div>
    );
  }
  return (
    <div className="managed-policy" data-testid="settings-managed-policy">
      <strong>Managed by your organisation</strong>
      <span className="faint"> ({policy.file}). Your settings cannot loosen:</span>
      <ul>
        {policy.fixes.map((fix) => (
          <li key={fix}>{fix}</li>
        ))}
      </ul>
    </div>
  );
}

/** The outside-content choices from least to most care; those below the policy's floor are disabled. */
const CARE = ['off', 'ask', 'block'] as const;

export function belowFloor(policy: ManagedPolicyView | undefined, choice: (typeof CARE)[number]): boolean {
  const floor = policy?.outsideContentFloor;
  return floor !== undefined && CARE.indexOf(choice) < CARE.indexOf(floor);
}

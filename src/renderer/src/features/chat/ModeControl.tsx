import { useState } from 'react';
import type { PermissionMode } from '../../../../shared/permissions';
import { useApp } from '../../stores/useApp';

const modes: { value: PermissionMode; label: string }[] = [
  { value: 'ask', label: 'ask' },
  { value: 'auto-edit', label: 'auto-edit' },
  { value: 'auto', label: 'auto (sandboxed)' },
  { value: 'read-only', label: 'read-only' },
  { value: 'unleashed', label: 'unleashed' },
];

/** The session's permission mode. Unleashed is one deliberate step further: it asks to be confirmed. */
export function ModeControl({ sessionId, mode }: { sessionId: string; mode: PermissionMode }) {
  const setSessionMode = useApp((state) => state.setSessionMode);
  // The managed policy may turn unleashed off; main refuses it anyway, the control says so first.
  const unleashedOffBy = useApp((state) =>
    state.settings?.managedPolicy?.unleashedDisabled ? state.settings.managedPolicy.file : undefined,
  );
  const [confirming, setConfirming] = useState(false);

  function handleChange(value: PermissionMode) {
    if (value === mode) return;
    if (value === 'unleashed') {
      setConfirming(true);
      return;
    }
    void setSessionMode(sessionId, value);
  }
  function handleConfirm() {
    setConfirming(false);
    void setSessionMode(sessionId, 'unleashed');
  }

  return (
    <span className="mode-control">
      <label className="visually-hidden" htmlFor={`mode-${sessionId}`}>
        Permission mode
      </label>
      <select
        id={`mode-${sessionId}`}
        className={`mode-select mode-${mode}`}
        data-testid="mode-select"
        value={mode}
        title="Permission mode: what runs without asking"
        onChange={(event) => handleChange(event.target.value as PermissionMode)}
      >
        {modes.map((option) => (
          <option
            key={option.value}
            value={option.value}
            disabled={option.value === 'unleashed' && unleashedOffBy !== undefined && mode !== 'unleashed'}
            title={option.value === 'unleashed' && unleashedOffBy ? `Turned off by the managed policy (${unleashedOffBy})` : undefined}
          >
            {option.value === 'unleashed' && unleashedOffBy ? `${option.label} (off: managed policy)` : option.label}
          </option>
        ))}
      </select>
      {confirming && (
        <span className="mode-confirm" role="group" aria-label="Confirm unleashed mode">
          <span>Run every action without asking? Deny rules still hold.</span>
          <button type="button" className="danger" data-testid="mode-unleash-confirm" autoFocus onClick={handleConfirm}>
            Unleash
          </button>
          <button type="button" data-testid="mode-unleash-cancel" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      )}
    </span>
  );
}

import type { Ref } from 'react';
import type { ConnectionTestResult } from '../../../../shared/modelSetup';
import { useClickOnceSeen } from '../../ui/seenBeforeClick';
import { ConnectionResult } from './ConnectionResult';

/**
 * A model address that did not answer, about to be saved: what the test found, and a choice made on
 * purpose (save it anyway, or keep editing). The model forms of Settings and of the first run both
 * ask it, in the same words.
 */
export function DeadAddressWarning({
  baseUrl,
  result,
  saveLabel,
  saving,
  testIdPrefix,
  onSave,
  onKeepEditing,
  ref,
}: {
  baseUrl: string;
  result: ConnectionTestResult;
  /** The button that saves it all the same: "Save anyway", "Use it anyway". */
  saveLabel: string;
  saving: boolean;
  /** `settings` or `setup`: the test ids the e2e specs find its parts by. */
  testIdPrefix: string;
  onSave(): void;
  onKeepEditing(): void;
  ref?: Ref<HTMLDivElement>;
}) {
  // It appears where Save was: the second half of a double-click on Save must not save it anyway.
  const saveAnyway = useClickOnceSeen(onSave);
  return (
    <div ref={ref} className="dead-url-warning" role="alert" data-testid={`${testIdPrefix}-dead-url`}>
      <span>
        <strong>{baseUrl.trim()} does not answer as a model server.</strong> Sessions started with it will fail until it does.
      </span>
      <ConnectionResult result={result} />
      <div className="actions">
        <button type="button" className="danger" data-testid={`${testIdPrefix}-save-anyway`} disabled={saving} {...saveAnyway}>
          {saveLabel}
        </button>
        <button type="button" data-testid={`${testIdPrefix}-keep-editing`} onClick={onKeepEditing}>
          Keep editing
        </button>
      </div>
    </div>
  );
}

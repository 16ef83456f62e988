import type { ReactNode } from 'react';
import type { ConnectionTestResult } from '../../../../shared/modelSetup';
import { ConnectionResult } from './ConnectionResult';
import type { ConnectionTest } from './useConnectionTest';

/**
 * "Test connection" in a model form, and what it found: why the address cannot be tested, or the
 * models the server lists (a click picks one). Settings and the first run's setup both use it.
 */
export function ConnectionCheck({
  connection,
  baseUrl,
  shownResult,
  model,
  testId,
  hint,
  onTest,
  onPick,
}: {
  connection: ConnectionTest;
  baseUrl: string;
  /** The last answer, when it is for the address and API in the form; null hides it (a warning shows it instead). */
  shownResult: ConnectionTestResult | null;
  model: string;
  testId: string;
  hint?: ReactNode;
  onTest(): void;
  onPick(model: string): void;
}) {
  return (
    <>
      <div className="connection-row">
        <button type="button" data-testid={testId} disabled={connection.status === 'testing' || baseUrl.trim() === ''} onClick={onTest}>
          {connection.status === 'testing' ? 'Testing…' : 'Test connection'}
        </button>
        {hint}
      </div>
      {connection.invalid && (
        <small className="error-text" role="alert">
          {connection.invalid}
        </small>
      )}
      {shownResult && <ConnectionResult result={shownResult} selectedModel={model.trim()} onPick={onPick} />}
    </>
  );
}
